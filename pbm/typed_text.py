"""What a person types that the service writes into mail headers, calendars and pages:
names (of a game, a player, a Master, a newcomer) and addresses.

A line break in a game's name broke every mail of the game (its From carries the
name) and wrote an event of its own into ``calendar.ics``; a right-to-left override
or a zero-width character makes one name look like another. Such characters are
refused where a name is typed (``NAME_CONTROL``, worded by pbm/errors.py), never
silently dropped: what the person sees is what is stored.
"""
from __future__ import annotations

import unicodedata

NAME_CONTROL = "name_control"

# Controls (CR, LF, tab, NUL...), format characters (bidirectional marks and
# overrides, zero-width spaces and joiners, the soft hyphen), line and paragraph
# separators: none shows as itself.
HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp"})


def hidden(text: str) -> bool:
    """Holds a character that shows nothing, breaks a line, or reorders what follows."""
    return any(unicodedata.category(c) in HIDDEN for c in text)


def name_problem(text: str | None) -> str | None:
    """NAME_CONTROL for a name holding a hidden character, else None."""
    return NAME_CONTROL if text and hidden(text) else None
