"""The rooms' digests (a worker job, ``send_due``): one mail per reader and game with
every post of their rooms since their last one, at the hours they chose ("12 messaggi
in piazza, 3 nella tana"). A reader who chose every post gets one too when the relay's
day could not carry some posts as they came (room_mail.py): the digest catches up what
stayed on the web. Only the rooms the reader still reads now, only the posts shown to
them, never their own."""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import render
from ..mail import outbound as mailer
from ..mail.outbound.digests import last_digest_time
from ..models import Game, GameStatus, User
from ..operations import rooms
from ..operations.base import reader_tz
from ..talk_models import DIGEST, EVERY_POST, SHOWN, PostRow, RoomReader, RoomRow
from .room_mail import talk_room_left

# At most this many posts of a room are printed in a digest; the rest are counted, with the
# room's link.
PER_ROOM = 30
# A reader of every post whose mail fell behind is caught up once the day has room again,
# but not before the post is this old (the next post's own mail may still carry on).
CATCH_UP_AFTER = timedelta(minutes=30)


def send_due(session: Session, config: dict[str, Any], now: datetime) -> int:
    """Queue every digest that is due; how many mails were queued."""
    readers = session.execute(
        select(RoomReader, RoomRow).join(RoomRow, RoomRow.id == RoomReader.room_id)
        .join(Game, Game.id == RoomRow.game_id)
        .where(RoomReader.delivery.in_((DIGEST, EVERY_POST)), RoomReader.muted.is_(False),
               Game.status.in_((GameStatus.RUNNING, GameStatus.OVER)))).all()
    newest = dict(session.execute(select(PostRow.room_id, func.max(PostRow.id)).where(
        PostRow.room_id.in_({room.id for _, room in readers}), PostRow.status == SHOWN)
        .group_by(PostRow.room_id)).all()) if readers else {}
    due: dict[tuple[int, int], list[tuple[RoomReader, RoomRow]]] = defaultdict(list)
    for reader, room in readers:
        if newest.get(room.id, 0) <= reader.mailed_through_id:
            continue
        if reader.delivery == DIGEST and not _hour_passed(reader, room.game, now, config):
            continue
        if reader.delivery == EVERY_POST and not _behind(session, reader, room, now):
            continue
        due[(reader.user_id, room.game_id)].append((reader, room))
    left = talk_room_left(session, config, now)
    sent = 0
    for (user_id, game_id), places in due.items():
        if left is not None and left - sent < 1:
            break  # the day is full: the next run tries again
        if _queue(session, config, session.get(User, user_id), session.get(Game, game_id), places, now):
            sent += 1
    return sent


def _hour_passed(reader: RoomReader, game: Game, now: datetime, config: dict[str, Any]) -> bool:
    """One of the reader's hours came since their last digest (or since the room was
    made, for a first one)."""
    tz = reader_tz(game, reader.user) or config["DEFAULT_TIMEZONE"]
    since = reader.last_digest_at or reader.room.created_at
    return any(last_digest_time(now, int(h), tz) > since for h in reader.digest_hours or [8, 20])


def _behind(session: Session, reader: RoomReader, room: RoomRow, now: datetime) -> bool:
    first = session.scalar(select(PostRow.created_at).where(
        PostRow.room_id == room.id, PostRow.id > reader.mailed_through_id, PostRow.status == SHOWN)
        .order_by(PostRow.id).limit(1))
    return first is not None and now - first >= CATCH_UP_AFTER


def _queue(session: Session, config: dict[str, Any], user: User, game: Game,
           places: list[tuple[RoomReader, RoomRow]], now: datetime) -> bool:
    lang, tz = user.lang, reader_tz(game, user)
    seat = next((s for s in game.seats if s.user_id == user.id), None)
    master = game.is_master(user)
    sections = []
    for reader, room in sorted(places, key=lambda p: p[1].id):
        if not any(u.id == user.id for u, _, _ in rooms.readers(session, game, room)):
            reader.mailed_through_id = max(reader.mailed_through_id, reader.last_read_id)
            continue  # no longer in the room: nothing of it is mailed
        posts = list(session.scalars(select(PostRow).where(
            PostRow.room_id == room.id, PostRow.id > reader.mailed_through_id, PostRow.status == SHOWN,
            PostRow.author_id.is_(None) | (PostRow.author_id != user.id)).order_by(PostRow.id)))
        reader.mailed_through_id = max([reader.mailed_through_id] + [p.id for p in posts])
        reader.last_digest_at = now
        if not posts:
            continue
        place = rooms.place_of(session, game, room.key, seat, master=master)
        title = place.title(lang) if place else room.key
        shown = posts[-PER_ROOM:]
        sections.append({
            "title": title, "count": len(posts), "more": len(posts) - len(shown),
            "url": f"{config['BASE_URL'].rstrip('/')}/g/{game.slug}/rooms/{room.key}",
            "posts": [{"who": p.signature or (p.heading or {}).get(lang) or (p.heading or {}).get("it") or "?",
                       "when": render.deadline_text(p.created_at, lang, tz), "body": p.body} for p in shown]})
    if not sections:
        return False
    mailer.queue(session, config, to=user.email, template="room_digest", lang=lang, now=now, game=game,
                 context={"rooms": sections, "name": seat.name if seat else user.name})
    return True
