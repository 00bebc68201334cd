"""A room's posts by mail (a listener of ``hooks.post_made``), within the relay's day.

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
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .. import hooks, visibility
from ..mail import outbound as mailer
from ..mail.outbound.composer import domain_of, reply_address
from ..mail.outbound.relay_limits import Limits, used_today
from ..models import Game, OutboxRow, Seat
from ..operations import rooms
from ..talk_models import EVERY_POST, WHISPER, PostRow, RoomReader, RoomRow, WhisperMember
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


def post_by_mail(room: RoomRow, news: hooks.PostMade) -> None:
    session, config, game, post, now = news.session, news.config, news.game, news.post, news.now
    members = [(user, seat) for user, seat, _access in rooms.readers(session, game, room)
               if news.author is None or user.id != news.author.id]
    places = rooms.readers_in(session, room, [user for user, _ in members])
    wanted = [(user, seat, places[user.id]) for user, seat in members
              if not places[user.id].muted and places[user.id].delivery == EVERY_POST]
    if not wanted:
        return
    left = talk_room_left(session, config, now)
    if left is not None and left < len(wanted):
        return  # the day is full: on the web now, in the readers' next digest
    title = _titles(session, game, room)
    room_url = f"{config['BASE_URL'].rstrip('/')}/g/{game.slug}/rooms/{room.key}"
    list_id = f"<{room.key}.{game.slug}.{domain_of(config['MASTER_ADDRESS'])}>"
    by_lang: dict[str, dict[str, Any]] = {}  # the message as every reader in a language reads it
    messages = []
    for user, _seat, reader in wanted:
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
    mailer.queue_all(session, messages)
    # Where each reader's mail has got to, in one statement (post ids only grow).
    session.execute(update(RoomReader).where(RoomReader.id.in_([r.id for _, _, r in wanted]),
                                             RoomReader.mailed_through_id < post.id)
                    .values(mailed_through_id=post.id).execution_options(synchronize_session=False))

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
