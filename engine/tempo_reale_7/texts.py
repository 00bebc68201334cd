"""Wording of Lupus in tempo reale (7th edition) rejections and events, Italian and English.

Placeholders are the rejection's params or the event's data. Codes shared by
the Lupus games share live in engine/lupus_common/texts.py; what is here overrides or adds.
"""
from ..lupus_common import texts

NAMES = {"it": "Lupus in tempo reale, settima edizione", "en": "Lupus in tempo reale, 7th edition"}

REJECTIONS = {**texts.REJECTIONS,
    "exiled": {"it": "La tua fazione ha perso ed è stata esiliata: non giochi più.",
               "en": "Your faction has lost and was exiled: you no longer play."},
    "target_exiled": {"it": "{target} è in esilio e non fa più parte del gioco.",
                      "en": "{target} was exiled and is no longer part of the game."},
    "already_used": {"it": "Il potere ({power}) si usa una sola volta per partita, e l'hai già usato.",
                     "en": "This power ({power}) can be used once per game, and you already used it."},
    "used_last_night": {"it": "Il potere ({power}) si usa ogni due notti: l'hai usato la notte scorsa.",
                        "en": "This power ({power}) works every other night: you used it last night."},
    "first_night_kill": {"it": "I poteri che uccidono non si possono usare la prima notte.",
                         "en": "Killing powers cannot be used on the first night."},
    "spettro_not_yet": {"it": "Il tuo risveglio come Spettro è di questa notte: potrai usare il potere ({power}) dalla notte prossima.",
                        "en": "You have just become a Spettro: you can use your power ({power}) from next night."},
    "target2_required": {"it": "Il potere {power} richiede di scegliere anche un secondo personaggio.",
                         "en": "The {power} power needs a second player as well."},
    "power_required": {"it": "Scegli il potere soprannaturale da dare al nuovo Spettro.",
                       "en": "Choose the supernatural power to give the new Spettro."},
    "unknown_power": {"it": "Non esiste un potere soprannaturale chiamato «{power}».",
                      "en": "There is no supernatural power called “{power}”."},
    "power_taken": {"it": "Il potere {power} è già stato assegnato a uno Spettro.",
                    "en": "The {power} power has already been given to a Spettro."},
    "self_successor": {"it": "Il successore dev'essere un altro giocatore.",
                       "en": "Your successor must be another player."},
    "not_mayor": {"it": "Solo il Sindaco in vita può designare un successore.",
                  "en": "Only the living mayor can designate a successor."},
    "not_in_ruleset": {"it": "Questa azione non esiste in Lupus in tempo reale.",
                       "en": "This action does not exist in Lupus in tempo reale."},
    "no_power": {"it": "Il tuo ruolo ({role}) non ha un potere speciale da usare di notte.",
                 "en": "Your role ({role}) has no special power to use at night."},
    "dead_no_power": {"it": "I morti non usano poteri, a meno di essere Spettri.",
                      "en": "The dead use no power unless they are Spettri."},
    "target_not_alive": {"it": "{target} non è più in vita.", "en": "{target} is no longer alive."},
    "target_not_dead": {"it": "{target} è ancora in vita.", "en": "{target} is still alive."},
    # Set-up (SetupError): completes "the rules refuse this set-up: ...".
    "factions_missing": {"it": "tutte le fazioni devono essere in partita; manca: {missing}",
                         "en": "every faction must be in the game; missing: {missing}"},
    "not_dealt_at_start": {"it": "{role} non può essere assegnato all'inizio della partita",
                           "en": "{role} cannot be dealt at the start of a game"},
    "divinatore_propositions": {
        "it": "il Divinatore {name} deve avere quattro proposizioni, esattamente due vere",
        "en": "the Divinatore {name} needs four propositions, exactly two of them true"},
    "proposition_unknown_player": {
        "it": "una proposizione del Divinatore nomina {name}, che non è in partita",
        "en": "a proposition of the Divinatore names {name}, who is not in the game"}
}

EVENTS = {**texts.EVENTS,
    "aura": {"it": "L'aura di {target} è {aura}.", "en": "{target}'s aura is {aura}."},
    # Each power's answer says what it learns (§3.6): mystic.<yes|no>, acted_on and
    # visitors with their _none when the list is empty, others with its number.
    "mystic": {"it": "Attributo mistico di {target}: {mystic}.", "en": "Is {target} a mystic? {mystic}."},
    "mystic.yes": {"it": "{target} ha l'attributo mistico.", "en": "{target} is a mystic."},
    "mystic.no": {"it": "{target} non ha l'attributo mistico.", "en": "{target} is not a mystic."},
    "role": {"it": "Il ruolo di {target} è {role}.", "en": "{target}'s role is {role}."},
    "acted_on": {"it": "Questa notte {target} ha agito su {acted_on}.",
                 "en": "Tonight {target} acted on {acted_on}."},
    "acted_on_none": {"it": "Questa notte {target} non ha agito su nessuno.",
                      "en": "Tonight {target} acted on nobody."},
    "visitors": {"it": "Questa notte su {target} {visitors:ha|hanno} agito {visitors}.",
                 "en": "Tonight {visitors} acted on {target}."},
    "visitors_none": {"it": "Questa notte nessun altro ha agito su {target}.",
                      "en": "Tonight nobody else acted on {target}."},
    "others": {"it": "Questa notte su {target} {others:ha agito un altro personaggio|hanno agito "
                     "altri # personaggi}.",
               "en": "Tonight {others:one other player|# other players} acted on {target}."},
    "others_none": {"it": "Questa notte nessun altro personaggio ha agito su {target}.",
                    "en": "Tonight no other player acted on {target}."},
    "visited_by": {"it": "{visited_by} ti ha fatto visita.", "en": "{visited_by} visited you."},
    "spettro_power": {"it": "Il tuo potere di Spettro", "en": "Your Spettro's power"},
    "spettro": {"it": "Ti risvegli come Spettro, con il potere: {spettro}.",
                "en": "You wake as a Spettro, with the power: {spettro}."},
    "fantasma": {"it": "Il Fantasma {player} si risveglia come Spettro.",
                 "en": "The Fantasma {player} wakes as a Spettro."},
    "corrupted": {"it": "Lo Spettro {by} ha usato su di te la Corruzione: ora il tuo ruolo è Negromante.",
                  "en": "The Spettro {by} used Corruption on you: your role is now Negromante."},
    # The Masters' own copies of what a player is told in the second person (texts.masters_kind).
    "corrupted.masters": {"it": "Lo Spettro {by} corrompe {player}: ora è Negromante.",
                          "en": "The Spettro {by} corrupts {player}: now a Negromante."},
    "spettro.masters": {"it": "{player} si risveglia come Spettro, con il potere: {spettro}.",
                        "en": "{player} wakes as a Spettro, with the power: {spettro}."},
    "knows": {"it": "Conosci dall'inizio: {players}.", "en": "You know from the start: {players}."},
    "propositions": {"it": "Le tue quattro proposizioni (esattamente due vere e due false): "
                           "{propositions}.",
                     "en": "Your four propositions (exactly two true, two false): {propositions}."},
    "proposition": {"it": "{player} ha il ruolo {role}", "en": "{player} has the role {role}"},
    "proposition_true": {"it": "{player} ha il ruolo {role} (vera)",
                         "en": "{player} has the role {role} (true)"},
    "proposition_false": {"it": "{player} ha il ruolo {role} (falsa)",
                          "en": "{player} has the role {role} (false)"},
    "mystic_yes": {"it": "Hai l'attributo mistico.", "en": "You are a mystic."},
    "mystic_no": {"it": "Non hai l'attributo mistico.", "en": "You are not a mystic."},
    "necromancers": {"it": "I Negromanti che ti hanno risvegliato: {players}.",
                     "en": "The Negromanti who woke you: {players}."},
    "divinatore_propositions": {"it": "Proposizioni del Divinatore {player}: {propositions}.",
                                "en": "The Divinatore {player}'s propositions: {propositions}."},
    "election": {"it": "Elezione del Sindaco: {counts}.", "en": "Mayor election: {counts}."},
    "faction_lost": {"it": "La fazione dei {faction} ha perso: {members}.",
                     "en": "The faction of {faction} has lost: {members}."},
    "exile": {"it": "Vanno in esilio dal villaggio: {members}.", "en": "Exiled from the village: {members}."},
    "appointed": {"it": "Hai designato {player} come tuo successore.",
                  "en": "You designated {player} as your successor."},
    "contradiction": {"it": "Contraddizione risolta a caso: {failed:fallisce|falliscono} {failed}.",
                      "en": "Contradiction settled at random: {failed} fail."},
    "avvocato_saved": {"it": "L'Avvocato ha salvato {player} dal rogo.",
                       "en": "The Avvocato saved {player} from the pyre."},
    "fantasma_no_power": {"it": "Nessun potere libero per il Fantasma {player}.",
                          "en": "No free power for the Fantasma {player}."}
}

# Causes of death as the Masters read them (engine/tempo_reale_7/night.py).
CAUSES = {
    # Said of a player of either gender: a noun, never a participle ("sbranato").
    "wolves": {"it": "vittima dei Lupi", "en": "killed by the wolves"},
    "assassino": {"it": "colpo dell'Assassino", "en": "shot by the Assassino"},
    "morte": {"it": "Spettro della Morte", "en": "Spettro della Morte"},
}

# The titles of what the Masters may edit in a draw (``prepared_options``).
PREPARED = {
    "divinatore_propositions": {
        "it": "Proposizioni per il Divinatore {name} (esattamente due vere):",
        "en": "Propositions for the Divinatore {name} (exactly two true):"},
}

# What a pyre vote needs, beside its tally in the archive and the vote picture (engine/lupus_common/pyre.py).
TALLY = {
    "valid": {
        "it": "Votazione valida se vota almeno la metà dei vivi: {needed} su {living}; voti validi: "
              "{voters}. Va al rogo chi riceve più voti; a parità decide il voto del Sindaco, "
              "altrimenti la sorte.",
        "en": "The vote counts if at least half the living vote: {needed} of {living}; valid "
              "votes: {voters}. The player with the most votes goes to the stake; a tie is broken by "
              "the mayor's vote, else by lot.",
    },
}
