"""The ways people write a player's name, each pointing back to the player: the whole
name, the first name, the surname ("Bianchi", "De Luca"), both the other way round
("Bianchi Alessandro"), an unambiguous start, and a slip of one letter ("Alesandro").

A form that fits two players names neither: the caller asks, never guesses. A slip is
forgiven only when one player alone is that close, the word is long enough to tell
(five letters), and the slip is not the last vowel changed: "Mario" is not "Maria",
"Carlo" not "Carla", in a language where that vowel says who. Pure: the list of players
is the caller's (rapidfuzz measures the slips).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from .folding import fold

_MIN_SLIP_LENGTH = 5
_VOWELS = set("aeiou")


@dataclass(frozen=True)
class NameIndex:
    """Every form of every player's name, folded: form -> the players it may mean."""

    forms: dict[str, tuple[str, ...]]
    full: dict[str, tuple[str, ...]]
    longest: int  # words in the longest form

    def exact(self, typed: str) -> tuple[str, ...]:
        """The players a whole form names: the full name first (Maria over Maria Luisa),
        else a part of one, and then also whoever's name starts so ("pier" is Pier
        Paolo's first name and Piero's start: both)."""
        if typed in self.full:
            return self.full[typed]
        if typed not in self.forms:
            return ()
        return tuple(dict.fromkeys(self.forms[typed] + self.starting(typed)))

    def starting(self, typed: str) -> tuple[str, ...]:
        """The players one of whose forms starts with ``typed``."""
        found = {p for form, players in self.forms.items() if form.startswith(typed) for p in players}
        return tuple(sorted(found))

    def slipped(self, typed: str) -> tuple[str, ...]:
        """The players one of whose forms is one slip (an edit or a swap) from ``typed``."""
        if len(typed.replace(" ", "")) < _MIN_SLIP_LENGTH:
            return ()
        found: set[str] = set()
        for form, players in self.forms.items():
            if len(form) >= _MIN_SLIP_LENGTH and abs(len(form) - len(typed)) <= 1 \
                    and OSA.distance(typed, form, score_cutoff=1) <= 1 and not _other_ending(typed, form):
                found.update(players)
        return tuple(sorted(found))


def _other_ending(typed: str, form: str) -> bool:
    """'mario' for 'maria': the same word but its last vowel, which tells another person."""
    return (len(typed) == len(form) and typed[:-1] == form[:-1] and typed[-1] != form[-1]
            and {typed[-1], form[-1]} <= _VOWELS)


# The words that open a surname ("De Luca", "Della Valle", "Van Dyke"): never a name alone,
# and "Luca" alone is not Alessia De Luca.
_PARTICLES = {"de", "di", "del", "della", "dei", "degli", "da", "dal", "dalla", "d'", "lo", "la", "le",
              "van", "von", "der", "den", "mac", "mc", "o'", "st", "san", "santa", "dos", "das", "du"}


def _forms_of(name: str) -> set[str]:
    words = fold(name).split()
    forms = {" ".join(words)}
    if len(words) > 1:
        forms.add(words[0])                           # Alessandro
        forms.add(" ".join(words[1:]))                # Bianchi, De Luca
        forms.add(" ".join(words[1:] + words[:1]))    # Bianchi Alessandro
        if words[-2] not in _PARTICLES:
            forms.add(words[-1])                      # Rossi, of Maria Luisa Rossi
            forms.add(" ".join(words[:-1]))           # Maria Luisa
    return {f for f in forms if f not in _PARTICLES}


@functools.lru_cache(maxsize=64)
def name_index(players: tuple[str, ...]) -> NameIndex:
    forms: dict[str, set[str]] = {}
    full: dict[str, set[str]] = {}
    for p in players:
        full.setdefault(fold(p), set()).add(p)
        for form in _forms_of(p):
            forms.setdefault(form, set()).add(p)
    order = {p: i for i, p in enumerate(players)}

    def ordered(table: dict[str, set[str]]) -> dict[str, tuple[str, ...]]:
        return {k: tuple(sorted(v, key=order.__getitem__)) for k, v in table.items()}

    longest = max((len(f.split()) for f in forms), default=1)
    return NameIndex(ordered(forms), ordered(full), longest)
