"""A player taking back what she just wrote: "Voto Alessandro. Anzi no, Lucia.", "VOTO
Bruno" then a line "no scusate, intendevo Chiara", "Vote Carla, I mean Dario".

The later choice stands; the withdrawn one is never recorded. When what follows the
correction says nothing that reads (a whole command, or a new argument for the command
corrected), nothing is recorded and the receipt asks (the error ``correction``): a
wrong command is worse than none.
"""
from __future__ import annotations

import re

from .folding import fold
from .grammar import Grammar
from .names import clean_name, read_name

# The words that take back what came before them, in either language.
_MARKERS = ("anzi no", "anzi", "no scusate", "no scusa", "no scusami", "scusate intendevo", "intendevo dire",
            "intendevo", "volevo dire", "mi correggo", "correggo", "correzione", "errata corrige",
            "no aspetta", "no aspettate", "ops", "oops", "i mean", "i meant", "no wait", "make that",
            "sorry i meant", "correction", "scratch that")
_MARKER = re.compile(r"(?:^|(?<=[\s,.;:!()\-\u2013\u2014]))(?:" + "|".join(
    r"\s+".join(map(re.escape, m.split())) for m in sorted(_MARKERS, key=len, reverse=True))
    + r")(?=$|[\s,.;:!()\-\u2013\u2014])", re.IGNORECASE)
# What may follow the marker before the new choice: "anzi no, scusate, intendevo: Lucia".
_LEAD = re.compile(r"^(?:[\s,.;:!()\-\u2013\u2014]|(?:no|scusate|scusa|sorry|volevo|i|scusami)(?=[\s,.;:!]))+",
                   re.IGNORECASE)


def split_correction(text: str) -> tuple[str, str] | None:
    """(what was written before the correction, what it says instead), or None."""
    m = _MARKER.search(text)
    if m is None:
        return None
    after = text[m.end():]
    while True:  # "anzi no, scusate, intendevo Lucia": every marker in a row
        after = _LEAD.sub("", after)
        again = _MARKER.match(after)
        if again is None:
            break
        after = after[again.end():]
    return text[:m.start()].strip(" \t,;:-\u2013\u2014"), after.strip()


def corrected(g: Grammar, command: dict, after: str, players: list[str]) -> dict | None:
    """The command with its argument replaced by what ``after`` names (a player, or a
    choice of the same key), or None when ``after`` names nothing by itself."""
    typed = clean_name(after)
    if not typed:
        return None
    for key, value in command.items():
        if isinstance(value, str) and value in players:
            name, error, rest = read_name(typed, players)
            if error is None and not _prose(rest):
                return {**command, key: name}
            return None
    for key, value in command.items():
        if (key in g.vocabulary.names or key in g.vocabulary.choices) and isinstance(value, str):
            choice, error = g.resolve_choice(key, typed)
            if error is None:
                return {**command, key: choice}
    return None


def _prose(rest: str) -> bool:
    return bool(re.search(r"[^\W_]", fold(rest)))
