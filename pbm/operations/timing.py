"""When a game's moments end, and everything that follows from it, answered by one
object per kind of timing (``moments(game)``), as boardgame.io keeps a game's flow in
its configuration: the service never asks "is this a window game?" and then decides for
itself, it asks the game's moments what to do.

- ``OnCalendar`` (the Lupus games by mail): a moment ends at the end of the next
  scheduled phase of its kind on the game's calendar;
- ``InWindows`` (Complots): the game's answer window after the moment opens, each
  window its whole time, or earlier once the ruleset finds every answer in;
- ``AtTheTable`` (Lupus Noctis): no deadline; the narrator's confirm closes it
  (``desk.close_now``). A game whose ruleset is played at a table is at the table
  from its set-up on, before any moment is open.

Each answers the same questions: when a moment opens and ends (``span``), whether it
still takes answers (``taking_answers``, alike for all three), how an answer after it is refused
(``late``), whether a reply to an earlier moment's mail may count for the one open now
(``replies_carry_over``), whether a last answer closes it at once (``closes_early``),
whether standing answers answer it (``takes_standing_answers``), whether a reminder is
worth sending (``reminder_due``), which page its players see
(``page``), whether its coming moments can be listed ahead (``scheduled``), and how a
record names one of its moments (``record_label``). Its results mail is whichever
listener of ``hooks.phase_published`` is connected for it as the sender (pbm/telling).

The phase row always has an ``ends_at``: a table's moment's is NO_DEADLINE, far
beyond any clock, so the queries on deadlines (due phases, reminders) need no case
of their own (``PhaseRow.has_deadline`` tells it apart).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable, ClassVar

from engine.core import Action, GameState
from engine.interface import CALENDAR, NARRATOR, WINDOW, TableScript
from engine.registry import get_ruleset

from .. import calendar, render
from ..models import NO_DEADLINE, Game, GameStatus, PhaseRow, PhaseStatus
from .base import OperationError, game_schedule

MIN_WINDOW, MAX_WINDOW = timedelta(minutes=1), timedelta(days=2)
DEFAULT_WINDOW = timedelta(hours=24)

# The players' page each kind of timing gives them (pbm/web picks its view by it).
CALENDAR_PAGE, WINDOW_PAGE, TABLE_PAGE = "calendar", "window", "table"


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


class Moments:
    """How one kind of timing answers the service's questions about a moment."""

    kind: ClassVar[str]
    page: ClassVar[str]
    # The refusal of an answer that comes after its moment (engine/texts.py's wording).
    late: ClassVar[str] = "phase_closed"
    # A reply to an earlier moment's mail may count for the moment open when it arrived
    # (a calendar game's vote replying to yesterday's bulletin); never for a window,
    # whose "pass" must not answer the next challenge.
    replies_carry_over: ClassVar[bool] = True
    # A moment that every answer is in closes at once, and is resolved at once.
    closes_early: ClassVar[bool] = False
    # Its coming moments can be listed ahead, from the game's calendar (the .ics feed).
    scheduled: ClassVar[bool] = False
    # A player's standing answers ("always pass") answer its moments as they open.
    takes_standing_answers: ClassVar[bool] = False

    def span(self, game: Game, state: GameState, *, first: bool, after: datetime, now: datetime) -> Span:
        raise NotImplementedError

    def reminder_due(self, phase: PhaseRow, notice: timedelta) -> bool:
        """Whether a reminder ``notice`` before the deadline tells the player anything."""
        return True

    def close_if_complete(self, game: Game, phase: PhaseRow, state: GameState,
                          actions: Callable[[], list[Action]], now: datetime) -> bool:
        """Close the moment now if the ruleset finds every answer in (``closes_early``)."""
        return False

    def record_label(self, game: Game, phase: PhaseRow, lang: str, tz: str) -> str:
        """A moment as a record of the whole game names it (the Masters' report)."""
        return render.phase_label(phase, lang, tz)


class OnCalendar(Moments):
    kind, page, scheduled = CALENDAR, CALENDAR_PAGE, True

    def span(self, game: Game, state: GameState, *, first: bool, after: datetime, now: datetime) -> Span:
        """A calendar phase starts at the boundary that closed the previous one
        (``after``) and ends at the first scheduled end of a phase of its kind after
        it: so a worker that was down past several boundaries finds the missed phases
        already due, and resolves them one after another, in order, never skipping one.
        The first night runs from the start of the game (docs/rulings.md)."""
        timing = get_ruleset(game.ruleset).timing(state)
        wanted = timing.phase or state.phase.kind
        start = now if first else after
        candidates = calendar.phases_from(game_schedule(game), start, 8)
        chosen = next((p for p in candidates if p.kind == wanted and p.end > start), candidates[0])
        return Span(start, chosen.end, chosen.long)


class InWindows(Moments):
    kind, page, late = WINDOW, WINDOW_PAGE, "moment_passed"
    replies_carry_over, closes_early, takes_standing_answers = False, True, True

    def span(self, game: Game, state: GameState, *, first: bool, after: datetime, now: datetime) -> Span:
        """A window starts now: one late to open still gets its whole time."""
        return Span(now, now + answer_window(game))

    def reminder_due(self, phase: PhaseRow, notice: timedelta) -> bool:
        # A window no longer than the notice: the mail that opened it is the reminder.
        return phase.ends_at - phase.starts_at > notice

    def close_if_complete(self, game: Game, phase: PhaseRow, state: GameState,
                          actions: Callable[[], list[Action]], now: datetime) -> bool:
        """Its deadline becomes now, and the worker's next tick (or the mail batch
        that brought the last answer) resolves it in the same way and order as any
        due phase. Later submissions are refused as late."""
        if not get_ruleset(game.ruleset).complete(state, actions()):
            return False
        phase.ends_at = min(phase.ends_at, now)
        return True

    def record_label(self, game: Game, phase: PhaseRow, lang: str, tz: str) -> str:
        return _numbered(game, phase, lang)


class AtTheTable(Moments):
    kind, page = NARRATOR, TABLE_PAGE

    def span(self, game: Game, state: GameState, *, first: bool, after: datetime, now: datetime) -> Span:
        return Span(now, NO_DEADLINE)

    def reminder_due(self, phase: PhaseRow, notice: timedelta) -> bool:
        return False  # nobody at a table reads mail to be reminded

    def record_label(self, game: Game, phase: PhaseRow, lang: str, tz: str) -> str:
        # Moments a narrator closes share their dates: a record tells one night from the next.
        return _numbered(game, phase, lang)


ON_CALENDAR, IN_WINDOWS, AT_THE_TABLE = OnCalendar(), InWindows(), AtTheTable()
_BY_KIND: dict[str, Moments] = {m.kind: m for m in (ON_CALENDAR, IN_WINDOWS, AT_THE_TABLE)}


def taking_answers(game: Game, phase: PhaseRow | None, now: datetime,
                   arrived_at: datetime | None = None) -> bool:
    """Whether ``phase`` takes answers at ``now``, whatever its kind of timing: open, in
    a running game, before its deadline, or sent by a mail that reached the mailbox
    while it was open (that still counts until the phase is resolved)."""
    if game.status != GameStatus.RUNNING or phase is None or phase.status != PhaseStatus.OPEN:
        return False
    return now < phase.ends_at or (arrived_at is not None and phase.starts_at <= arrived_at < phase.ends_at)


def moments(game: Game, state: GameState | None = None) -> Moments:
    """The owner of the game's timing at the moment ``state`` is at (a phase's
    ``state_before``), or, ``state`` None, at the moment now open (read from the game).
    A game played at a table is at the table from its set-up; any other game is on its
    calendar until its first moment opens."""
    ruleset = get_ruleset(game.ruleset)
    if ruleset.ability(TableScript) is not None:
        return AT_THE_TABLE
    if state is None:
        state = GameState.from_dict(game.state) if game.state else None
    if state is None:
        return ON_CALENDAR
    kind = ruleset.timing(state).kind
    if kind not in _BY_KIND:
        raise ValueError(f"unknown timing {kind!r} from ruleset {game.ruleset!r}")
    return _BY_KIND[kind]


def _numbered(game: Game, phase: PhaseRow, lang: str) -> str:
    ruleset = get_ruleset(game.ruleset)
    return f"{ruleset.describe_choice('moment', phase.kind, lang)} {phase.number}"


def ahead(game: Game, after: datetime, count: int = 3) -> tuple[list[calendar.Phase], timedelta | None]:
    """What a game's timing will be, before it is dealt (the join page: issue 31): its
    first calendar phases after ``after`` for a game on the calendar, or its answer window
    for a game of windows (a ruleset with no calendar of its own); a narrator's game, at
    a table, has neither."""
    rules = get_ruleset(game.ruleset)
    if rules.ability(TableScript) is not None:
        return [], None
    if rules.schedule_spec is None:
        return [], answer_window(game)
    return calendar.phases_from(game_schedule(game), after, count), None
