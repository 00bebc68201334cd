"""When a moment ends, as its ruleset says (``BaseRuleset.timing``).

- CALENDAR: at the end of the next scheduled phase of its kind on the game's
  calendar (Lupus by mail);
- WINDOW: the game's answer window after the moment opens, each window its whole
  time, or earlier once the ruleset finds every answer in (``complete``);
- NARRATOR: no deadline; the narrator's confirm closes it (``desk.close_now``).

The phase row always has an ``ends_at``: a NARRATOR moment's is NO_DEADLINE, far
beyond any clock, so the queries on deadlines (due phases, reminders) need no case
of their own (``PhaseRow.has_deadline`` tells it apart).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from engine.core import Action, GameState
from engine.interface import CALENDAR, NARRATOR, WINDOW
from engine.registry import get_ruleset

from .. import calendar
from ..models import NO_DEADLINE, Game, PhaseRow
from .base import OperationError, game_schedule

MIN_WINDOW, MAX_WINDOW = timedelta(minutes=1), timedelta(days=2)
DEFAULT_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Span:
    starts_at: datetime
    ends_at: datetime
    long: bool = False


def answer_window(game: Game) -> timedelta:
    """The game's answer window (WINDOW moments), a setting of the game."""
    seconds = (game.schedule or {}).get(calendar.ANSWER_WINDOW)
    return timedelta(seconds=int(seconds)) if seconds else DEFAULT_WINDOW


def checked_window(window: timedelta) -> int:
    """The window in seconds, refused outside one minute to two days."""
    if not MIN_WINDOW <= window <= MAX_WINDOW:
        raise OperationError("answer_window", minutes=int(window.total_seconds() // 60))
    return int(window.total_seconds())


def _kind(game: Game, state: GameState | None) -> str | None:
    """How the moment ``state`` is at ends (CALENDAR, WINDOW, NARRATOR), as its ruleset
    says; ``state`` None: the game's current state (None before the deal)."""
    if state is None:
        state = GameState.from_dict(game.state) if game.state else None
    return None if state is None else get_ruleset(game.ruleset).timing(state).kind


def windowed(game: Game, state: GameState | None = None) -> bool:
    """Whether the moment is an answer window: the service's one answer to "is this a
    window game?". ``state``: the moment asked about (a phase's ``state_before``), or
    None for the game's moment now open, read from the game (False before the deal)."""
    return _kind(game, state) == WINDOW


def on_calendar(game: Game, state: GameState | None = None) -> bool:
    """Whether the moment follows the game's calendar (``state`` as for ``windowed``):
    for the game's moment now open, whether a feed can list its coming ones (True
    before the deal)."""
    return _kind(game, state) in (None, CALENDAR)


def span(game: Game, state: GameState, *, first: bool, after: datetime, now: datetime) -> Span:
    """When the moment the state is at opens and ends.

    A calendar phase starts at the boundary that closed the previous one (``after``)
    and ends at the first scheduled end of a phase of its kind after it: so a worker
    that was down past several boundaries finds the missed phases already due, and
    resolves them one after another, in order, never skipping one. The first night
    runs from the start of the game (docs/rulings.md). A window or a narrator's
    moment starts now: a window late to open still gets its whole time.
    """
    timing = get_ruleset(game.ruleset).timing(state)
    if timing.kind == WINDOW:
        return Span(now, now + answer_window(game))
    if timing.kind == NARRATOR:
        return Span(now, NO_DEADLINE)
    if timing.kind != CALENDAR:
        raise ValueError(f"unknown timing {timing.kind!r} from ruleset {game.ruleset!r}")
    wanted = timing.phase or state.phase.kind
    start = now if first else after
    candidates = calendar.phases_from(game_schedule(game), start, 8)
    chosen = next((p for p in candidates if p.kind == wanted and p.end > start), candidates[0])
    return Span(start, chosen.end, chosen.long)


def close_if_complete(game: Game, phase: PhaseRow, state: GameState,
                      actions: Callable[[], list[Action]], now: datetime) -> bool:
    """A window closes as soon as the ruleset finds every answer in: its deadline
    becomes now, and the worker's next tick resolves it (within seconds), in the
    same way and order as any due phase. Later submissions are refused as late."""
    ruleset = get_ruleset(game.ruleset)
    if not windowed(game, state) or not ruleset.complete(state, actions()):
        return False
    phase.ends_at = min(phase.ends_at, now)
    return True
