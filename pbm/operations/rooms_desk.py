"""What the Masters' desk shows of the players' talk: each room's traffic, and the posts
the players reported that no Master has looked at yet (``rooms`` holds the talk itself)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time
from zoneinfo import ZoneInfo

from sqlalchemy import case, func, select, update
from sqlalchemy.orm import Session

from ..models import Game, User
from ..talk_models import PostReport, PostRow, RoomRow
from .base import log


@dataclass(frozen=True)
class Traffic:
    room: RoomRow
    today: int  # posts since midnight on the game's clock
    total: int


def traffic(session: Session, game: Game, now: datetime, tz: str) -> list[Traffic]:
    """Each stored room of the game with its posts today and in all, in one query."""
    zone = ZoneInfo(tz)
    midnight = datetime.combine(now.astimezone(zone).date(), time(0), zone)
    today = func.sum(case((PostRow.created_at >= midnight, 1), else_=0))
    rows = session.execute(
        select(RoomRow, func.coalesce(today, 0), func.count(PostRow.id))
        .outerjoin(PostRow, PostRow.room_id == RoomRow.id)
        .where(RoomRow.game_id == game.id).group_by(RoomRow.id).order_by(RoomRow.id)).all()
    return [Traffic(room, int(n_today or 0), int(n_all or 0)) for room, n_today, n_all in rows]


@dataclass(frozen=True)
class Reported:
    report: PostReport
    post: PostRow
    room: RoomRow
    by: User


def unseen_reports(session: Session, game: Game, limit: int = 50) -> list[Reported]:
    """The reports of this game's posts no Master has marked seen, oldest first."""
    rows = session.execute(
        select(PostReport, PostRow, RoomRow, User)
        .join(PostRow, PostRow.id == PostReport.post_id).join(RoomRow, RoomRow.id == PostRow.room_id)
        .join(User, User.id == PostReport.user_id)
        .where(PostRow.game_id == game.id, PostReport.seen.is_(False))
        .order_by(PostReport.id).limit(limit)).all()
    return [Reported(*row) for row in rows]


def reports_seen(session: Session, game: Game, report_ids: list[int], by: User, now: datetime) -> int:
    """A Master has looked at these reports (of this game's posts only): how many."""
    ids = list(session.scalars(select(PostReport.id).join(PostRow, PostRow.id == PostReport.post_id)
                               .where(PostRow.game_id == game.id, PostReport.id.in_(report_ids))))
    if ids:
        session.execute(update(PostReport).where(PostReport.id.in_(ids)).values(seen=True))
        log(session, game, by, "reports_seen", now, reports=ids)
    return len(ids)
