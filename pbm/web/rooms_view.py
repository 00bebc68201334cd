"""What a room's page shows (pbm/web/rooms.py serves it): the newest posts, as this
reader may see them, each named by its token (post_tokens), and the one line of who
reads and writes there.

A post held for review reaches only the Masters and its author; a removed one keeps its
place, saying the Master removed it (its text only on the Masters' page); an anonymous
one carries no name (the Masters see whose it was). The text is the author's, escaped
by the template: HTML and scripts are shown as written, never run.

A page reads a fixed number of posts through the room's index, the newest or those
before a given one: a room of 5,000 posts costs what a room of 50 does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from engine.rooms import Access

from ..models import Game, Seat, User
from ..operations import current_state
from ..operations import rooms as talk
from ..talk_models import HELD, REMOVED, WHISPER, PostRow, RoomReader, RoomRow, WhisperMember
from .post_tokens import PostTokens

# How many posts a page shows (and the polling endpoint brings at most at once).
PAGE = 50


@dataclass(frozen=True)
class PostView:
    token: str
    author: str  # the signature, what stands for one (a post of the rules), or ""
    anonymous: bool
    by_rules: bool
    mine: bool
    text: str  # "" when removed (the template says so), but on a Master's page
    status: str
    at_iso: str
    at: str  # the time on the game's clock, short
    whose: str = ""  # an anonymous post's author, for the Masters only


def when_short(when: datetime, tz: ZoneInfo, today: datetime) -> str:
    """"10:32" today, "23/11 10:32" before: what a chat shows, the same in both languages."""
    local = (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).astimezone(tz)
    return f"{local:%H:%M}" if local.date() == today.date() else f"{local:%d/%m %H:%M}"


def post_views(posts: list[PostRow], tokens: PostTokens, reader_id: int | None, *, master: bool, lang: str,
               tz: str, now: datetime, seat_names: dict[int, str] | None = None) -> list[PostView]:
    """The posts as ``reader_id``'s page shows them (None: nobody's, the archive's)."""
    zone = ZoneInfo(tz)
    today = now.astimezone(zone)
    out = []
    for p in posts:
        by_rules = p.author_id is None and p.seat_id is None
        heading = (p.heading or {}).get(lang) or (p.heading or {}).get("it") or ""
        author = p.signature or (heading if by_rules else "")
        removed = p.status == REMOVED
        out.append(PostView(
            token=tokens.of(p.id), author=author, anonymous=not p.signature and not by_rules,
            by_rules=by_rules, mine=reader_id is not None and p.author_id == reader_id, status=p.status,
            text=p.body if master or not removed else "",
            at_iso=(p.created_at if p.created_at.tzinfo else p.created_at.replace(tzinfo=timezone.utc)).isoformat(),
            at=when_short(p.created_at, zone, today),
            whose=(seat_names or {}).get(p.seat_id or 0, "") if master and not p.signature else ""))
    return out


def newest(session: Session, room: RoomRow | None, user: User, *, master: bool,
           before: int | None = None) -> tuple[list[PostRow], bool]:
    """The newest ``PAGE`` posts this reader sees (before post ``before``, if given),
    oldest first, and whether there are older ones."""
    if room is None:
        return [], False
    query = select(PostRow).where(PostRow.room_id == room.id)
    if before is not None:
        query = query.where(PostRow.id < before)
    if not master:
        query = query.where((PostRow.status != HELD) | (PostRow.author_id == user.id))
    rows = list(session.scalars(query.order_by(PostRow.id.desc()).limit(PAGE + 1)))
    return list(reversed(rows[:PAGE])), len(rows) > PAGE


def anonymous_authors(session: Session, game: Game, posts: list[PostRow]) -> dict[int, str]:
    """For the Masters: whose seat wrote each anonymous post shown."""
    wanted = {p.seat_id for p in posts if p.seat_id is not None and not p.signature}
    if not wanted:
        return {}
    return dict(session.execute(select(Seat.id, Seat.name).where(Seat.id.in_(wanted))).all())


def who_line(game: Game, place: talk.Place) -> str:
    """Who reads and who writes in the room now, in one line."""
    rooms = talk.rooms_of(game)
    settings = talk.settings_of(game)
    if place.kind == WHISPER:
        masters = (_("the Masters read it too") if rooms is not None and rooms.masters_read_whispers(settings)
                   else _("the Masters do not read it"))
        return _("A private conversation of %(names)s; %(masters)s.", names=", ".join(place.whisper_names),
                 masters=masters)
    state = current_state(game)
    members = rooms.members(state, place.key, settings) if rooms is not None and state is not None else {}
    writers = [n for n, a in members.items() if a == Access.WRITE]
    readers = [n for n, a in members.items() if a == Access.READ]
    parts = []
    if writers and len(writers) == len(state.players):
        parts.append(_("Every player reads and writes here"))
    elif writers:
        parts.append(_("Read and write: %(names)s", names=", ".join(writers)))
    if readers:
        parts.append(_("only read: %(names)s", names=", ".join(readers)))
    if not parts:
        parts.append(_("Nobody writes here now"))
    return _("%(who)s; the Masters read and write in every room.", who="; ".join(parts))


@dataclass
class Entry:
    """A room in a reader's list: its title, where it is, how many posts wait."""

    key: str
    title: str
    kind: str
    unread: int = 0
    writes: bool = True
    row_id: int | None = None


@dataclass
class Menu:
    """The reader's rooms in a game, with the unread counts (the menu, the reserved page)."""

    slug: str
    entries: list[Entry] = field(default_factory=list)

    @property
    def unread(self) -> int:
        return sum(e.unread for e in self.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)


_WHISPER_NAMES = (select(WhisperMember.room_id, Seat.name).join(Seat, Seat.id == WhisperMember.seat_id)
                  .where(WhisperMember.room_id.in_(bindparam("rooms", expanding=True))).order_by(Seat.position))


def whisper_names(session: Session | Connection, room_ids: list[int]) -> dict[int, list[str]]:
    """The members' names of each whisper, in the game's order (a whisper's title)."""
    out: dict[int, list[str]] = {}
    if not room_ids:
        return out
    for room_id, name in session.execute(_WHISPER_NAMES, {"rooms": room_ids}):
        out.setdefault(room_id, []).append(name)
    return out


def entries_of(session: Session, game: Game, places: list[talk.Place], user: User, *, master: bool,
               lang: str) -> list[Entry]:
    """The reader's rooms (``operations.rooms.places``) with their unread counts, in one query."""
    readers = {}
    rows = [p.row for p in places if p.row is not None]
    if rows:
        readers = {r.room_id: r for r in session.scalars(select(RoomReader).where(
            RoomReader.room_id.in_([r.id for r in rows]), RoomReader.user_id == user.id))}
    counts = talk.unread(session, [(r, readers.get(r.id)) for r in rows], user, master=master)
    return [Entry(p.key, p.title(lang), p.kind, counts.get(p.row.id, 0) if p.row else 0,
                  p.access >= Access.WRITE, p.row.id if p.row else None) for p in places]
