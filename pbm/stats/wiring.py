"""The counting connected to the operations' announcements (pbm/hooks.py)."""
from __future__ import annotations

from .. import hooks
from . import record

_connected = False


def connect() -> None:
    global _connected
    if _connected:
        return
    hooks.listen(hooks.game_ended, record.on_game_ended)
    hooks.listen(hooks.game_reopened, record.on_game_reopened)
    _connected = True
