"""Players' names as people type them in a line: folded (case, accents, apostrophes,
hyphens), after the prepositions players put before them ("per", "va a"), whole, by
first name or surname, by an unambiguous beginning or with one letter wrong
(name_forms.py), one or several. Pure: the caller passes the list of players.
"""
from __future__ import annotations

import re

from .folding import fold
from .name_forms import name_index


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
    "da", "dal", "dalla", "from",
    # Words players put between a verb and its name: "proteggo di nuovo Alessia".
    "di nuovo", "ancora", "ancora una volta", "nuovamente", "anche", "pure", "stanotte", "stasera",
    "oggi", "again", "once more", "tonight", "today", "also", "too",
}, key=lambda w: (-len(w.split()), -len(w))))
# A first word this short is a name's beginning only when it is all that was written
# ("VOTO car" is Carla; "VOTO car che dici" is prose).
_MIN_PREFIX_WITH_PROSE = 4
# Words that begin names ("chi" Chiara, "mar" Marco) but say something else: "Voto chi mi
# pare", "Proteggo chi posso" name nobody.
_NOT_A_NAMES_START = frozenset({
    "chi", "che", "con", "per", "non", "mio", "mia", "tuo", "tua", "suo", "sua", "lui", "lei",
    "noi", "voi", "me", "te", "io", "tu", "ci", "si", "se", "ma", "mai", "gia", "poi", "qui", "qua",
    "tutti", "tutte", "nessuno", "qualcuno", "uno", "una", "altro", "altra", "anche", "ancora", "dopo", "come",
    "the", "who", "all", "any", "one", "him", "her", "you", "them", "someone", "nobody", "anyone", "whoever",
})


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

    The whole text first (a form of a name, or an unambiguous start of one), then the
    longest run of leading words that is a form of a name (the whole name, the first
    name, the surname, both the other way round), after the prepositions players write
    ("per", "su", "va a"); then the beginning of one; then one letter wrong. The rest is
    what the player wrote after the name. A form that fits several players is the error
    ``ambiguous_name``: asked, never guessed."""
    typed = clean_name(text)
    if not typed:
        return None, {"code": "missing_argument", "argument": "name"}, ""
    index = name_index(tuple(players))
    key = fold(typed)
    whole = index.exact(key) or (index.starting(key) if key not in _NOT_A_NAMES_START else ())
    if whole:
        return _one(whole, typed, "")
    words = words_of(typed)
    lead = _skip_leads(words, leads)
    starts = tuple(dict.fromkeys((0, lead)))
    for start in starts:
        # "VOTO Carla perché...": the longest run of leading words that is a form of a
        # name (no longer than the longest: a line of prose is not tried word by word).
        for n in range(min(len(words) - start, index.longest), 0, -1):
            found = index.exact(fold(clean_name(" ".join(words[start:start + n]))))
            if found:
                return _one(found, clean_name(" ".join(words[start:start + n])), rest_of(words[start + n:]))
    # Else the beginning of a name, never a preposition's ("per" is not Perla's).
    first = fold(clean_name(" ".join(words[lead:]) if lead == len(words) - 1 else words[lead]))
    if first and first not in _NOT_A_NAMES_START and (lead == len(words) - 1 or len(first) >= _MIN_PREFIX_WITH_PROSE):
        found = index.starting(first)
        if found:
            return _one(found, clean_name(words[lead]), rest_of(words[lead + 1:]))
    for start in starts:
        for n in range(min(len(words) - start, index.longest), 0, -1):
            written = clean_name(" ".join(words[start:start + n]))
            found = index.slipped(fold(written))
            if found:
                return _one(found, written, rest_of(words[start + n:]))
    return None, {"code": "unknown_name", "name": typed, "candidates": list(players)}, ""


def _one(found: tuple[str, ...], written: str, rest: str) -> tuple[str | None, dict | None, str]:
    if len(found) == 1:
        return found[0], None, rest
    return None, {"code": "ambiguous_name", "name": written, "candidates": list(found)}, ""


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
