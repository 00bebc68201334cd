"""How long what a player writes may be: the same limits for the web forms
and for mail, checked where every submission ends (``operations.submit``).

Which keys of a submission are free text, and how long each may be, is the
ruleset's (``TEXT_LIMITS``): what a player writes may reach every player of the
game or the Masters' inbox, and a 200 KB text mailed to forty players is a flood,
not a move of the game. Anything else a submission carries is a name or a keyword.
"""
from __future__ import annotations

from typing import Any

from engine.core import Rejected
from engine.interface import BaseRuleset

# Characters, for what is not a free-text key of the ruleset: a name or a keyword.
OTHER_TEXT = 200


def limit_of(ruleset: BaseRuleset, key: str) -> int:
    return ruleset.TEXT_LIMITS.get(key, OTHER_TEXT)


def check_lengths(ruleset: BaseRuleset, submission: dict[str, Any]) -> None:
    """Refuse, naming the field and both lengths, the first text that is too long:
    ``<key>_too_long`` for a free-text key (the ruleset words it), ``text_too_long``
    for any other."""
    for key, value in submission.items():
        limit = limit_of(ruleset, key)
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and len(text) > limit:
                code = f"{key}_too_long" if key in ruleset.TEXT_LIMITS else "text_too_long"
                raise Rejected(code, field=key, length=len(text), limit=limit)
