"""The wording of Lupus Noctis, Italian first: events, refusals, and what the narrator
reads aloud at night. Placeholders are the events' data keys."""
from __future__ import annotations

from typing import Any

from ..lupus_common import texts
from .roles import AMANTE, APPRENDISTA, CONTADINO, LICANTROPO, MEDIUM, PROCIONE, VEGGENTE

# The moments as pages and mail name them, with their number (the book's "Notte",
# "Mattina" and "Pomeriggio"; dawn and evening are resolved with them).
MOMENTS: dict[str, dict[str, str]] = {
    "night": {"it": "notte {number}", "en": "night {number}"},
    "morning": {"it": "mattina {number}", "en": "morning {number}"},
    "afternoon": {"it": "pomeriggio {number}", "en": "afternoon {number}"},
}

EVENTS: dict[str, dict[str, str]] = {
    # Dawn as the narrator announces it (lupus-noctis.md, Alba): who lost their life
    # tonight and who came back, without a word that agrees with a name's gender.
    "dawn": {"it": "È l'alba dopo la notte {night}.", "en": "Dawn breaks after night {night}."},
    "dawn_died": {"it": "Questa notte {died} {died:ha|hanno} perso la vita.",
                  "en": "Tonight {died} lost {died:their life|their lives}."},
    "dawn_nobody_died": {"it": "Nessuno è morto questa notte.", "en": "Nobody died tonight."},
    "dawn_revived": {"it": "{revived} {revived:torna|tornano} in vita.",
                     "en": "{revived} {revived:comes|come} back to life."},
    "death": {"it": "{player} ha perso la vita.", "en": "{player} has lost their life."},
    "death_pyre": {"it": "{player} muore sul rogo.", "en": "{player} dies at the stake."},
    "revive": {"it": "{player} torna in vita.", "en": "{player} comes back to life."},
    "runoff": {"it": "Vanno al ballottaggio {players}.", "en": "In the run-off: {players}."},
    "pyre": {"it": "Il villaggio manda al rogo {burned}.", "en": "The village sends {burned} to the stake."},
    "game_over": {"it": "La partita è finita: {winner}.", "en": "The game is over: {winner}."},
    "game_over_draw": {"it": "La partita è finita in parità.", "en": "The game ends in a draw."},
    "partners": {"it": "Vi riconoscete a vicenda: {partners}.",
                 "en": "You recognise each other: {partners}."},
    "aura": {"it": "L'aura di {player} è {aura}.", "en": "{player}'s aura is {aura}."},
    "failed": {"it": "Il tuo potere non ha avuto effetto.", "en": "Your power had no effect."},
    "night_kill": {"it": "I Licantropi hanno sbranato {player}.",
                   "en": "The Werewolves devoured {player}."},
    "night_kill_failed": {"it": "I Licantropi hanno attaccato {player}, ma l'attacco non ha effetto.",
                          "en": "The Werewolves attacked {player}, but the attack has no effect."},
    "pack_split": {"it": "I Licantropi non si sono accordati su una vittima: nessuno è sbranato.",
                   "en": "The Werewolves did not agree on a victim: nobody is devoured."},
    "raised": {"it": "{by} ha riportato in vita {player}.", "en": "{by} brought {player} back to life."},
    "role_card": {"it": "Il tuo ruolo: {role}.", "en": "Your role: {role}."},
}

REJECTIONS: dict[str, dict[str, str]] = {**texts.REJECTIONS,
    # -- set-up (the desk shows these after "the rules refuse this set-up:") --
    "no_standard_village": {"it": "Non c'è un villaggio standard per {players:# giocatore|# giocatori}: "
                                  "scegli tu la composizione.",
                            "en": "There is no standard village for {players:# player|# players}: "
                                  "choose the composition yourself."},
    "composition_size": {"it": "La composizione ha {roles:# ruolo|# ruoli} per {players:# giocatore|# giocatori}.",
                         "en": "The composition has {roles:# role|# roles} for {players:# player|# players}."},
    "seated_twice": {"it": "{name} siede due volte al tavolo.",
                     "en": "{name} is seated twice at the table."},
    "too_few_players": {"it": "Servono almeno {minimum} giocatori.",
                        "en": "At least {minimum} players are needed."},
    "unlucky_not_a_player": {"it": "Lo sfortunato ({name}) non è seduto al tavolo.",
                             "en": "The unlucky player ({name}) is not seated at the table."},
    "unknown_role": {"it": "Lupus Noctis non ha il ruolo «{role}».",
                     "en": "Lupus Noctis has no role called “{role}”."},
    "game_over": {"it": "La partita è finita.", "en": "The game is over."},
    "not_a_player": {"it": "{player} non gioca in questa partita.",
                     "en": "{player} is not in this game."},
    "not_in_ruleset": {"it": "In Lupus Noctis non si può fare.", "en": "Lupus Noctis has no such action."},
    "not_now": {"it": "Non è il momento di farlo.", "en": "This is not the moment for that."},
    "first_night": {"it": "La prima notte serve solo a riconoscersi: nessun potere.",
                    "en": "The first night is for recognition only: no powers."},
    "dead_cannot_vote": {"it": "I morti non votano.", "en": "The dead do not vote."},
    "dead_no_power": {"it": "I poteri funzionano solo da vivi.", "en": "Powers only work while alive."},
    "no_power": {"it": "{role} non ha poteri notturni.", "en": "{role} has no night power."},
    "already_used": {"it": "Il potere si usa una volta sola per partita.",
                     "en": "This power can be used once per game."},
    "unknown_player": {"it": "Nessun giocatore si chiama {target}.", "en": "No player is called {target}."},
    "target_not_alive": {"it": "{target} non è più in vita.", "en": "{target} is no longer alive."},
    "target_not_dead": {"it": "{target} è ancora in vita.", "en": "{target} is still alive."},
    "self_target": {"it": "Il bersaglio dev'essere un altro giocatore.", "en": "You cannot choose yourself."},
    "target_is_licantropo": {"it": "I Licantropi non sbranano un Licantropo.",
                             "en": "The Werewolves do not devour a Werewolf."},
    "in_runoff": {"it": "Chi è al ballottaggio non vota.", "en": "Players in the run-off do not vote."},
    "identify_missing": {"it": "Tocca i volti dei giocatori di ogni ruolo chiamato.",
                         "en": "Tap the faces of the players of each role called."},
    "identify_unknown_role": {"it": "{role} non è un ruolo di Lupus Noctis.",
                              "en": "{role} is not a Lupus Noctis role."},
    "identify_count": {"it": "{role}: {expected:serve # giocatore|servono # giocatori}, {got:ne hai indicato uno|ne hai indicati #}.",
                       "en": "{role}: {expected:# player is|# players are} needed, you tapped {got}."},
    "identify_twice": {"it": "Hai già indicato {player} come {other}.",
                       "en": "{player} was already tapped as {other}."},
    "identify_not_dealt": {"it": "{role} non è nella composizione del villaggio.",
                           "en": "{role} is not in the village's composition."},
    "not_in_runoff": {"it": "{target} non è al ballottaggio.", "en": "{target} is not in the run-off."}
}

ROLE_NAMES: dict[str, dict[str, str]] = {
    LICANTROPO: {"it": "Licantropi", "en": "Werewolves", "it.one": "Licantropo", "en.one": "Werewolf"},
    APPRENDISTA: {"it": "Apprendista Necromante", "en": "Apprentice Necromancer"},
    VEGGENTE: {"it": "Veggente", "en": "Seer"},
    MEDIUM: {"it": "Medium", "en": "Medium"},
    AMANTE: {"it": "Amanti Segreti", "en": "Secret Lovers", "it.one": "Amante Segreto",
             "en.one": "Secret Lover"},
    PROCIONE: {"it": "Procione Mannaro", "en": "Were-raccoon"},
    CONTADINO: {"it": "Contadini", "en": "Farmers", "it.one": "Contadino", "en.one": "Farmer"},
}


def role_name(role: Any, lang: str) -> str:
    """One holder's role as the reader names it; in English with the book's name beside it
    ("Seer (Veggente)"), as the mail's commands take either."""
    names = ROLE_NAMES.get(str(role))
    if names is None:
        return str(role)
    own = names.get(f"{lang}.one") or names.get(lang) or str(role)
    return own if lang == "it" or own == role else f"{own} ({role})"

# What the narrator reads aloud at night: script.<part>.<role>. Every call reads the
# same words whether its holders are alive or dead, so the table learns nothing.
SCRIPT: dict[str, dict[str, str]] = {
    "script.sleep": {"it": "Scende la notte sul villaggio: tutti chiudono gli occhi.",
                     "en": "Night falls on the village: everybody closes their eyes."},
    "script.wake": {"it": "Sorge l'alba: tutti aprono gli occhi.",
                    "en": "Dawn breaks: everybody opens their eyes."},
    # The number of copies is public (the narrator announces the village), so the
    # call may be singular or plural; it never depends on who is alive.
    "script.open": {"it": "{role}, aprite gli occhi.", "en": "{role}, open your eyes."},
    "script.close": {"it": "{role}, chiudete gli occhi.", "en": "{role}, close your eyes."},
    "script.open.one": {"it": "{role}, apri gli occhi.", "en": "{role}, open your eyes."},
    "script.close.one": {"it": "{role}, chiudi gli occhi.", "en": "{role}, close your eyes."},
    f"script.recognise.{LICANTROPO}": {
        "it": "Fatevi riconoscere dal Narratore e riconoscetevi tra voi.",
        "en": "Show yourselves to the narrator and recognise each other."},
    f"script.recognise.{AMANTE}": {
        "it": "Fatevi riconoscere dal Narratore e riconoscetevi tra voi.",
        "en": "Show yourselves to the narrator and recognise each other."},
    "script.recognise": {"it": "Fatti riconoscere dal Narratore.",
                         "en": "Show yourself to the narrator."},
    f"script.power.{LICANTROPO}": {"it": "Indicate chi volete sbranare stanotte.",
                                   "en": "Point at whom you want to devour tonight."},
    f"script.power.{LICANTROPO}.one": {"it": "Indica chi vuoi sbranare stanotte.",
                                       "en": "Point at whom you want to devour tonight."},
    f"script.power.{VEGGENTE}": {"it": "Indica un giocatore vivo: ti mostro la sua aura.",
                                 "en": "Point at a living player: I will show you their aura."},
    f"script.power.{MEDIUM}": {"it": "Indica un giocatore morto: ti mostro la sua aura.",
                               "en": "Point at a dead player: I will show you their aura."},
    f"script.power.{APPRENDISTA}": {
        "it": "Se vuoi, indica un giocatore morto da riportare in vita (una volta per partita).",
        "en": "If you wish, point at a dead player to bring back to life (once per game)."},
}


# What each vote of the day asks, beside its tally in the archive and the vote picture
# (tally.py): the rules of "Mattina" and "Pomeriggio", and a tie broken (ruling N2).
TALLY = {
    "morning": {
        "it": "Vota ogni vivo, per un vivo qualsiasi. I due più votati vanno al ballottaggio; "
              "a parità decide la vicinanza al giocatore sfortunato, che l'app ha scelto in segreto "
              "all'inizio: nessuno sa chi sia, nemmeno il Narratore.",
        "en": "Every living player votes, for any living player. The two with most votes go "
              "to the run-off; a tie is settled by nearness to the unlucky player, whom the app "
              "chose in secret at the start: nobody knows who it is, not even the narrator.",
    },
    "afternoon": {
        "it": "Votano solo i vivi fuori dal ballottaggio, per uno dei due. Il più votato va "
              "al rogo; a parità decide la vicinanza al giocatore sfortunato (scelto in segreto "
              "dall'app: nessuno sa chi sia, nemmeno il Narratore).",
        "en": "Only the living outside the run-off vote, for one of the two. The one with "
              "most votes goes to the stake; a tie is settled by nearness to the unlucky player "
              "(chosen in secret by the app: nobody knows who it is, not even the narrator).",
    },
    "tie_broken": {
        "it": "C'è stato un pareggio: ha deciso la sfortuna.",
        "en": "There was a tie: bad luck settled it.",
    },
}
