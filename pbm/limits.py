"""How long what a player writes may be: the same limits for the web forms
and for mail, checked where every submission ends (``operations.submit``).

A shout goes to every player of the game, a question to the Masters, notes
stay with the Masters: a 200 KB shout mailed to forty players is a flood,
not a move of the game.
"""
from __future__ import annotations

from typing import Any

from engine.core import Rejected

# Characters, per free-text key of a submission.
FREE_TEXT = {"shout": 280, "question": 500, "notes": 2000}
# Anything else a submission carries is a name or a keyword.
OTHER_TEXT = 200


def limit_of(key: str) -> int:
    return FREE_TEXT.get(key, OTHER_TEXT)


def check_lengths(submission: dict[str, Any]) -> None:
    """Refuse, naming the field and both lengths, the first text that is too long."""
    for key, value in submission.items():
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and len(text) > limit_of(key):
                code = f"{key}_too_long" if key in FREE_TEXT else "text_too_long"
                raise Rejected(code, field=key, length=len(text), limit=limit_of(key))
