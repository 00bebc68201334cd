"""Database models (SQLAlchemy 2.x typed ORM).

Each phase keeps the state it opened with (``state_before``, updated by the
Masters' interventions, which are stored as events with their own seed) and the
state it resolved to (``state_after``): a phase can be re-resolved, previewed and
replayed from them. Submissions, events and inbound mail are only added to, with
one exception: the Masters' roll-back, a correction, removes the phase opened by
the rolled-back publication (its submissions are copied into the Masters' log
first) and the events of the resolution it undoes.
"""
from __future__ import annotations

import hashlib
import json
import secrets
from datetime import date, datetime, timezone
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import (
    JSON, BigInteger, Boolean, Date, DateTime, ForeignKey, Index, Integer, LargeBinary, SmallInteger, String,
    Table,
    Text,
    TypeDecorator,
    Select, select,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every engine (SQLite keeps no zone of its own)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.replace(tzinfo=timezone.utc)


class GameStatus(StrEnum):
    """A game's life: players join in set-up, then it runs until it is over."""

    SETUP = "setup"
    RUNNING = "running"
    OVER = "over"


class PhaseStatus(StrEnum):
    """A phase: open for submissions -> resolving (claimed by one worker) -> draft
    (resolved, waiting for the Masters) or straight to published. A roll-back
    turns the last published phase back into a draft."""

    OPEN = "open"
    RESOLVING = "resolving"
    DRAFT = "draft"
    PUBLISHED = "published"


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}
    # Every model maps one table (DeclarativeBase allows any FromClause): its Core
    # insert and delete, used where the ORM's per-row work is not wanted, type-check.
    __table__: ClassVar[Table]


# werkzeug's default (scrypt). Tests lower it: they create hundreds of accounts.
PASSWORD_METHOD = "scrypt"

_dummy_hashes: dict[str, str] = {}


def check_dummy_password(password: str) -> bool:
    """Spend the time a real check takes, for an address with no usable account:
    a login must not tell by its timing whether an address exists."""
    if PASSWORD_METHOD not in _dummy_hashes:
        _dummy_hashes[PASSWORD_METHOD] = generate_password_hash(secrets.token_hex(16), method=PASSWORD_METHOD)
    check_password_hash(_dummy_hashes[PASSWORD_METHOD], password)
    return False


def new_session_token() -> str:
    return secrets.token_urlsafe(16)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(120))
    password_hash: Mapped[str] = mapped_column(String(255), default="")
    lang: Mapped[str] = mapped_column(String(5), default="it")
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    reminders: Mapped[bool] = mapped_column(Boolean, default=True)
    # How the bulletins reach this user (pbm/mail/outbound/digests.py): "each" phase's mail, one
    # "digest" a day, or the "web" page only. Private results always come by mail.
    bulletins: Mapped[str] = mapped_column(String(8), default="each", server_default="each")
    address_failing: Mapped[bool] = mapped_column(Boolean, default=False)
    # The zone the times in this user's mail are written in ("": the game's own).
    tz: Mapped[str] = mapped_column(String(64), default="")
    # Part of every login's identity (session and remember cookie): a new one
    # at logout and at a password change ends every session opened before.
    session_token: Mapped[str] = mapped_column(String(64), default=new_session_token)

    def set_password(self, password: str) -> None:
        self.password_hash = generate_password_hash(password, method=PASSWORD_METHOD)
        self.end_sessions()

    def check_password(self, password: str) -> bool:
        if not self.password_hash:  # an account still waiting for its password
            return check_dummy_password(password)
        return check_password_hash(self.password_hash, password)

    def end_sessions(self) -> None:
        self.session_token = new_session_token()

    def password_fingerprint(self) -> str:
        """Changes whenever the password does (a new salt every time): a
        set-password link carrying it works once."""
        return hashlib.sha256(f"{self.email}|{self.password_hash}".encode()).hexdigest()[:24]

    # flask-login's user protocol
    is_active = True
    is_anonymous = False

    @property
    def is_authenticated(self) -> bool:
        return True

    def get_id(self) -> str:
        return f"{self.id}:{self.session_token}"


class Listing(StrEnum):
    PUBLIC = "public"
    UNLISTED = "unlisted"
    PRIVATE = "private"


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(120))
    ruleset: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.SETUP)  # GameStatus
    seed: Mapped[str] = mapped_column(String(64))
    schedule: Mapped[dict[str, Any]] = mapped_column(default=dict)
    auto_publish: Mapped[bool] = mapped_column(Boolean, default=True)
    # A game option the ruleset reads in ``holds`` (operations.game_options): hold a
    # resolution for the Masters when the rules settled a contradiction at random.
    review_contradictions: Mapped[bool] = mapped_column(Boolean, default=False)
    # The latest published state of the engine (a cache of the phase snapshots).
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    composition: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Roles drawn but not yet dealt: {"seating": [[name, role]...], "options", "draws"}.
    # The Masters review it (and edit what the ruleset lets them: its
    # ``prepared_options``) before the game starts.
    prepared: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # While set, no boundary fires; on resume the open phase keeps the time it had left.
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # The Masters' choices about the players' talk (pbm/talk_models.py): {"settings":
    # {key: bool} of the ruleset's RoomSettings, "archive": "all" | "plenary" | "none"}.
    talk: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Who may read the game's pages (Listing): everyone, from the home page; everyone
    # with its link; or only its players and Masters (a private evening: issue 31).
    listing: Mapped[str] = mapped_column(String(16), default="public", server_default="public")

    seats: Mapped[list["Seat"]] = relationship(back_populates="game", order_by="Seat.position")
    masters: Mapped[list["GameMaster"]] = relationship(back_populates="game")
    phases: Mapped[list["PhaseRow"]] = relationship(back_populates="game", order_by="PhaseRow.index")

    def seat_by_name(self, name: str) -> "Seat | None":
        return next((s for s in self.seats if s.name == name), None)

    def is_master(self, user: User | None) -> bool:
        return bool(user) and any(m.user_id == user.id for m in self.masters)


def new_reply_token() -> str:
    """16 random URL-safe characters: what a forger of a From address lacks."""
    return secrets.token_urlsafe(12)
class AuthAttempt(Base):
    """What throttles logins and the mail anyone may ask for: wrong passwords,
    password-reset and sign-up mails, by address asked for and by client."""

    __tablename__ = "auth_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # login | reset | signup
    email: Mapped[str] = mapped_column(String(254), index=True)
    client: Mapped[str] = mapped_column(String(64), index=True)


class Signup(Base):
    """A game's open sign-up: whoever has the link may ask for a seat."""

    __tablename__ = "signups"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    is_open: Mapped[bool] = mapped_column(Boolean, default=True)
    closes_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # The most players the game takes, however they were seated.
    max_players: Mapped[int] = mapped_column(Integer)

    game: Mapped["Game"] = relationship()


class GameMaster(Base):
    __tablename__ = "game_masters"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # The Master's reply token for this game, as a seat's is for a player:
    # mail to the Master comes from and answers to lupus+TOKEN@..., and a
    # Master's command by mail counts only when it comes back through it.
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_reply_token)

    game: Mapped[Game] = relationship(back_populates="masters")
    user: Mapped[User] = relationship()


class Seat(Base):
    """A player's place in one game (a user may play several games).

    A player at a table game run from the narrator's phone has no account and no
    address (``user_id`` is None): nothing is ever mailed to such a seat, and it can
    take no command by mail. Its reply token is still unique, and simply unused."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "name"), UniqueConstraint("game_id", "user_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    position: Mapped[int] = mapped_column(Integer)
    # Reply token: every mail to this player carries it, and a command counts
    # only when it comes back with it from the registered address.
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    disqualified: Mapped[bool] = mapped_column(Boolean, default=False)
    # Answers the player left standing (keys of the ruleset's ``standing_answers``),
    # applied for them as each answer window opens.
    standing: Mapped[list[Any]] = mapped_column(default=list)
    # How many times the player has had an answer window extended (a per-game limit).
    extensions_used: Mapped[int] = mapped_column(Integer, default=0)

    game: Mapped[Game] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship()

    @property
    def greeting(self) -> str:
        """The name a mail greets this seat's player by: their own (a substitute is not
        greeted as the player whose seat they took: issue 31), the seat's when unknown."""
        return (self.user.name if self.user is not None and self.user.name else "") or self.name

    @property
    def mailable(self) -> bool:
        """Whether anything may be mailed to this player (a table player has no address)."""
        return self.user is not None


class SeatPhoto(Base):
    """The face a table player took with the narrator's phone when joining: a small
    JPEG re-encoded by the service (``pbm/photos.py``), so no camera metadata is kept.
    Its own table, so loading a game's seats never loads the pictures."""

    __tablename__ = "seat_photos"

    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True)
    content_type: Mapped[str] = mapped_column(String(40))
    data: Mapped[bytes] = mapped_column(LargeBinary)


class SeatHolder(Base):
    """Who held a seat from which phase: the record of substitutions.

    A seat's first holder gets a row when a substitute first takes the seat (until
    then the seat's user held it throughout); ``to_phase`` is the last phase index
    the holder played (None: still holding it)."""

    __tablename__ = "seat_holders"

    id: Mapped[int] = mapped_column(primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    from_phase: Mapped[int] = mapped_column(Integer)
    to_phase: Mapped[int | None] = mapped_column(Integer, nullable=True)
    since: Mapped[datetime] = mapped_column(UTCDateTime())
    # How the bulletin names the newcomer ("": it says only that a substitute came).
    announced_as: Mapped[str] = mapped_column(String(120), default="")

    seat: Mapped[Seat] = relationship()
    user: Mapped[User] = relationship()


class Volunteer(Base):
    """A logged-in user offering to take a seat of a game as a substitute."""

    __tablename__ = "volunteers"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime())

    user: Mapped[User] = relationship()


class Absence(Base):
    """A player's declared absence: shown to the Masters, who decide what to do
    (pause, extend); nothing is paused or skipped by itself."""

    __tablename__ = "absences"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))
    # Who declared it (the seat may change hands later).
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    note: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(UTCDateTime())

    seat: Mapped[Seat] = relationship()
    user: Mapped[User] = relationship()


# The deadline of a moment that has none (a narrator closes it): far beyond any clock,
# so every phase has an ``ends_at`` and the queries on deadlines (due phases,
# reminders) need no case of their own (``pbm.operations.timing``).
NO_DEADLINE = datetime(9999, 1, 1, tzinfo=timezone.utc)


class PhaseRow(Base):
    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    long: Mapped[bool] = mapped_column(Boolean, default=False)
    # The day a calendar phase is named by ("notte 2, lunedì 30 novembre"): the day its
    # deadline fell on when it opened, kept when the Masters close it early or move the
    # deadline, so its name never changes once read (None: a phase of before; its end).
    named_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default=PhaseStatus.OPEN, index=True)  # PhaseStatus
    state_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    state_after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    pending: Mapped[list[Any]] = mapped_column(default=list)
    gm_input: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Seats already reminded of this phase's deadline.
    reminded: Mapped[list[Any]] = mapped_column(default=list)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    published_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    game: Mapped[Game] = relationship(back_populates="phases")

    @property
    def has_deadline(self) -> bool:
        """Whether the phase ends at a time (not NO_DEADLINE: a narrator's moment)."""
        return self.ends_at < NO_DEADLINE


def running_phases(*columns: Any) -> Select[Any]:
    """``select(*columns)`` over the open phases whose deadline runs (their game running,
    not paused): the one query behind every question of what is due or soon due (the
    boundaries, an answer window settled at once, the reminders, the quota's forecast);
    each adds its own window of ``ends_at``."""
    return (select(*columns).select_from(PhaseRow).join(Game, Game.id == PhaseRow.game_id)
            .where(PhaseRow.status == PhaseStatus.OPEN, Game.status == GameStatus.RUNNING,
                   Game.paused_at.is_(None)))


class ActionRow(Base):
    """One submission (append-only): the last per seat and kind in a phase wins."""

    __tablename__ = "actions"
    # A seat's latest submission of each kind in a phase (the reserved page's) is
    # found in the index, however many the phase holds; phase_id leads, so the
    # phase's own lookups use it too.
    __table_args__ = (Index("ix_actions_phase_seat_kind", "phase_id", "seat_id", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))
    kind: Mapped[str] = mapped_column(String(16))
    args: Mapped[dict[str, Any]] = mapped_column(default=dict)
    submitted_at: Mapped[datetime] = mapped_column(UTCDateTime())
    source: Mapped[str] = mapped_column(String(16))  # web | mail | master
    source_detail: Mapped[str] = mapped_column(String(200), default="")  # sms, phone, forward...
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound.id"), nullable=True)

    seat: Mapped[Seat] = relationship()
    by_user: Mapped[User | None] = relationship()


class EventRow(Base):
    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id"), nullable=True, index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    visibility: Mapped[str] = mapped_column(String(10))
    recipients: Mapped[list[Any]] = mapped_column(default=list)
    # Draft events are visible to Masters only, until the phase is published.
    published: Mapped[bool] = mapped_column(Boolean, default=False)


class OutboxPart(Base):
    """The end of an HTML alternative that many messages share: a boundary's
    bulletin, vote table and footer, the same for every player reading in one
    language and zone. Stored once, not once a player: a 40-player day's table of
    bars alone would be forty copies of some 8 KB written in the boundary's commit."""

    __tablename__ = "outbox_parts"

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    html: Mapped[str] = mapped_column(Text)


class OutboxRow(Base):
    """Transactional outbox: written with the change it reports, sent afterwards."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_pruned_at_created_at", "pruned_at", "created_at"),
                      # The sender's query: what waits, the first class first, oldest first.
                      Index("ix_outbox_status_priority_id", "status", "priority", "id"),
                      # A day's receipts per address and game, and the mail anyone asked
                      # for (receipt_budget.py, accounts): a kind's rows of the last day.
                      Index("ix_outbox_kind_created_at", "kind", "created_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    # The phase a reply to this message is aimed at (a reply after it closed is refused).
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id"), nullable=True)
    kind: Mapped[str] = mapped_column(String(40))
    to_addr: Mapped[str] = mapped_column(String(254))
    # A From with the game's name in accented letters, encoded (RFC 2047), and
    # a Re: of a stranger's subject have no length a column could promise.
    from_addr: Mapped[str] = mapped_column(Text)
    reply_to: Mapped[str | None] = mapped_column(String(254), nullable=True)
    subject: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    # The HTML alternative of ``body`` (the same facts, with the vote picture as a
    # table), sent as multipart/alternative; None: plain text only.
    body_html: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The shared end of ``body_html`` (see OutboxPart), or None: it is all here.
    html_part_id: Mapped[int | None] = mapped_column(ForeignKey("outbox_parts.id"), nullable=True, index=True)
    html_part: Mapped[OutboxPart | None] = relationship(lazy="selectin")
    headers: Mapped[dict[str, Any]] = mapped_column(default=dict)
    message_id: Mapped[str] = mapped_column(String(300), unique=True)
    # pending | sent | failed; held: a bulletin waiting for its reader's daily
    # digest, then digested (pbm/mail/outbound/digests.py).
    status: Mapped[str] = mapped_column(String(10), default="pending", index=True)
    # Which mail goes first while the relay makes mail wait (pbm/mail/outbound/classes.py).
    priority: Mapped[int] = mapped_column(SmallInteger, default=3, server_default="3")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # Indexed: the relay's quota counts what was sent in the last minute and day.
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    # When ``body`` and ``body_html`` of a mail sent (or refused) were emptied,
    # RAW_MAIL_DAYS after it was queued (pbm/retention.py); the rest stays.
    pruned_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # The mail carries a link that logs its reader in or lets them choose a password
    # (a sign-up's confirmation, a set-password or reset link): it is the addressee's
    # alone, and no Master's page shows it, not even in their own game's mail.
    login_link: Mapped[bool] = mapped_column(Boolean, default=False)

    @property
    def html(self) -> str | None:
        """The whole HTML alternative as sent: the message's own beginning and the
        shared end, if it has one."""
        if self.body_html is None:
            return None
        return self.body_html + (self.html_part.html if self.html_part is not None else "")


class InboundRow(Base):
    """Every message read from the Master's mailbox, raw, stored before anything else."""

    __tablename__ = "inbound"
    __table_args__ = (Index("ix_inbound_pruned_at_received_at", "pruned_at", "received_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    source_key: Mapped[str] = mapped_column(String(400), unique=True)
    message_id: Mapped[str | None] = mapped_column(String(400), index=True, nullable=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    # The whole message's size in the mailbox. A message over INBOUND_MAX_BYTES
    # is never downloaded: its row holds the headers only (raw shorter than
    # size), and the message itself stays in the mailbox. None: len(raw).
    size: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # When the mailbox received it (IMAP INTERNALDATE, the Maildir file's time).
    received_at: Mapped[datetime] = mapped_column(UTCDateTime())
    from_addr: Mapped[str] = mapped_column(String(254), default="")
    # stored|processed|ignored|refused|duplicate|error
    status: Mapped[str] = mapped_column(String(16), default="stored")
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    result: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # When ``raw`` was emptied, RAW_MAIL_DAYS after it arrived (pbm/retention.py);
    # what was read from it (the row, its result, the actions) stays.
    pruned_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class MasterLog(Base):
    __tablename__ = "master_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    action: Mapped[str] = mapped_column(String(60))
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)

    user: Mapped[User | None] = relationship()


class RelayState(Base):
    """The SMTP relay's own back-off, shared by every worker: a relay answering
    "slow down" (421, 450-452, 454) pauses all mail, not one message (pbm/mail/outbound/relay_limits.py)."""

    __tablename__ = "relay_state"

    relay: Mapped[str] = mapped_column(String(300), primary_key=True)
    paused_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # Throttling answers in a row: each doubles the pause; a message accepted ends the run.
    strikes: Mapped[int] = mapped_column(Integer, default=0)
    last_answer: Mapped[str] = mapped_column(Text, default="")


class WorkerHeartbeat(Base):
    """Each running worker's last sign of life, read by GET /healthz: a row in
    the shared database, so a web server on another machine sees it too."""

    __tablename__ = "worker_heartbeats"

    # host:pid, one row per worker process.
    worker: Mapped[str] = mapped_column(String(300), primary_key=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    beat_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
