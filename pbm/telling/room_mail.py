"""A room's posts by mail, within the relay's day: a listener of ``hooks.post_made`` notes
the post (one insert, all a post costs its request), and the worker makes its mail a few
seconds later (``mail_waiting``, run with the outbox's job).

Each post goes to every reader of the room now (asked of the rules, pbm/operations/rooms.py)
who chose every post and has not muted the room, but its author: from the service's
address under the author's name and the game's ("Carla (Lupus del martedì)"), with a
reply address of that room and that reader, so a reply posts back into the room as
them; threads follow the post answered (In-Reply-To, References), each reader's copy
its own Message-ID. No member's address appears anywhere: the From and Reply-To are
the service's, the To the reader's own.

A post is the lowest class of mail (classes.TALK): when the relay's day has no room
left for it (the quota, less what was sent and what waits), it stays on the web, and
the reader's digest catches it up (room_digests.py).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from .. import hooks, visibility
from ..mail import outbound as mailer
from ..mail.outbound.composer import domain_of, reply_address
from ..mail.outbound.relay_limits import Limits, used_today
from ..models import Game, OutboxRow, Seat, User
from ..operations import rooms
from ..talk_models import EVERY_POST, SHOWN, WHISPER, PostRow, PostToMail, RoomReader, RoomRow, WhisperMember
from .results_mail import resolution_events

# A share of the day's quota the talk never takes: what the game's own mail needs
# (receipts, results, the Masters' report) when the day's talk is busy.
TALK_SHARE = 0.5


def post_message_id(config: dict[str, Any], post_id: int, reader_id: int) -> str:
    """A post's copy for one reader: the id a reply's In-Reply-To names back."""
    return f"<post-{post_id}-{reader_id}@{domain_of(config['MASTER_ADDRESS'])}>"


def talk_room_left(session: Session, config: dict[str, Any], now: datetime) -> int | None:
    """How many talk mails the relay's day still takes (None: no daily quota)."""
    limits = Limits.from_config(config)
    if not limits.per_day:
        return None
    waiting = session.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "pending")) or 0
    return int(limits.per_day * TALK_SHARE) - used_today(session, limits, now) - waiting


def shown_as(post: PostRow, game: Game, lang: str) -> str:
    """The name a post's mail comes from: its author's, or what stands for one."""
    name = post.signature or (post.heading or {}).get(lang) or (post.heading or {}).get("it") or "?"
    return f"{name} ({game.name})"


def post_to_mail(_room: RoomRow, news: hooks.PostMade) -> None:
    """A post is noted for the worker's mail (``mail_waiting``), with it, in one insert:
    who reads it and their copies are worked out off the request that stored it."""
    news.session.add(PostToMail(post_id=news.post.id))  # flushed with the commit


# The PostgreSQL advisory lock the mail of the posts takes, held to its commit: the
# workers sharing a database make it one at a time, so a room's posts go out in order.
POSTS_MAIL_LOCK = (0x4C55, -1)  # the resolvers' namespace ("LU"), a key no phase has
# The posts made into mail in one transaction (the outbox job's, every few seconds).
BATCH = 200


class Mailed(NamedTuple):
    posts: int  # the posts taken from the waiting
    mails: int  # the mails they made


def mail_waiting(session: Session, config: dict[str, Any], now: datetime) -> Mailed:
    """The mail of the posts waiting (``PostToMail``), oldest first, at most BATCH:
    each post to every reader of its room now who chose every post, has not muted it
    and has not had it (a digest that caught them up); removed from the waiting in the
    same transaction."""
    if session.get_bind().dialect.name == "postgresql" and not session.scalar(
            select(func.pg_try_advisory_xact_lock(*POSTS_MAIL_LOCK))):
        return Mailed(0, 0)  # another worker is at it
    waiting = list(session.scalars(select(PostRow).join(PostToMail, PostToMail.post_id == PostRow.id)
                                   .order_by(PostRow.id).limit(BATCH)))
    if not waiting:
        return Mailed(0, 0)
    rooms_now = _RoomsNow(session, config, now)
    mails = sum(_post_by_mail(rooms_now, post) for post in waiting)
    session.execute(delete(PostToMail).where(PostToMail.post_id.in_([p.id for p in waiting])))
    return Mailed(len(waiting), mails)


class _RoomsNow:
    """What one run of ``mail_waiting`` asks of a room once, whatever its posts: its
    readers now, their places, its names; and the talk's room left in the relay's day."""

    def __init__(self, session: Session, config: dict[str, Any], now: datetime) -> None:
        self.session, self.config, self.now = session, config, now
        self.left = talk_room_left(session, config, now)
        self._readers: dict[int, list[tuple[User, RoomReader]]] = {}
        self._titles: dict[int, dict[str, str]] = {}

    def readers(self, room: RoomRow) -> list[tuple[User, RoomReader]]:
        if room.id not in self._readers:
            users = [user for user, _seat, _access in rooms.readers(self.session, room.game, room)]
            places = rooms.readers_in(self.session, room, users)
            self._readers[room.id] = [(user, places[user.id]) for user in users]
        return self._readers[room.id]

    def titles(self, room: RoomRow) -> dict[str, str]:
        if room.id not in self._titles:
            self._titles[room.id] = _titles(self.session, room.game, room)
        return self._titles[room.id]


def _post_by_mail(rooms_now: _RoomsNow, post: PostRow) -> int:
    if post.status != SHOWN:
        return 0  # held or removed by a Master before its mail was made
    room = post.room
    game = room.game
    wanted = []
    for user, reader in rooms_now.readers(room):
        if user.id == post.author_id:
            reader.mailed_through_id = max(reader.mailed_through_id, post.id)  # never mailed their own
        elif not reader.muted and reader.delivery == EVERY_POST and reader.mailed_through_id < post.id:
            wanted.append((user, reader))
    if not wanted:
        return 0
    if rooms_now.left is not None:
        if rooms_now.left < len(wanted):
            return 0  # the day is full: on the web now, in the readers' next digest
        rooms_now.left -= len(wanted)
    config, now = rooms_now.config, rooms_now.now
    title = rooms_now.titles(room)
    room_url = f"{config['BASE_URL'].rstrip('/')}/g/{game.slug}/rooms/{room.key}"
    list_id = f"<{room.key}.{game.slug}.{domain_of(config['MASTER_ADDRESS'])}>"
    by_lang: dict[str, dict[str, Any]] = {}  # the message as every reader in a language reads it
    messages = []
    for user, reader in wanted:
        lang = user.lang
        if lang not in by_lang:
            by_lang[lang] = mailer.compose(
                config, to=user.email, template="room_post", lang=lang, now=now, game=game,
                talk=(shown_as(post, game, lang), reader.token, ""),
                context={"room": title.get(lang) or title.get("it"), "post": post, "room_url": room_url})
        message = dict(by_lang[lang])
        address = reply_address(config, reader.token)
        parent = post_message_id(config, post.parent_id, reader.id) if post.parent_id else None
        message.update(to_addr=user.email, reply_to=address, message_id=post_message_id(config, post.id, reader.id),
                       from_addr=f"{message['from_addr'].rsplit('<', 1)[0]}<{address}>",
                       headers={**message["headers"], "List-Id": list_id,
                                **({"In-Reply-To": parent, "References": parent} if parent else {})})
        messages.append(message)
        reader.mailed_through_id = post.id  # where each reader's mail has got to (post ids only grow)
    mailer.queue_all(rooms_now.session, messages)
    return len(messages)


def _titles(session: Session, game: Game, room: RoomRow) -> dict[str, str]:
    """The room's name in each language: the rules' name, or a whisper's members."""
    if room.kind == WHISPER:
        names = ", ".join(session.scalars(select(Seat.name).join(WhisperMember, WhisperMember.seat_id == Seat.id)
                                          .where(WhisperMember.room_id == room.id).order_by(Seat.position)))
        return {"it": names, "en": names}
    spec = rooms.rooms_of(game).spec(room.key)
    return {"it": spec.name.read("it"), "en": spec.name.read("en")} if spec else {"it": room.key, "en": room.key}


def posts_by_the_rules(_moments: object, news: hooks.PhasePublished) -> None:
    """A published moment's posts by the rules (the ruleset's ``posts_from``: anonymous, at dawn)."""
    rooms.rules_posts(news.session, news.config, news.game, visibility.as_events(resolution_events(news)),
                      news.now)
