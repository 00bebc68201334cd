"""Wording of Lupus LIVE! 12 rejections and events, Italian and English.

Placeholders are the rejection's params or the event's data. Codes shared by
the Lupus games share live in engine/lupus_common/texts.py; what is here overrides or adds.
"""
from ..lupus_common import texts

NAMES = {"it": "Lupus LIVE!, dodicesima edizione", "en": "Lupus LIVE!, 12th edition"}

REJECTIONS = {**texts.REJECTIONS,
    # -- powers --------------------------------------------------------------
    "no_power": {"it": "Il tuo ruolo ({role}) non ha un potere da usare su un bersaglio.",
                 "en": "Your role ({role}) has no power to use on a target."},
    "target_required": {"it": "Devi indicare un bersaglio.", "en": "You must name a target."},
    "first_night_kill": {"it": "I Lupi Mannari non possono sbranare la prima notte.",
                         "en": "Werewolves cannot attack on the first night."},
    "cooldown": {"it": "Hai usato il tuo potere ({role}) la notte scorsa: questa notte "
                       "il regolamento non ti permette di usarlo.",
                 "en": "You used your power ({role}) last night: the rules do not let you "
                       "use it tonight."},
    "self_target": {"it": "Non puoi usare il tuo potere su di te.",
                    "en": "You cannot use your power on yourself."},
    "target_not_alive": {"it": "{target} non è più in vita: il bersaglio dev'essere un giocatore vivo.",
                         "en": "{target} is no longer alive: the target must be a living player."},
    "target_not_dead": {"it": "{target} è ancora in vita: il bersaglio dev'essere un fantasma.",
                        "en": "{target} is still alive: the target must be a ghost."},
    "dead_no_power": {"it": "I morti perdono i loro poteri (salvo un Replay riuscito).",
                      "en": "The dead lose their powers (unless a Replay succeeded)."},
    "missile_not_tonight": {"it": "Il Missile sceglie solo la seconda, la terza e la quarta notte.",
                            "en": "The Missile chooses only on the second, third and fourth night."},
    "missile_repeat": {"it": "Hai già scelto {target}: le tre scelte del Missile devono essere diverse.",
                       "en": "You already chose {target}: the Missile's three choices must differ."},
    # -- the Profeta -----------------------------------------------------------
    "no_question": {"it": "Solo il Profeta può rivolgere una domanda ai Master.",
                    "en": "Only the Profeta can ask the Masters a question."},
    "question_used": {"it": "Il Profeta può fare una sola domanda in tutta la partita, "
                            "e l'hai già fatta (o è stata sprecata).",
                      "en": "The Profeta asks one question in the whole game, and yours "
                            "has been asked (or wasted)."},
    "question_empty": {"it": "Scrivi la domanda (risposta Sì o No).",
                       "en": "Write the question (answer Yes or No)."},
    # -- Erede and Usurpatore ----------------------------------------------------
    "become_too_early": {"it": "L'Erede può scegliere il nuovo ruolo solo dal giorno {day}.",
                         "en": "The Erede may choose a new role only from day {day}."},
    "become_not_allowed": {"it": "Non puoi diventare {role}.", "en": "You cannot become {role}."},
    "become_not_earned": {"it": "L'Usurpatore sceglie un nuovo ruolo solo dopo aver ucciso un'Erede.",
                          "en": "The Usurpatore chooses a new role only after killing an Erede."},
    "no_become": {"it": "Il tuo ruolo ({role}) non può diventare un altro ruolo.",
                  "en": "Your role ({role}) cannot become another role."},
    "unknown_role": {"it": "Non esiste un ruolo «{role}».", "en": "There is no role “{role}”."},
    # -- Sindaco ---------------------------------------------------------------
    "not_mayor": {"it": "Solo il Sindaco in vita può nominare il Vicesindaco.",
                  "en": "Only the living mayor can appoint a deputy."},
    "appoint_self": {"it": "Il Sindaco non può nominare se stesso Vicesindaco.",
                     "en": "The mayor cannot appoint themselves as deputy."},
    # -- rituals ----------------------------------------------------------------
    "alive_no_ritual": {"it": "Solo i fantasmi (e il Satanista) partecipano ai rituali.",
                        "en": "Only ghosts (and the Satanista) take part in rituals."},
    "unknown_ritual": {"it": "Non esiste un rituale «{ritual}».",
                       "en": "There is no ritual “{ritual}”."},
    "ritual_bad_n": {"it": "Il parametro n dev'essere un intero positivo.",
                     "en": "The parameter n must be a positive whole number."},
    "ritual_target_required": {"it": "Il rituale {ritual} richiede un bersaglio.",
                               "en": "The ritual {ritual} needs a target."},
    "ritual_target_not_alive": {"it": "Il bersaglio di {ritual} dev'essere vivo; {target} non lo è.",
                                "en": "The target of {ritual} must be alive; {target} is not."},
    "ritual_target_not_dead": {"it": "Il bersaglio di {ritual} dev'essere morto; {target} non lo è.",
                               "en": "The target of {ritual} must be dead; {target} is not."},
    "ritual_with_alive": {"it": "{target} è in vita: il Satanista svolge i rituali con i soli fantasmi.",
                          "en": "{target} is alive: the Satanista performs rituals with ghosts only."},
    "ritual_one_living": {"it": "Al rituale può partecipare al più un vivo, il Satanista.",
                          "en": "At most one living player, the Satanista, can take part in a ritual."},
    "satanista_small_ritual": {"it": "Il Satanista partecipa solo a rituali di almeno 3 partecipanti "
                                     "({ritual} ne ha meno).",
                               "en": "The Satanista joins only rituals of at least 3 participants "
                                     "({ritual} has fewer)."}
}

EVENTS = {**texts.EVENTS,
    # The players' count of a day's votes (see LupusLive12.visible).
    "pyre_declared": {"it": "Voti dichiarati (1 ciascuno, il Sindaco 1¼): {tally}.",
                      "en": "Votes cast (1 each, the mayor's 1¼): {tally}."},
    # §1.7: a tie for the stake broken by lot.
    "pyre_lot": {"it": "Pareggio tra {tied}: la sorte ha scelto {burned}.",
                 "en": "A tie between {tied}: the lot fell on {burned}."},
    "pack": {"it": "Il tuo branco (i Lupi si conoscono tra loro): {members}.",
             "en": "Your pack (the Wolves, who know each other): {members}."},
    # A power's answer says what its question asked (personaggi §1.6, §1.8, §1.12, §2.4,
    # the Spionaggio §4.10):
    # answer.<question>.<yes|no>; the Profeta's own question is quoted with its answer.
    "answer.magic.yes": {"it": "{target} ha un potere magico.", "en": "{target} has a magic power."},
    "answer.magic.no": {"it": "{target} non ha un potere magico.",
                        "en": "{target} has no magic power."},
    "answer.aura_nera.yes": {"it": "{target} ha l'aura nera.", "en": "{target} has a black aura."},
    "answer.aura_nera.no": {"it": "{target} non ha l'aura nera.",
                            "en": "{target} does not have a black aura."},
    "answer.corrupt.yes": {"it": "{target} ha subito la corruzione.",
                           "en": "{target} has been corrupted."},
    "answer.corrupt.no": {"it": "{target} non ha subito la corruzione.",
                          "en": "{target} has not been corrupted."},
    "answer.spionaggio.yes": {"it": "{target} gioca per i Lupi.", "en": "{target} plays for the Wolves."},
    "answer.spionaggio.no": {"it": "{target} non gioca per i Lupi.",
                             "en": "{target} does not play for the Wolves."},
    # An answer to a question this table does not know (never made by the engine).
    "answer": {"it": "La risposta su {target} è: {answer}.", "en": "The answer about {target} is: {answer}."},
    "answer.profeta": {"it": "I Master rispondono alla tua domanda «{target}»: {answer}.",
                       "en": "The Masters' answer to your question “{target}”: {answer}."},
    "visited_by": {"it": "Questa notte ti ha fatto visita l'Espansivo: {visited_by}.",
                   "en": "Tonight the Espansivo visited you: {visited_by}."},
    "ritual": {"it": "Il rituale {ritual} è riuscito.", "en": "The {ritual} ritual succeeded."},
    "failed": {"it": "Il tuo potere o rituale non ha avuto effetto.",
               "en": "Your power or ritual had no effect."},
    "corrupted": {"it": "La corruzione ti ha raggiunto: ora giochi per i Lupi (non sai chi siano).",
                  "en": "You have been corrupted: you now play for the Wolves (you do not know who they are)."},
    "became": {"it": "Il tuo nuovo ruolo è {role}.", "en": "Your new role is {role}."},
    # A ritual submitted with nobody else (principale §1.10.2): it will fail, and why.
    "ritual_alone": {"it": "Attenzione: questo rituale richiede {count} partecipanti; senza altri "
                           "fantasmi fallirà.",
                     "en": "Beware: this ritual needs {count} participants; without other ghosts it "
                           "will fail."},
    # The Masters' own copies of what a player is told in the second person (texts.masters_kind).
    "corrupted.masters": {"it": "Corruzione: {player} passa ai Lupi.",
                          "en": "Corruption: {player} now plays for the Wolves."},
    "became.masters": {"it": "{player} prende il ruolo {role}.", "en": "{player} becomes {role}."},
    "become_void": {"it": "Non prendi il ruolo {role}: il tuo bersaglio non era un'Erede.",
                    "en": "You do not become {role}: your target was not an Erede."},
    "vice_appointed": {"it": "Hai nominato Vicesindaco {player}.",
                       "en": "You appointed {player} as deputy mayor."},
    # Masters only
    "profeta_question": {"it": "Domanda del Profeta {player}: «{question}» (serve la risposta).",
                         "en": "Question from the Profeta {player}: “{question}” (answer needed)."},
    "stall": {"it": "Stallo: nessuno muore da {quiet_phases:# fase|# fasi}.",
              "en": "Stall: nobody has died for {quiet_phases:# phase|# phases}."},
    "kidnapped": {"it": "Il Sequestratore rapisce {players}.", "en": "The Sequestratore kidnaps {players}."},
    "corruption_draw": {"it": "Corruzione di {player}: {corrupt} (attese {expected}, effettive {actual}).",
                        "en": "Corruption of {player}: {corrupt} (expected {expected}, actual {actual})."},
    "end_story": {"it": "\\end{{story}} con n={n}, Lupi vivi {wolves}.",
                  "en": "\\end{{story}} with n={n}, living Lupi {wolves}."},
    "ritual_failed": {"it": "Rituale {ritual} fallito ({members}).",
                      "en": "The {ritual} ritual failed ({members})."}
}

# Causes of death as the Masters read them (engine/lupus_live_12/death.py).
CAUSES = {
    # Said of a player of either gender: a noun, never a participle ("sbranato").
    "wolves": {"it": "vittima dei Lupi", "en": "killed by the wolves"},
    "cacciatore": {"it": "colpo del Cacciatore", "en": "shot by the Cacciatore"},
    "usurpatore": {"it": "per mano dell'Usurpatore", "en": "killed by the Usurpatore"},
    "omicidio": {"it": "rituale di Omicidio", "en": "the Omicidio ritual"},
    "missile": {"it": "Missile", "en": "Missile"},
}

# What a pyre vote needs, beside its tally in the archive and the vote picture (engine/lupus_common/pyre.py).
TALLY = {
    "valid": {
        "it": "Votazione valida se vota almeno la metà dei vivi: {needed} su {living}; voti "
              "espressi: {voters}. Va al rogo chi riceve più voti; a parità decide la sorte.",
        "en": "The vote counts if at least half the living vote: {needed} of {living}; votes "
              "cast: {voters}. The player with the most votes goes to the stake; a tie is drawn by lot.",
    },
    "weights": {
        "it": "Ogni voto vale 1, quello del Sindaco 1¼.",
        "en": "Each vote counts 1, the mayor's 1¼.",
    },
}
