"""A message that asks what to do ("cosa devo fare stanotte?", "aiuto", "what do I do?"):
the player is answered with their role card and what they can send now, never with
"no command found" (issue 31). Read only in a message that holds no command."""
from __future__ import annotations

import re

from .names import fold

# Folded (lower case, no accents), matched as whole words anywhere in the text.
_ASKS = (
    "aiuto", "help", "istruzioni", "instructions", "come si gioca", "come gioco", "come funziona",
    "cosa devo fare", "che devo fare", "cosa posso fare", "che posso fare", "cosa faccio",
    "che faccio", "non so cosa fare", "non so che fare", "cosa si fa", "che si fa",
    "qual e il mio ruolo", "cosa fa il mio ruolo", "come uso il potere", "come si usa il potere",
    "what do i do", "what should i do", "what can i do", "what am i supposed to do",
    "how do i play", "how does it work", "how to play", "what does my role do",
    "how do i use my power",
)
_PATTERN = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(a) for a in _ASKS) + r")(?!\w)")
# A long message is a player's prose about the game, not a request for the rules.
_AT_MOST = 400


def asks_for_help(*texts: str) -> bool:
    """Whether any of ``texts`` (the written reply, the subject a player typed) asks
    what to do."""
    return any(text and len(text) <= _AT_MOST and _PATTERN.search(fold(text).replace("'", " "))
               for text in texts)
