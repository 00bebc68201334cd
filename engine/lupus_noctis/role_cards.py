"""The role cards of Lupus Noctis (engine/cards.py): what each Abitante del villaggio
does, when the narrator calls it, how it answers at the table, what it knows, written
from the rulebook and the rulings that complete it (docs/rulings-lupus-noctis.md,
N5-N10). The game is played at a table: nobody writes mail, everybody points."""
from __future__ import annotations

from typing import Sequence

from .. import texts as base_texts
from ..cards import CardText, RoleCard, Words, written
from ..lupus_common import texts as lupus_texts
from .roles import AMANTE, APPRENDISTA, CONTADINO, LICANTROPO, MEDIUM, PROCIONE, ROLES, VEGGENTE
from .texts import role_name

_POINT = {"it": "Al tavolo: quando il Narratore chiama il tuo ruolo apri gli occhi, indica "
                "chiaramente con un dito il giocatore che scegli, poi richiudi gli occhi. Non "
                "si parla.",
          "en": "At the table: when the narrator calls your role, open your eyes, point clearly "
                "at the player you choose, then close your eyes again. Nobody speaks."}
_SLEEP = {"it": "Al tavolo: di notte tieni gli occhi chiusi; la prima notte apri gli occhi quando "
                "il Narratore chiama il tuo ruolo, per farti riconoscere.",
          "en": "At the table: at night keep your eyes closed; on the first night open them when "
                "the narrator calls your role, so that you are recognised."}
_ALONE = {"it": "Solo il tuo ruolo.", "en": "Only your own role."}
_FROM_NIGHT_2 = {"it": "Ogni notte dalla seconda (la prima notte serve solo a riconoscersi).",
                 "en": "Every night from the second (the first night is only for recognition)."}
_NEVER = {"it": "Mai: il ruolo non ha un potere da usare.",
          "en": "Never: the role has no power to use."}
_EVERYONE = {"it": " Di giorno, finché sei in vita, voti a voce quando il Narratore te lo chiede: la mattina "
                   "per il ballottaggio, il pomeriggio tra i due al ballottaggio.",
             "en": " By day, while alive, you vote aloud when the narrator asks: in the morning "
                   "for the run-off, in the afternoon between the two in the run-off."}


def _card(does: Words, when: Words, form: Words, knows: Words = _ALONE) -> CardText:
    return CardText(does=does, when=when, form=form, knows=knows)


CARDS: dict[str, CardText] = {
    LICANTROPO: _card(
        {"it": "Con gli altri Licantropi scegli un giocatore vivo da sbranare: muore all'alba. "
               "Vincete se, quando la partita finisce, è in vita almeno un Licantropo.",
         "en": "With the other Werewolves, pick a living player to devour: they die at dawn. You "
               "win if at least one Werewolf is alive when the game ends."},
        {"it": "Ogni notte dalla seconda: la prima notte vi riconoscete soltanto.",
         "en": "Every night from the second: on the first night you only recognise each other."},
        _POINT,
        {"it": "Chi sono gli altri Licantropi: vi riconoscete la prima notte.",
         "en": "Who the other Werewolves are: you recognise each other on the first night."}),
    CONTADINO: _card(
        {"it": "Nessun potere: aiuta il villaggio a trovare i Licantropi discutendo e votando.",
         "en": "No power: help the village find the Werewolves by talking and voting."},
        _NEVER,
        {"it": "Al tavolo: di notte tieni gli occhi chiusi; il Narratore non ti chiama mai.",
         "en": "At the table: at night keep your eyes closed; the narrator never calls you."}),
    VEGGENTE: _card(
        {"it": "Indica un altro giocatore vivo: il Narratore ti mostra se la sua aura è buona o "
               "malvagia.",
         "en": "Point at another living player: the narrator shows you whether their aura is "
               "good or evil."}, _FROM_NIGHT_2, _POINT),
    MEDIUM: _card(
        {"it": "Indica un giocatore morto: il Narratore ti mostra se la sua aura è buona o "
               "malvagia.",
         "en": "Point at a dead player: the narrator shows you whether their aura is good or "
               "evil."}, _FROM_NIGHT_2, _POINT),
    AMANTE: _card(
        {"it": "Nessun potere: conosci l'altro Amante Segreto, e nient'altro (se muore, tu resti "
               "in vita).",
         "en": "No power: you know the other Secret Lover, and nothing else (if they die, you "
               "live on)."}, _NEVER, _SLEEP,
        {"it": "Chi è l'altro Amante Segreto: vi riconoscete la prima notte.",
         "en": "Who the other Secret Lover is: you recognise each other on the first night."}),
    PROCIONE: _card(
        {"it": "Nessun potere, ma i Licantropi non possono sbranarti e l'aura è malvagia. Se sei "
               "in vita quando la partita finisce, vinci soltanto tu.",
         "en": "No power, but the Werewolves cannot devour you and your aura is evil. If you are "
               "alive when the game ends, you alone win."}, _NEVER, _SLEEP),
    APPRENDISTA: _card(
        {"it": "Una volta in tutta la partita indica un giocatore morto: torna in vita all'alba, "
               "con il suo ruolo. Parteggi per i Licantropi, ma non sai chi sono.",
         "en": "Once in the whole game, point at a dead player: they come back to life at dawn, "
               "with their role. You side with the Werewolves, but you do not know who they "
               "are."},
        {"it": "Una volta, in una notte dalla seconda: puoi anche lasciar passare la notte.",
         "en": "Once, on a night from the second: you may also let the night pass."}, _POINT),
}


# N8: the Procione Mannaro sides with nobody: alive at the end, he alone wins.
_ALONE_SIDE = {"side": {"it": "Giochi per conto tuo; la tua aura è malvagia.",
                        "en": "You play for yourself; your aura is evil."}}


def role_card(role: str, lang: str, example_names: Sequence[str]) -> RoleCard | None:
    text, info = CARDS.get(role), ROLES.get(role)
    if text is None or info is None:
        return None
    side = (base_texts.word(_ALONE_SIDE, "side", lang) or "" if info.alone_if_alive
            else lupus_texts.card_side(info.faction, info.aura, lang))
    when = {k: v + _EVERYONE[k] for k, v in text.when.items()}
    return written(role, CardText(text.does, when, text.form, text.knows), lang, example_names,
                   name=role_name(role, lang), side=side)
