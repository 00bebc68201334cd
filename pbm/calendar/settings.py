"""What a game keeps in its schedule column beside its calendar: its answer window
and how many times a player may extend one (``pbm.operations.windows``), and the
schedule the game follows (its own calendar, or its ruleset's default)."""
from __future__ import annotations

from .schedule import Schedule, default_schedule, parse_schedule

# The game's answer window (WINDOW timing), kept beside its calendar in the same column.
ANSWER_WINDOW = "answer_window_seconds"
# How many times each player may have a window extended by one window's length.
EXTENSIONS = "extensions_per_player"
SETTINGS = (ANSWER_WINDOW, EXTENSIONS)


def calendar_spec(stored: dict | str | None) -> dict | str | None:
    """The calendar part of a game's schedule column (without its answer window)."""
    if isinstance(stored, dict):
        return {k: v for k, v in stored.items() if k not in SETTINGS}
    return stored


def game_schedule(ruleset: str, stored: dict | str | None) -> Schedule:
    """The schedule of a game: what its DB column holds, or, when that is empty, the
    default of its ruleset."""
    calendar = calendar_spec(stored)
    if not calendar:
        return default_schedule(ruleset)
    return parse_schedule(calendar)
