"""Wording of Lupus in tempo reale (7th edition) rejections and events, Italian and English.

Placeholders are the rejection's params or the event's data. Codes shared by
every ruleset live in engine/texts.py; what is here overrides or adds.
"""
from .. import texts

NAMES = {"it": "Lupus in tempo reale, settima edizione", "en": "Lupus in tempo reale, 7th edition"}

REJECTIONS = {**texts.REJECTIONS, **{
    "exiled": {"it": "La tua fazione ha perso ed è stata esiliata: non giochi più.",
               "en": "Your faction has lost and was exiled: you no longer play."},
    "target_exiled": {"it": "{target} è stato esiliato e non fa più parte del gioco.",
                      "en": "{target} was exiled and is no longer part of the game."},
    "already_used": {"it": "Il potere ({power}) si usa una sola volta per partita, e l'hai già usato.",
                     "en": "This power ({power}) can be used once per game, and you already used it."},
    "used_last_night": {"it": "Il potere ({power}) si usa ogni due notti: l'hai usato la notte scorsa.",
                        "en": "This power ({power}) works every other night: you used it last night."},
    "first_night_kill": {"it": "I poteri che uccidono non si possono usare la prima notte.",
                         "en": "Killing powers cannot be used on the first night."},
    "spettro_not_yet": {"it": "Sei appena diventato Spettro: potrai usare il potere ({power}) dalla notte prossima.",
                        "en": "You have just become a Spettro: you can use your power ({power}) from next night."},
    "target2_required": {"it": "Il potere {power} richiede di scegliere anche un secondo personaggio.",
                         "en": "The {power} power needs a second player as well."},
    "power_required": {"it": "Scegli il potere soprannaturale da dare al nuovo Spettro.",
                       "en": "Choose the supernatural power to give the new Spettro."},
    "unknown_power": {"it": "Non esiste un potere soprannaturale chiamato «{power}».",
                      "en": "There is no supernatural power called “{power}”."},
    "power_taken": {"it": "Il potere {power} è già stato assegnato a uno Spettro.",
                    "en": "The {power} power has already been given to a Spettro."},
    "self_successor": {"it": "Non puoi designare te stesso come successore.",
                       "en": "You cannot designate yourself as your successor."},
    "not_mayor": {"it": "Solo il Sindaco in vita può designare un successore.",
                  "en": "Only the living mayor can designate a successor."},
    "not_in_ruleset": {"it": "Questa azione non esiste in Lupus in tempo reale.",
                       "en": "This action does not exist in Lupus in tempo reale."},
    "no_power": {"it": "Il tuo ruolo ({role}) non ha un potere speciale da usare di notte.",
                 "en": "Your role ({role}) has no special power to use at night."},
    "dead_no_power": {"it": "I morti non usano poteri, a meno di essere Spettri.",
                      "en": "The dead use no power unless they are Spettri."},
    "target_not_alive": {"it": "{target} non è vivo.", "en": "{target} is not alive."},
    "target_not_dead": {"it": "{target} non è morto.", "en": "{target} is not dead."},
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
        "en": "a proposition of the Divinatore names {name}, who is not in the game"},
}}

EVENTS = {**texts.EVENTS, **{
    "aura": {"it": "L'aura di {target} è {aura}.", "en": "{target}'s aura is {aura}."},
    "mystic": {"it": "{target} è un mistico: {mystic}.", "en": "{target} is a mystic: {mystic}."},
    "role": {"it": "Il ruolo di {target}: {role}.", "en": "{target}'s role: {role}."},
    "acted_on": {"it": "{target} ha agito su: {acted_on}.", "en": "{target} acted on: {acted_on}."},
    "visitors": {"it": "Hanno agito su {target}: {visitors}.", "en": "Those who acted on {target}: {visitors}."},
    "others": {"it": "Altri personaggi che hanno agito su {target}: {others}.",
               "en": "Other players who acted on {target}: {others}."},
    "visited_by": {"it": "Sei stato visitato da {visited_by}.", "en": "{visited_by} visited you."},
    "spettro_power": {"it": "Il tuo potere di Spettro", "en": "Your Spettro's power"},
    "spettro": {"it": "Sei stato risvegliato come Spettro con il potere: {spettro}.",
                "en": "You were woken as a Spettro with the power: {spettro}."},
    "fantasma": {"it": "Il Fantasma {player} è diventato uno Spettro.",
                 "en": "The Fantasma {player} has become a Spettro."},
    "corrupted": {"it": "Sei stato corrotto dallo Spettro {by}: ora sei un Negromante.",
                  "en": "The Spettro {by} corrupted you: you are now a Negromante."},
    "knows": {"it": "Conosci dall'inizio: {players}.", "en": "You know from the start: {players}."},
    "propositions": {"it": "Le tue quattro proposizioni (esattamente due vere e due false): "
                           "{propositions}.",
                     "en": "Your four propositions (exactly two true, two false): {propositions}."},
    "proposition": {"it": "{player} ha il ruolo {role}", "en": "{player} has the role {role}"},
    "proposition_true": {"it": "{player} ha il ruolo {role} (vera)",
                         "en": "{player} has the role {role} (true)"},
    "proposition_false": {"it": "{player} ha il ruolo {role} (falsa)",
                          "en": "{player} has the role {role} (false)"},
    "mystic_yes": {"it": "Sei un mistico.", "en": "You are a mystic."},
    "mystic_no": {"it": "Non sei un mistico.", "en": "You are not a mystic."},
    "necromancers": {"it": "I Negromanti che ti hanno risvegliato: {players}.",
                     "en": "The Negromanti who woke you: {players}."},
    "divinatore_propositions": {"it": "Proposizioni del Divinatore {player}: {propositions}.",
                                "en": "The Divinatore {player}'s propositions: {propositions}."},
    "election": {"it": "Elezione del Sindaco: {counts}.", "en": "Mayor election: {counts}."},
    "faction_lost": {"it": "La Fazione dei {faction} ha perso: {members}.",
                     "en": "The {faction} faction has lost: {members}."},
    "exile": {"it": "Esiliati dal villaggio: {members}.", "en": "Exiled from the village: {members}."},
    "appointed": {"it": "Hai designato {player} come tuo successore.",
                  "en": "You designated {player} as your successor."},
    "contradiction": {"it": "Contraddizione risolta a caso: falliscono {failed}.",
                      "en": "Contradiction settled at random: {failed} fail."},
    "avvocato_saved": {"it": "L'Avvocato ha salvato {player} dal rogo.",
                       "en": "The Avvocato saved {player} from the pyre."},
    "fantasma_no_power": {"it": "Nessun potere libero per il Fantasma {player}.",
                          "en": "No free power for the Fantasma {player}."},
}}

# Causes of death as the Masters read them (engine/tempo_reale_7/night.py).
CAUSES = {
    "wolves": {"it": "sbranato dai Lupi", "en": "killed by the wolves"},
    "assassino": {"it": "ucciso dall'Assassino", "en": "shot by the Assassino"},
    "morte": {"it": "Spettro della Morte", "en": "Spettro della Morte"},
}

# The titles of what the Masters may edit in a draw (``prepared_options``).
PREPARED = {
    "divinatore_propositions": {
        "it": "Proposizioni per il Divinatore {name} (esattamente due vere):",
        "en": "Propositions for the Divinatore {name} (exactly two true):"},
}

# What a pyre vote needs, beside its tally in the archive and the vote picture (engine/pyre.py).
TALLY = {
    "valid": {
        "it": "Votazione valida se vota almeno la metà dei vivi: {needed} su {living}; voti validi "
              "{voters}. Va al rogo chi riceve più voti; a parità decide il voto del Sindaco, "
              "altrimenti la sorte.",
        "en": "The vote counts if at least half the living vote: {needed} of {living}; {voters} "
              "valid votes. The player with the most votes goes to the stake; a tie is broken by "
              "the mayor's vote, else by lot.",
    },
}
