"""Players' names as people type them in a line: folded (case, accents, apostrophes,
hyphens), after the prepositions players put before them ("per", "va a"), whole or by
an unambiguous beginning, one or several. Pure: the caller passes the list of players.
"""
from __future__ import annotations

import functools
import re
import unicodedata

# Phones type a curly apostrophe ('Nicolo’' for Nicolò, 'D’Angelo'); names are stored straight.
# 'anna maria' is Anna-Maria: a hyphen in a name folds to a space.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "`": "'",
                              "-": " ", "\u2010": " ", "\u2013": " "})


@functools.lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Case- and accent-insensitive form of a name or word (cached: every
    message folds every player's name of its game to find the one it names)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    # Accents go, and so does what nobody sees (a zero-width space, a soft hyphen, a
    # direction mark: format characters), which would make a name another word.
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c)
                       and unicodedata.category(c) not in ("Cf", "Cc") or c in "\n\t")
    return " ".join(stripped.casefold().split())


def clean_name(text: str) -> str:
    return text.strip().strip(".!?;,:\"'()[]\u2019\u2018\u201c\u201d\u00ab\u00bb`").strip()


# What players put between a command and the name it takes: prepositions, articles and
# the bits of "il mio voto va a Carla", "my vote goes to Carla" (folded: no accents, so
# "è" is "e"). Only ever skipped when a name follows them.
NAME_LEADS = tuple(sorted({
    "per", "contro", "su", "sul", "sulla", "a", "ad", "al", "alla", "il", "lo", "la", "l'",
    "va a", "va ad", "va per", "va contro", "va su", "e per", "e contro", "e", "e su", "sara",
    "e' per", "e'", "for", "against", "on", "to", "at", "the", "goes to", "go to", "is", "is for",
    "is on", "will be", "goes for", "upon", "over",
}, key=lambda w: (-len(w.split()), -len(w))))
# A first word this short is a name's beginning only when it is all that was written
# ("VOTO da" is Dario; "VOTO da domani" is prose).
_MIN_PREFIX_WITH_PROSE = 3


def words_of(text: str) -> list[str]:
    # "Carla,mi sembra" -> "Carla, mi sembra": a phone's missing space after a comma.
    return re.sub(r"([,;])(?=[^\s\d])", r"\1 ", text).split()


def _skip_leads(words: list[str], leads=NAME_LEADS) -> int:
    """How many leading words are prepositions and such, leaving at least one word."""
    i = 0
    while i < min(len(words) - 1, 6):  # "il mio voto è per Carla": a few words, never a line
        for lead in leads:
            n = len(lead.split())
            if i + n < len(words) and fold(" ".join(words[i:i + n]).rstrip(":,")) == lead:
                i += n
                break
        else:
            break
    return i


def read_name(text: str, players: list[str], leads=NAME_LEADS
              ) -> tuple[str | None, dict | None, str]:
    """One player's name at the start of ``text``: (name, None, the rest) or (None, error, "").

    The whole text first (a folded name or an unambiguous prefix of one), then the
    longest run of leading words that is a full name, after the prepositions players
    write ("per", "su", "va a"); the rest is what the player wrote after the name."""
    typed = clean_name(text)
    if not typed:
        return None, {"code": "missing_argument", "argument": "name"}, ""
    key = fold(typed)
    exact = [p for p in players if fold(p) == key]
    if len(exact) == 1:
        return exact[0], None, ""
    if len(exact) > 1:  # two players folded to the same name: the list itself is ambiguous
        return None, {"code": "ambiguous_name", "name": typed, "candidates": exact}, ""
    prefixed = [p for p in players if fold(p).startswith(key)]
    if len(prefixed) == 1:
        return prefixed[0], None, ""
    if prefixed:
        return None, {"code": "ambiguous_name", "name": typed, "candidates": prefixed}, ""
    words = words_of(typed)
    lead = _skip_leads(words, leads)
    longest = max((len(fold(p).split()) for p in players), default=1)
    for start in dict.fromkeys((0, lead)):
        # "VOTO Carla perché...": the longest run of leading words that is a full name
        # (no longer than the longest name: a line of prose is not tried word by word).
        for n in range(min(len(words) - start, longest), 0, -1):
            head = fold(clean_name(" ".join(words[start:start + n])))
            full = [p for p in players if fold(p) == head]
            if len(full) == 1:
                return full[0], None, rest_of(words[start + n:])
    # Else the beginning of a name, never a preposition's ("per" is not Perla's).
    first = fold(clean_name(" ".join(words[lead:]) if lead == len(words) - 1 else words[lead]))
    if first and (lead == len(words) - 1 or len(first) >= _MIN_PREFIX_WITH_PROSE):
        found = [p for p in players if fold(p).startswith(first)]
        if len(found) == 1:
            return found[0], None, rest_of(words[lead + 1:])
        if found:
            return None, {"code": "ambiguous_name", "name": clean_name(words[lead]),
                          "candidates": found}, ""
    return None, {"code": "unknown_name", "name": typed, "candidates": list(players)}, ""


def rest_of(words: list[str]) -> str:
    return " ".join(words).strip(" ,;:-\u2013\u2014")


def resolve_name(text: str, players: list[str]) -> tuple[str | None, dict | None]:
    """Match a typed name to one player: exact (folded) first, then unambiguous prefix;
    words after a full name are tolerated. Returns (name, None) or (None, error-without-line)."""
    name, error, _rest_of_line = read_name(text, players)
    return name, error


_PAIR_SPLIT = re.compile(r"\s*(?:[,;&+/]|\s(?:e|ed|and)\s)\s*", re.IGNORECASE)


def split_full_names(text: str, players: list[str]) -> list[str] | None:
    """'Anna Bruno Maria Luisa' -> ['Anna', 'Bruno', 'Maria Luisa'] when the words are
    nothing but two or more whole player names (names written without commas); else None."""
    words = [clean_name(w) for w in text.split()]
    full = {fold(p): p for p in players}
    found: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):  # the longest name first: 'Maria Luisa' over 'Maria'
            name = full.get(fold(" ".join(words[i:j])))
            if name:
                found.append(name)
                i = j
                break
        else:
            return None
    return found if len(found) >= 2 else None


def _split_parts(text: str, players: list[str]) -> list[str]:
    parts = []
    for part in _PAIR_SPLIT.split(text):
        if not part.strip():
            continue
        if fold(clean_name(part)) not in {fold(p) for p in players}:
            several = split_full_names(part, players)
            if several:
                parts.extend(several)
                continue
        parts.append(part)
    return parts


def resolve_list(text: str, players: list[str]) -> tuple[list[str], list[dict]]:
    names, errors = [], []
    for part in _split_parts(text, players):
        name, err = resolve_name(part, players)
        if err:
            errors.append(err)
        else:
            names.append(name)
    return names, errors
