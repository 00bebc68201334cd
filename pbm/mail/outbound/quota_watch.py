"""What the Masters see of the relay's limits: the outbox's backlog per class,
the quota's use today, and whether the next boundaries' mail fits in what
remains of it (the desk's mail panel, and a mail to the Masters from the
worker when it will not and the quota still has room for that mail).

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
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ... import render
from ...models import Game, GameMaster, GameStatus, MasterLog, OutboxRow, PhaseRow, PhaseStatus, Seat
from ...operations.base import game_tz, log, reader_tz
from .classes import CLASSES
from .outbox import queue
from .relay_limits import DAY, Limits, paused_until, relay_key, used_today

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
    phases = session.execute(select(PhaseRow.game_id, PhaseRow.id, PhaseRow.index, PhaseRow.ends_at)
                             .join(Game, Game.id == PhaseRow.game_id)
                             .where(PhaseRow.status == PhaseStatus.OPEN, PhaseRow.ends_at > now,
                                    PhaseRow.ends_at <= now + DAY, Game.status == GameStatus.RUNNING,
                                    Game.paused_at.is_(None))
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


def desk_panel(session: Session, config: dict[str, Any], game: Game, lang: str, now: datetime) -> dict[str, Any]:
    """The desk's mail panel: the relay's backlog and quota, and this game's warning."""
    limits = Limits.from_config(config)
    waiting = backlog(session)
    shortfall = next((s for s in shortfalls(session, limits, now, sum(waiting.values()))
                      if s.game_id == game.id), None)
    tz = game_tz(game)
    reset = limits.next_reset(now)
    return {
        "backlog": waiting, "per_day": limits.per_day, "per_minute": limits.per_minute,
        "used_today": used_today(session, limits, now),
        "rolling": limits.reset_at is None,
        "reset": render.deadline_text(reset, lang, tz) if reset else None,
        "paused_until": paused_until(session, relay_key(config), now),
        "shortfall": shortfall,
    }


def warn_masters(session: Session, config: dict[str, Any], now: datetime) -> int:
    """Mail the Masters of each game whose next boundary will not fit, once per
    phase, when the quota has room for those mails now; the desk shows it either
    way. How many games were warned."""
    limits = Limits.from_config(config)
    waiting = sum(backlog(session).values())
    found = shortfalls(session, limits, now, waiting)
    if not found:
        return 0
    warned = {(g, (d or {}).get("phase")) for g, d in session.execute(
        select(MasterLog.game_id, MasterLog.details).where(
            MasterLog.game_id.in_([s.game_id for s in found]), MasterLog.action == WARNED))}
    room_now = limits.per_day - used_today(session, limits, now) - waiting
    count = 0
    for shortfall in found:
        if (shortfall.game_id, shortfall.phase_index) in warned:
            continue
        game = session.get(Game, shortfall.game_id)
        phase = session.get(PhaseRow, shortfall.phase_id)
        mailed = len(game.masters) <= room_now
        if mailed:
            room_now -= len(game.masters)
            reset = limits.next_reset(now)
            for m in game.masters:
                lang, tz = m.user.lang, reader_tz(game, m.user)
                queue(session, config, to=m.user.email, template="quota_warning", lang=lang, now=now,
                             game=game, context={
                                 "user": m.user, "needed": shortfall.needed, "room": shortfall.room,
                                 "quota": limits.per_day,
                                 "phase_label": render.phase_label(phase, lang, tz),
                                 "deadline": render.deadline_text(phase.ends_at, lang, tz),
                                 "reset": render.deadline_text(reset, lang, tz) if reset else ""})
        log(session, game, None, WARNED, now, phase=shortfall.phase_index, needed=shortfall.needed,
            room=shortfall.room, mailed=mailed)
        count += 1
    return count
