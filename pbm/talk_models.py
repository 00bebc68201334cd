"""What the players say to each other: the rooms of a game (those its rules declare,
engine/rooms.py, and the whispers its players open), their posts, each reader's place
in a room (where they read to, how they get its posts, their reply address) and the
posts reported to the Masters. Who may read and write a room is never stored: it is
asked of the ruleset at the game's state, each time (pbm/operations/rooms.py), so it
follows the game as the rules say."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .models import Base, Game, Seat, User, UTCDateTime, new_reply_token

# RoomRow.kind
RULES, WHISPER = "rules", "whisper"
# PostRow.status: shown to its readers, held by a Master for review, removed by a Master.
SHOWN, HELD, REMOVED = "shown", "held", "removed"
# RoomReader.delivery: every post by mail as it comes, a digest at the reader's hours, or
# the web only.
EVERY_POST, DIGEST, WEB_ONLY = "post", "digest", "web"
DELIVERIES = (EVERY_POST, DIGEST, WEB_ONLY)


class RoomRow(Base):
    """A room of one game: one the rules declare (``key`` is the ruleset's) or a whisper
    a player opened (``key`` "w" and ten hex digits of chance, its members in ``WhisperMember``)."""

    __tablename__ = "rooms"
    __table_args__ = (UniqueConstraint("game_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    key: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(10), default=RULES)
    # Nobody but the Masters writes in a locked room.
    locked: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    opened_by: Mapped[int | None] = mapped_column(ForeignKey("seats.id"), nullable=True)

    game: Mapped[Game] = relationship()


class WhisperMember(Base):
    """A seat in a whisper (a substitute takes it with the seat)."""

    __tablename__ = "whisper_members"
    __table_args__ = (UniqueConstraint("room_id", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))

    seat: Mapped[Seat] = relationship()


class PostRow(Base):
    """One post (append-only but for the Masters' moderation): by a seat's player, by a
    Master (``seat_id`` None, ``author_id`` the Master), or by the rules (both None: an
    anonymous post at dawn, ``heading`` standing where an author's name would)."""

    __tablename__ = "posts"
    # A room's page and its polling endpoint read the newest posts, or those after one,
    # in the index however long the room is.
    __table_args__ = (Index("ix_posts_room_id", "room_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id"), nullable=True)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    # The name it was posted under (the seat's at the time; a Master's), "" if anonymous.
    signature: Mapped[str] = mapped_column(String(120), default="")
    heading: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # {"it", "en"} for a rules post
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    via: Mapped[str] = mapped_column(String(10))  # web | mail | rules
    status: Mapped[str] = mapped_column(String(10), default=SHOWN)
    moderated_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    moderated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # The post it answers (a mail's In-Reply-To), for the threads of mail readers.
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("posts.id"), nullable=True)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound.id"), nullable=True)

    room: Mapped[RoomRow] = relationship()


class RoomReader(Base):
    """A reader's place in a room: how far they have read, how they get its posts, and
    the reply address (lupus+TOKEN@) a reply of theirs posts through. Made the first
    time they read or are mailed the room."""

    __tablename__ = "room_readers"
    __table_args__ = (UniqueConstraint("room_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_reply_token)
    delivery: Mapped[str] = mapped_column(String(10), default=EVERY_POST)
    digest_hours: Mapped[list[Any]] = mapped_column(JSON, default=lambda: [8, 20])
    last_read_id: Mapped[int] = mapped_column(Integer, default=0)
    # The newest post this reader has had by mail (one by one or in a digest).
    mailed_through_id: Mapped[int] = mapped_column(Integer, default=0)
    last_digest_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    muted: Mapped[bool] = mapped_column(Boolean, default=False)  # the reader's own: no mail, no count
    # A Master's mute of this reader as a writer in this room, until then.
    silenced_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    room: Mapped[RoomRow] = relationship()
    user: Mapped[User] = relationship()


class PostToMail(Base):
    """A post its readers who chose every post have not been mailed yet: written with the
    post (one insert, the request's only cost of the mail), turned into their mail by the
    worker (pbm/telling/room_mail.py) and removed in the same transaction, so a post is
    mailed once, and a worker that dies midway leaves it here for the next run."""

    __tablename__ = "posts_to_mail"

    post_id: Mapped[int] = mapped_column(ForeignKey("posts.id"), primary_key=True)


class PostReport(Base):
    """A post a reader reported to the Masters."""

    __tablename__ = "post_reports"
    __table_args__ = (UniqueConstraint("post_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    post_id: Mapped[int] = mapped_column(ForeignKey("posts.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    note: Mapped[str] = mapped_column(Text, default="")
    seen: Mapped[bool] = mapped_column(Boolean, default=False)

    post: Mapped[PostRow] = relationship()
