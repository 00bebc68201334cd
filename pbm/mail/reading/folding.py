"""A word or a name as the reader compares it: no case, no accents, straight apostrophes,
a hyphen as a space, and nothing nobody sees."""
from __future__ import annotations

import functools
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
