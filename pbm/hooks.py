"""What the operations announce once they have changed a game, for whoever shows and
tells it: the operations change things, the listeners (pbm/telling/: the mail, the
piazza's posts) show and tell, in the way Indico's signals do. The signals are
blinker's, which Flask already brings.

A listener runs inside the operation's transaction: whatever it queues (mail in the
outbox, a post in a room) commits with the change or not at all, and a listener that
fails undoes the change rather than leave it untold. Each announcement is sent by the
game's moments (``pbm.operations.timing.moments``; a post, by its room): a listener that
serves one kind of timing connects for that sender only (the results of a calendar phase and of an answer
window are different mails), one that serves all connects for any sender.

This module sits below operations (it imports nothing of the service), so that the
operations announce without knowing who listens, and the listeners are connected by
the application's factory (``pbm.telling.connect``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable

from blinker import ANY, Namespace

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from engine.core import Event, GameState

    from .models import Game, PhaseRow, Seat, User

_signals = Namespace()

game_started = _signals.signal("game-started", doc="The roles are dealt and the first moment is open (GameStarted).")
phase_published = _signals.signal("phase-published", doc="A resolved moment is public (PhasePublished).")
phase_held = _signals.signal("phase-held", doc="A resolved moment waits for the Masters (PhaseHeld).")
submission_recorded = _signals.signal("submission-recorded", doc="A seat's submission is stored (SubmissionRecorded).")
deadline_changed = _signals.signal("deadline-changed", doc="A moment's deadline moved, or the game paused (DeadlineChanged).")
seat_taken = _signals.signal("seat-taken", doc="A substitute took a seat (SeatTaken); sent by the game.")
post_made = _signals.signal("post-made", doc="A post is stored in a room (PostMade); sent by the room.")
game_ended = _signals.signal("game-ended", doc="A game is over, its last moment published (GameEnded); sent by the game.")
game_reopened = _signals.signal("game-reopened", doc="A Master rolled an ended game back (GameReopened); sent by the game.")


@dataclass(frozen=True)
class News:
    """What every announcement carries: the transaction it happened in, the service's
    configuration, the game and the time."""

    session: Session
    config: dict[str, Any]
    game: Game
    now: datetime


@dataclass(frozen=True)
class GameStarted(News):
    phase: PhaseRow
    events: list[Event]  # the deal's events, each seat's own among them


@dataclass(frozen=True)
class PhasePublished(News):
    phase: PhaseRow
    state: GameState  # the state the phase resolved into
    next_phase: PhaseRow | None
    # The resolution's events when the publisher has them at hand (a boundary that
    # just resolved the phase), else None and a listener reads them back.
    events: list[Event] | None = None


@dataclass(frozen=True)
class PhaseHeld(News):
    phase: PhaseRow


@dataclass(frozen=True)
class SubmissionRecorded(News):
    seat: Seat
    phase: PhaseRow
    submission: dict[str, Any]
    source: str  # web | mail | master | standing
    source_detail: str = ""
    by: User | None = None  # a Master acting for the seat
    tell_player: bool = True  # a Master's entry is copied to the player unless they said not to


@dataclass(frozen=True)
class DeadlineChanged(News):
    phase: PhaseRow
    old: datetime | None  # None: the game was paused, or resumed, with this deadline
    new: datetime | None  # None: paused, no deadline runs
    why: str  # EXTENDED | PAUSED | RESUMED | ABSENCE | MORE_TIME
    by: User | None = None
    seats: list[Seat] = field(default_factory=list)  # for whom, if not everyone (more time in a window)


@dataclass(frozen=True)
class SeatTaken(News):
    seat: Seat
    holder: Any  # models.SeatHolder: the newcomer's tenure
    newcomer: User
    left: User | None  # the player who held the seat until now
    phase: PhaseRow | None


@dataclass(frozen=True)
class PostMade(News):
    room: Any  # talk_models.RoomRow
    post: Any  # talk_models.PostRow
    author: User | None  # None: a post the rules made (anonymous, at dawn)


@dataclass(frozen=True)
class GameEnded(News):
    """The game is over: every moment of it is published."""


@dataclass(frozen=True)
class GameReopened(News):
    """An ended game runs again: whatever was counted of its end is taken back."""


# Why a deadline changed (DeadlineChanged.why): a Master moved it, paused or resumed
# the game, a declared absence pushed it, a player asked for more time in a window.
EXTENDED, PAUSED, RESUMED, ABSENCE, MORE_TIME = "extended", "paused", "resumed", "absence", "more_time"


# The order listeners were connected in: blinker hands a signal's receivers back as a
# set, and the order of the mail they queue is the order it is sent in (a player's
# results before the Masters' report), so announcements follow this one.
# Keyed by the receiver itself, not its id(): an id is reused once a disconnected
# receiver is collected, and a new one would inherit its place.
_order: dict[Callable[..., None], int] = {}


def listen(signal: Any, receiver: Callable[..., None], sender: object = ANY, *, first: bool = False) -> None:
    """Connect ``receiver`` to ``signal`` for ``sender`` (any, by default); it is told in
    the order of connection (``first``: before every other)."""
    if first:
        _order[receiver] = min(_order.values(), default=0) - 1
    else:
        _order.setdefault(receiver, max(_order.values(), default=0) + 1)
    signal.connect(receiver, sender=sender, weak=False)


def announce(signal: Any, sender: object, news: News) -> None:
    """Tell every listener of ``signal`` connected for ``sender`` (or for any), in the
    order they were connected."""
    for receiver in sorted(signal.receivers_for(sender), key=lambda r: _order.get(r, len(_order) + 1)):
        receiver(sender, news=news)
