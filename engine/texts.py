"""The base wording catalogue: the few codes every game shares, and the grammar of names.

Every table is ``{code: {"it": ..., "en": ...}}`` with ``str.format`` placeholders
taken from the event's data or the rejection's params. ``BaseRuleset`` uses these
as they are; a game's own ``texts`` module adds and overrides
(``EVENTS = {**texts.EVENTS, ...}``; the three Lupus games through
``engine/lupus_common/texts.py``). ``word`` formats one entry (Italian when a language
is missing, the bare template when a placeholder is); the helpers below it word
names, lists and numbers, so each ruleset's ``describe`` stays a few lines.
"""
from __future__ import annotations

import string
from typing import Any

LANGS = ("it", "en")

# Refused whatever the game: by the engine's core (``acting_player``, ``UnknownRole``),
# by a set-up, or by the service (``not_now``: nothing of that kind is asked now).
REJECTIONS = {
    "game_over": {"it": "La partita è finita.", "en": "The game is over."},
    "not_now": {"it": "Questa azione non si può compiere in questa fase.",
                "en": "This action cannot be taken in this phase."},
    "not_a_player": {"it": "Non sei un giocatore di questa partita.",
                     "en": "You are not a player in this game."},
    "unknown_player": {"it": "Non c'è nessun giocatore di nome «{target}».",
                       "en": "There is no player called “{target}”."},
    # Set-up (SetupError, UnknownRole): completes "the rules refuse this set-up: ...".
    "seated_twice": {"it": "{name} compare due volte", "en": "{name} is seated twice"},
    "unknown_role": {"it": "Non esiste un ruolo «{role}».", "en": "There is no role “{role}”."},
}

# What any game may publish: the Masters' remedies (engine/remedies.py) and sanctions
# (the desk's disqualification), the end, a submission refused as its moment closed
# (``core.valid_at_close``).
EVENTS = {
    "death": {"it": "Muore {player}.", "en": "{player} dies."},
    "death_masters": {"it": "{player} muore per decisione dei Master.",
                      "en": "{player} dies by the Masters' decision."},
    "revive": {"it": "{player} torna in vita.", "en": "{player} comes back to life."},
    "disqualified": {"it": "I Master squalificano {players}.",
                     "en": "The Masters disqualify {players}."},
    "game_over": {"it": "La partita è finita: {winner}.", "en": "The game is over: {winner}."},
    "game_over_draw": {"it": "La partita è finita in parità.", "en": "The game ends in a draw."},
    "rejected_at_resolution": {
        "it": "Un'azione non era più valida alla fine della fase: {why}",
        "en": "An action was no longer valid at the end of the phase: {why}"},
}

# The welcome mail's lines about the game (BaseRuleset.welcome): what happens next,
# and how a mail command reads. A game brings its own, with an example of its commands.
WELCOME = {
    "start": {"it": "I Master ti scriveranno quando la partita comincerà.",
              "en": "The Masters will write to you when the game starts."},
    "example": {"it": "un comando e il suo argomento", "en": "a command and what it applies to"},
    "length": {"it": "La partita va avanti finché le sue regole dicono chi vince.",
               "en": "The game goes on until its rules say who wins."},
}

# Whether a player is still in the game, as their own page says it (BaseRuleset.self_status).
SELF = {
    "in": {"it": "Sei in gioco.", "en": "You are in the game."},
    "out": {"it": "Sei fuori dal gioco.", "en": "You are out of the game."},
}

# Words for values inside events.
VALUES = {
    "yes": {"it": "sì", "en": "yes"},
    "no": {"it": "no", "en": "no"},
}


def masters_kind(events: dict[str, dict[str, str]], event: Any) -> str:
    """The entry to word ``event`` with: for an event of the Masters' own (``MASTER``)
    whose kind a player is told too in the second person ("Il tuo nuovo ruolo è..."),
    its Masters' wording in the third person, ``<kind>.masters``, when the catalogue
    has one; else the kind itself. A Masters' report never reads "you" (issue 31)."""
    from .core import MASTER
    if event.visibility == MASTER and f"{event.kind}.masters" in events:
        return f"{event.kind}.masters"
    return event.kind


def word(table: dict[str, dict[str, str]], code: str, lang: str,
         params: dict[str, Any] | None = None) -> str | None:
    """A catalogue entry in ``lang`` (Italian when missing), formatted with ``params``.

    Beside plain ``{key}`` placeholders a template may say (``_Words``):
    ``{key:a}`` / ``{key:e}``: the name after "a" / "e", elided before a vowel in
    Italian ("tocca {player:a}": "tocca ad Anna"); ``{key:one|many}``: the form the
    number (or the length of the list) ``key`` asks for, ``#`` standing for the number
    ("{n:# moneta|# monete}", "{names:torna|tornano}"). A list reads as one phrase
    ("Anna, Bruno e Carla")."""
    entry = table.get(code)
    if not entry:
        return None
    lang = lang if lang in LANGS else "it"
    template = entry.get(lang) or entry.get("it") or ""
    try:
        return _Words(lang).vformat(template, (), dict(params or {}))
    except (KeyError, IndexError, ValueError, AttributeError):
        return template


class _Words(string.Formatter):
    """``str.format`` with the few grammatical specs of ``word``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            count = len(value) if isinstance(value, (list, tuple, set, dict)) else value
            return plural(count, one, many).replace("#", number(count, self.lang))
        text = names(value, self.lang) if isinstance(value, (list, tuple)) else value
        if format_spec in ("a", "e"):
            return before(format_spec, str(text), self.lang)
        return super().format_field(text, format_spec)


# -- the grammar of names, lists and numbers (issue 21) ---------------------------------
# A seat's grammatical gender is unknown: no sentence makes a participle or an adjective
# agree with a player's name ("Rita è morto"); say it with a verb or a noun instead
# ("Rita muore sul rogo", "Rita è fuori dal gioco"). docs/rulesets.md, "Wording".

_VOWELS = "aeiouAEIOUàèéìòùÀÈÉÌÒÙ"
_ARTICLES = ("i ", "il ", "gli ", "l'", "la ", "le ", "lo ")  # "e i Lupi", not "ed i Lupi"


def before(preposition: str, name: str, lang: str = "it") -> str:
    """"a" or "e" and the name after it, "ad" / "ed" before a vowel in Italian:
    "ad Anna", "a Bruno", "ed Elena". English (or any other word) goes as it is."""
    name = str(name)
    if (lang == "it" and preposition in ("a", "e") and name[:1] in _VOWELS
            and not name.startswith(_ARTICLES)):
        preposition += "d"
    return f"{preposition} {name}"


def names(items: Any, lang: str) -> str:
    """Names as one phrase: "Anna, Bruno e Carla", "Anna ed Elena"; "Anna, Bruno and
    Carla"; "—" for none."""
    items = [str(i) for i in (items or [])]
    if not items:
        return "—"
    if len(items) == 1:
        return items[0]
    last = before("e", items[-1], lang) if lang == "it" else f"and {items[-1]}"
    return f"{', '.join(items[:-1])} {last}"


def plural(count: Any, one: str, many: str) -> str:
    """The form the number asks for: ``one`` for 1 (and -1), ``many`` otherwise (0 too:
    "0 monete", "0 coins")."""
    try:
        return one if abs(float(count)) == 1 else many
    except (TypeError, ValueError):
        return many


def number(value: Any, lang: str) -> str:
    """1.25 as the reader writes it (1,25 in Italian)."""
    if isinstance(value, float):
        text = f"{value:g}"
        return text if lang == "en" else text.replace(".", ",")
    return str(value)


def listing(value: Any, lang: str = "it") -> str:
    """Names (and what goes with each) as one phrase: "Anna (Lupo) e Bruno (Lupo)"."""
    if isinstance(value, dict):
        return names([f"{k} ({v})" for k, v in value.items()], lang)
    if isinstance(value, (list, tuple)):
        return names(value, lang)
    return "—" if value in (None, "") else str(value)


def tally_line(tally: dict[str, Any], lang: str) -> str:
    """A count, most votes first: "Carla 3, Anna 1"."""
    ranked = sorted(tally.items(), key=lambda kv: (-float(kv[1]), kv[0]))
    return ", ".join(f"{name} {number(votes, lang)}" for name, votes in ranked)


def rejected_line(ruleset: Any, data: dict[str, Any], lang: str) -> str:
    """An action that was valid when sent but not when its phase closed, and why."""
    code = str(data.get("code") or "")
    why = ruleset.describe_rejection(code, data.get("params") or {}, lang) or code
    return word(ruleset.EVENTS, "rejected_at_resolution", lang, {"why": why}) or why


# A post to a room or a whisper refused (engine/rooms.py: ``Refusal``), as the service
# tells the sender; a ruleset words them in its own terms where they differ (Complots'
# eliminated are not "the dead").
REJECTIONS.update({
    "room_unknown": {
        "it": "Questa stanza non c'è in questa partita: il messaggio non è stato pubblicato.",
        "en": "This game has no such room: the post was not published."},
    "room_not_member": {
        "it": "Non fai parte di questa stanza: il messaggio non è stato pubblicato.",
        "en": "You are not in this room: the post was not published."},
    "room_read_only": {
        "it": "In questa stanza ora puoi soltanto leggere: il messaggio non è stato pubblicato.",
        "en": "You may only read this room now: the post was not published."},
    "room_night_silence": {
        "it": "Di notte la piazza tace (scelta dei Master): il messaggio non è stato "
              "pubblicato. Potrai scriverlo di giorno.",
        "en": "At night the piazza is silent (the Masters' choice): the post was not published. "
              "You may post it by day."},
    "room_dead_read_only": {
        "it": "In questa partita i morti leggono ma non scrivono nelle stanze (scelta dei "
              "Master): il messaggio non è stato pubblicato.",
        "en": "In this game the dead read the rooms but do not post in them (the Masters' "
              "choice): the post was not published."},
    "whispers_off": {
        "it": "In questa partita non si aprono conversazioni private: si parla nelle stanze.",
        "en": "This game has no private conversations: all talk is in the rooms."},
    "whisper_not_in_game": {
        "it": "Solo chi gioca questa partita può scrivere in privato ai suoi giocatori.",
        "en": "Only the players of this game may write privately to its players."},
    "whisper_nobody": {
        "it": "Una conversazione privata va aperta con almeno un altro giocatore.",
        "en": "A private conversation is opened with at least one other player."},
    "whisper_recipients": {
        "it": "Una conversazione privata va aperta con altri giocatori di questa partita; "
              "«{player}» non lo è.",
        "en": "A private conversation is opened with other players of this game; "
              "“{player}” is not one."},
    "whisper_out": {
        "it": "{player} non gioca più in questa partita: niente conversazioni private.",
        "en": "{player} no longer plays in this game: no private conversations."},
    "whisper_dead_to_living": {
        "it": "In questa partita i morti non scrivono in privato ai vivi (scelta dei Master): "
              "{players}.",
        "en": "In this game the dead do not write privately to the living (the Masters' "
              "choice): {players}."},
})
