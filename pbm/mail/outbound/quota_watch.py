"""What the relay's limits mean for the coming day: the outbox's backlog per class,
and whether the next boundaries' mail fits in what remains of the quota (the desk's
mail panel shows it, pbm/web/desk_view.py; the worker mails the Masters when it will
not, pbm/telling/quota_warning.py).

The forecast counts, for every running game whose open phase ends within a
day, one mail per player with an address and one per Master (an upper bound:
a player who chose the digest gets mail only for private results), against
the quota left at that moment: the quota, less what was sent in the quota's
day as it will be then, less everything already waiting, less the boundaries
that come first.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ...models import GameMaster, OutboxRow, PhaseRow, Seat, running_phases
from .classes import CLASSES
from .relay_limits import DAY, Limits

# The Masters' log entry of a warning sent (one per game and phase).
WARNED = "quota_warning"


@dataclass(frozen=True)
class Shortfall:
    """A game's next boundary whose mail will not all fit in the day's quota."""

    game_id: int
    phase_id: int
    phase_index: int
    at: datetime
    needed: int
    room: int


def backlog(session: Session) -> dict[int, int]:
    """Mail waiting to be sent, by class (every class present, 0 when empty)."""
    counts = dict(session.execute(select(OutboxRow.priority, func.count()).where(OutboxRow.status == "pending")
                                  .group_by(OutboxRow.priority)).all())
    return {c: counts.get(c, 0) for c in CLASSES}


def shortfalls(session: Session, limits: Limits, now: datetime, waiting: int | None = None) -> list[Shortfall]:
    """The boundaries of the coming day whose mail will not fit, in the order they come."""
    if not limits.per_day:
        return []
    phases = session.execute(running_phases(PhaseRow.game_id, PhaseRow.id, PhaseRow.index, PhaseRow.ends_at)
                             .where(PhaseRow.ends_at > now, PhaseRow.ends_at <= now + DAY)
                             .order_by(PhaseRow.ends_at, PhaseRow.game_id)).all()
    if not phases:
        return []
    games = [p.game_id for p in phases]
    players = dict(session.execute(select(Seat.game_id, func.count()).where(
        Seat.game_id.in_(games), Seat.user_id.is_not(None)).group_by(Seat.game_id)).all())
    masters = dict(session.execute(select(GameMaster.game_id, func.count()).where(
        GameMaster.game_id.in_(games)).group_by(GameMaster.game_id)).all())
    if waiting is None:
        waiting = sum(backlog(session).values())
    # Every send that may still count at some boundary of the coming day.
    sends = list(session.scalars(select(OutboxRow.sent_at).where(OutboxRow.sent_at >= limits.day_began(now))))
    found, before = [], 0
    for game_id, phase_id, index, at in phases:
        needed = players.get(game_id, 0) + masters.get(game_id, 0)
        began = limits.day_began(at)
        room = limits.per_day - sum(1 for s in sends if s >= began) - waiting - before
        if needed > room:
            found.append(Shortfall(game_id, phase_id, index, at, needed, max(room, 0)))
        before += needed
    return found
