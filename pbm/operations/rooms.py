"""The players' talk: posts in the rooms a game's rules declare (engine/rooms.py) and in
the whispers its players open, and the Masters' moderation. Who may read and write a
room is asked of the ruleset at the game's state each time, with the Masters' choices
(``Game.talk``), so membership follows the game as the rules say: a player who dies
moves as they say, a substitute takes the seat's rooms and their history (the seat
keeps its name), a player the Masters removed (disqualified) is out of every room.

Every post, whichever door it came through (the room's page, a reply to a room's
mail), ends in ``post``, which announces it (``hooks.post_made``): a listener notes it,
and the worker mails it to the readers who chose every post (pbm/telling/room_mail.py).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.orm import Session

from engine.core import Event, GameState, Rejected
from engine.interface import Say
from engine.registry import get_ruleset
from engine.rooms import Access, RoomSpec, Rooms

from .. import hooks
from ..models import Game, GameMaster, GameStatus, Seat, User, new_reply_token
from ..seating import load_seats
from ..talk_models import (
    DELIVERIES, HELD, REMOVED, RULES, SHOWN, WHISPER, PostReport, PostRow, RoomReader, RoomRow, WhisperMember,
)
from .base import OperationError, log

# The longest post: a long message in a group chat, not a document (refused beyond, with
# the text handed back, never cut).
MAX_POST = 4000
MAX_WHISPER_MEMBERS = 12


@dataclass(frozen=True)
class Place:
    """A room as one reader finds it now: what it is, how far they are in it, and why
    they may not write (a refusal code and its parameters, or None)."""

    key: str
    name: Say
    about: Say
    kind: str
    signed: bool
    access: Access
    refusal: tuple[str, dict[str, Any]] | None = None
    row: RoomRow | None = None
    whisper_names: tuple[str, ...] = ()

    def title(self, lang: str) -> str:
        return self.name.read(lang) if not self.whisper_names else ", ".join(self.whisper_names)


def rooms_of(game: Game) -> Rooms | None:
    """The game's rooms ability (None: its players talk elsewhere, e.g. at a table)."""
    return get_ruleset(game.ruleset).ability(Rooms)


def settings_of(game: Game) -> dict[str, Any]:
    return dict((game.talk or {}).get("settings") or {})


def _state(game: Game) -> GameState | None:
    return GameState.from_dict(game.state) if game.state else None


def _talking(game: Game) -> bool:
    """Rooms are open from the deal until the game is over, and after it (the talk after
    the reveal); not during the set-up, when nobody knows who is who."""
    return game.state is not None and game.status in (GameStatus.RUNNING, GameStatus.OVER)


# --------------------------------------------------------------------------- who is where

def places(session: Session, game: Game, seat: Seat | None, *, master: bool = False,
           state: GameState | None = None) -> list[Place]:
    """The rooms a reader has now, in the order pages list them: the rules' rooms where
    they read (every one, for a Master), then their whispers (every whisper, for a
    Master who reads them)."""
    rooms = rooms_of(game)
    if rooms is None or not _talking(game):
        return []
    state = state or _state(game)
    settings = settings_of(game)
    rows = {r.key: r for r in session.scalars(select(RoomRow).where(RoomRow.game_id == game.id))}
    out: list[Place] = []
    for spec in rooms.rooms_in(state):
        place = _rules_place(game, rooms, state, settings, spec, seat, master, rows.get(spec.key))
        if place.access > Access.NONE:
            out.append(place)
    out += _whisper_places(session, game, rooms, state, settings, seat, master, rows)
    return out


def place_of(session: Session, game: Game, key: str, seat: Seat | None, *, master: bool = False) -> Place | None:
    """One room as this reader finds it, or None if they have no place in it: what
    ``places`` finds of that room, asking the rules and the database of it alone (every
    post and every room's page asks this)."""
    rooms = rooms_of(game)
    if rooms is None or not _talking(game):
        return None
    state = _state(game)
    settings = settings_of(game)
    row = session.scalar(_ROOM, {"game_id": game.id, "key": key})
    spec = rooms.spec(key)
    if spec is not None:
        if spec not in rooms.rooms_in(state):
            return None
        place = _rules_place(game, rooms, state, settings, spec, seat, master, row)
        return place if place.access > Access.NONE else None
    if row is None or row.kind != WHISPER:
        return None
    return next(iter(_whisper_places(session, game, rooms, state, settings, seat, master, {row.key: row})), None)


# Built once (bound per call): every post and every room's page asks them, and building
# a statement costs more Python than SQLite takes to run it.
_ROOM = select(RoomRow).where(RoomRow.game_id == bindparam("game_id"), RoomRow.key == bindparam("key"))
_READER = select(RoomReader).where(RoomReader.room_id == bindparam("room_id"), RoomReader.user_id == bindparam("user_id"))


def _rules_place(game: Game, rooms: Rooms, state: GameState, settings: dict[str, Any], spec: RoomSpec,
                 seat: Seat | None, master: bool, row: RoomRow | None) -> Place:
    if master:
        access, refusal = Access.WRITE, None
    elif seat is None or seat.disqualified:
        access, refusal = Access.NONE, None
    else:
        access = rooms.access(state, spec.key, seat.name, settings)
        why = rooms.write_refusal(state, spec.key, seat.name, settings) if access > Access.NONE else None
        refusal = (why.code, dict(why.params)) if why is not None else None
    if row is not None and row.locked and not master and access > Access.NONE:
        access, refusal = Access.READ, ("room_locked", {})
    return Place(spec.key, spec.name, spec.about, spec.kind, spec.signed, access, refusal, row)


def _whisper_places(session: Session, game: Game, rooms: Rooms, state: GameState, settings: dict[str, Any],
                    seat: Seat | None, master: bool, rows: dict[str, RoomRow]) -> list[Place]:
    whispers = [r for r in rows.values() if r.kind == WHISPER]
    if not whispers:
        return []
    members: dict[int, list[Seat]] = {}
    for room_id, member in session.execute(
            select(WhisperMember.room_id, Seat).join(Seat, Seat.id == WhisperMember.seat_id)
            .where(WhisperMember.room_id.in_([r.id for r in whispers])).order_by(Seat.position)).all():
        members.setdefault(room_id, []).append(member)
    out = []
    for row in sorted(whispers, key=lambda r: r.id):
        seats = members.get(row.id, [])
        names = tuple(s.name for s in seats)
        if master:
            if not rooms.masters_read_whispers(settings):
                continue
            access, refusal = Access.READ, None
        elif seat is None or seat.disqualified or seat not in seats:
            continue
        else:
            why = rooms.may_whisper(state, seat.name, [n for n in names if n != seat.name], settings)
            access = Access.WRITE if why is None else Access.READ
            refusal = (why.code, dict(why.params)) if why is not None else None
            if row.locked:
                access, refusal = Access.READ, ("room_locked", {})
        out.append(Place(row.key, Say(", ".join(names)), Say(""), WHISPER, True, access, refusal, row, names))
    return out


def readers(session: Session, game: Game, room: RoomRow) -> list[tuple[User, Seat | None, Access]]:
    """Everyone who reads ``room`` now: each member's user (a seat with an address), and
    the Masters (who read every room, and the whispers as the game's settings say)."""
    rooms = rooms_of(game)
    if rooms is None or not _talking(game):
        return []
    state = _state(game)
    settings = settings_of(game)
    out: list[tuple[User, Seat | None, Access]] = []
    if room.kind == WHISPER:
        seats = list(session.scalars(select(Seat).join(WhisperMember, WhisperMember.seat_id == Seat.id)
                                     .where(WhisperMember.room_id == room.id)))
        by_name = {s.name: Access.WRITE for s in seats}
        masters_read = rooms.masters_read_whispers(settings)
    else:
        by_name = rooms.members(state, room.key, settings)
        masters_read = True
    for s in load_seats(session, game):  # each seat's user in the one query
        if s.name in by_name and s.user is not None and not s.disqualified:
            out.append((s.user, s, by_name[s.name]))
    if masters_read:
        seen = {u.id for u, _, _ in out}
        out += [(user, None, Access.WRITE) for user in session.scalars(
            select(User).join(GameMaster, GameMaster.user_id == User.id).where(GameMaster.game_id == game.id))
            if user.id not in seen]
    return out


# --------------------------------------------------------------------------- the rows

def room_row(session: Session, game: Game, key: str, now: datetime) -> RoomRow:
    """The stored row of a rules room, made the first time anyone posts or reads there."""
    row = session.scalar(select(RoomRow).where(RoomRow.game_id == game.id, RoomRow.key == key))
    if row is None:
        row = RoomRow(game_id=game.id, key=key, kind=RULES, created_at=now)
        session.add(row)
        session.flush()
    return row


def reader_of(session: Session, room: RoomRow, user: User) -> RoomReader:
    """A reader's place in a room, made the first time they read it or are mailed it."""
    found = session.scalar(_READER, {"room_id": room.id, "user_id": user.id})
    return found if found is not None else readers_in(session, room, [user])[user.id]


def readers_in(session: Session, room: RoomRow, users: list[User]) -> dict[int, RoomReader]:
    """Each user's place in ``room`` by user id, those missing made, in two statements
    whatever the count (a post is mailed to every reader at once)."""
    found = {r.user_id: r for r in session.scalars(select(RoomReader).where(
        RoomReader.room_id == room.id, RoomReader.user_id.in_([u.id for u in users])))}
    missing = [u for u in users if u.id not in found]
    if missing:
        masters = set(session.scalars(select(GameMaster.user_id).where(GameMaster.game_id == room.game_id)))
        for user in missing:
            found[user.id] = RoomReader(room_id=room.id, user_id=user.id, token=new_reply_token(),
                                        delivery=_default_delivery(room, user.id in masters),
                                        digest_hours=[8, 20], last_read_id=0, mailed_through_id=0, muted=False)
        session.add_all([found[u.id] for u in missing])
        session.flush()
    return found


def _default_delivery(room: RoomRow, master: bool) -> str:
    """Every post as it comes for a player (the game's own choice may say otherwise); the
    web only for a Master, who reads every room on the desk."""
    if master:
        return DELIVERIES[2]
    return (room.game.talk or {}).get("delivery") or DELIVERIES[0]


# --------------------------------------------------------------------------- posting

def post(session: Session, config: dict[str, Any], game: Game, key: str, body: str, *, user: User,
         seat: Seat | None, now: datetime, via: str = "web", parent_id: int | None = None,
         inbound_id: int | None = None, master: bool | None = None) -> PostRow:
    """Post ``body`` in room ``key`` as ``seat``'s player (or a Master, ``seat`` None);
    refused (``Rejected``, worded by the ruleset or the service's catalogue) when the
    reader may not write there now, the post is empty or too long, or a Master silenced
    them here. Announced (``hooks.post_made``) once stored. ``master``: whether ``user``
    is one of the game's Masters, when the caller has read it already."""
    text = _clean(body)
    if not text:
        raise Rejected("post_empty")
    if len(text) > MAX_POST:
        raise Rejected("post_too_long", length=len(text), limit=MAX_POST)
    if master is None:
        master = game.is_master(user)
    place = place_of(session, game, key, seat, master=master)
    if place is None:
        raise Rejected("room_not_member", room=key)
    if place.access < Access.WRITE:
        code, params = place.refusal or ("room_read_only", {"room": key})
        raise Rejected(code, **params)
    room = place.row or room_row(session, game, key, now)
    reader = reader_of(session, room, user)
    if not master and reader.silenced_until is not None and now < reader.silenced_until:
        raise Rejected("room_silenced", until=reader.silenced_until.isoformat())
    if parent_id is not None and session.scalar(select(PostRow.room_id).where(PostRow.id == parent_id)) != room.id:
        parent_id = None  # a thread never crosses rooms
    row = PostRow(room_id=room.id, game_id=game.id, seat_id=seat.id if seat is not None else None,
                  author_id=user.id, signature=_signature(place, seat, user), heading={}, body=text,
                  created_at=now, via=via, status=SHOWN, parent_id=parent_id, inbound_id=inbound_id)
    session.add(row)
    session.flush()
    # One's own post is read; the reader's mail moves past it when the worker mails the
    # post to the others (room_mail.py), never before: what others posted first is theirs.
    reader.last_read_id = max(reader.last_read_id, row.id)
    hooks.announce(hooks.post_made, room, hooks.PostMade(session, config, game, now, room=room, post=row,
                                                         author=user))
    return row


def _signature(place: Place, seat: Seat | None, user: User) -> str:
    if seat is None:
        return user.name or "Master"
    return seat.name if place.signed else ""


def _clean(body: str) -> str:
    """The text as written, without trailing blanks and with at most two blank lines in a
    row; nothing else is touched (the pages escape it, the mail carries it as text)."""
    lines = [line.rstrip() for line in (body or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    out: list[str] = []
    for line in lines:
        if not line and len(out) >= 2 and not out[-1] and not out[-2]:
            continue
        out.append(line)
    return "\n".join(out).strip()


def rules_posts(session: Session, config: dict[str, Any], game: Game, events: list[Event], now: datetime) -> int:
    """The posts a published moment makes by the rules (anonymous, at dawn, where the
    ruleset's rooms put them): one pipe with the players' own posts. How many were made."""
    rooms = rooms_of(game)
    if rooms is None:
        return 0
    made = 0
    for made_post in rooms.posts_from(events):
        room = room_row(session, game, made_post.room, now)
        row = PostRow(room_id=room.id, game_id=game.id, seat_id=None, author_id=None, signature="",
                      heading={"it": made_post.heading.it, "en": made_post.heading.en or made_post.heading.it},
                      body=_clean(made_post.text)[:MAX_POST], created_at=now, via="rules", status=SHOWN)
        session.add(row)
        session.flush()
        hooks.announce(hooks.post_made, room, hooks.PostMade(session, config, game, now, room=room, post=row,
                                                             author=None))
        made += 1
    return made


def open_whisper(session: Session, config: dict[str, Any], game: Game, seat: Seat, others: list[Seat],
                 now: datetime) -> RoomRow:
    """A private conversation of ``seat`` with ``others``, where the game's settings allow
    it now; the same people's existing one is reused, not doubled."""
    rooms = rooms_of(game)
    if rooms is None or not _talking(game):
        raise Rejected("whispers_off")
    others = [s for s in dict.fromkeys(others) if s is not seat]
    if len(others) + 1 > MAX_WHISPER_MEMBERS:
        raise Rejected("whisper_too_many", limit=MAX_WHISPER_MEMBERS)
    if seat.disqualified or any(s.disqualified for s in others):
        raise Rejected("whisper_out", player=next((s.name for s in [seat, *others] if s.disqualified), ""))
    why = rooms.may_whisper(_state(game), seat.name, [s.name for s in others], settings_of(game))
    if why is not None:
        raise Rejected(why.code, **dict(why.params))
    wanted = {seat.id, *(s.id for s in others)}
    for row in session.scalars(select(RoomRow).where(RoomRow.game_id == game.id, RoomRow.kind == WHISPER)):
        have = set(session.scalars(select(WhisperMember.seat_id).where(WhisperMember.room_id == row.id)))
        if have == wanted:
            return row
    # A key of chance, not the whispers' count: its members read it in every address of
    # the whisper, and "w7" would tell them six others were opened before (and when).
    row = RoomRow(game_id=game.id, key=f"w{secrets.token_hex(5)}", kind=WHISPER, created_at=now,
                  opened_by=seat.id)
    session.add(row)
    session.flush()
    session.add_all([WhisperMember(room_id=row.id, seat_id=s) for s in sorted(wanted)])
    session.flush()
    return row


# --------------------------------------------------------------------------- reading

def visible_posts(session: Session, room: RoomRow, user: User, *, master: bool, after: int = 0,
                  limit: int = 50) -> list[PostRow]:
    """The newest ``limit`` posts of the room after post ``after``, oldest first, as this
    reader sees them: a post held for review only to the Masters and its author; a removed
    one stays in its place (the page says the Master removed it)."""
    query = select(PostRow).where(PostRow.room_id == room.id, PostRow.id > after)
    if not master:
        query = query.where((PostRow.status != HELD) | (PostRow.author_id == user.id))
    rows = list(session.scalars(query.order_by(PostRow.id.desc()).limit(limit)))
    return list(reversed(rows))


def unread(session: Session, rooms: list[tuple[RoomRow, RoomReader | None]], user: User, *,
           master: bool) -> dict[int, int]:
    """Posts not read yet, per room, in one query (a muted room counts none). Counted by
    the database from where each reader stopped (the posts' index), never by reading
    the room: the counts of a room of 5,000 read posts cost what a room of 50 does."""
    wanted = {room.id: (reader.last_read_id if reader else 0) for room, reader in rooms
              if reader is None or not reader.muted}
    if not wanted:
        return {}
    after = or_(*(and_(PostRow.room_id == room_id, PostRow.id > last) for room_id, last in wanted.items()))
    query = select(PostRow.room_id, func.count()).where(after, PostRow.status != REMOVED)
    if not master:
        query = query.where((PostRow.status != HELD) | (PostRow.author_id == user.id))
    query = query.where(PostRow.author_id.is_(None) | (PostRow.author_id != user.id))
    return {room_id: count for room_id, count in session.execute(query.group_by(PostRow.room_id)) if count}


def mark_read(reader: RoomReader, through: int) -> None:
    reader.last_read_id = max(reader.last_read_id, through)


def choose_delivery(reader: RoomReader, delivery: str, hours: list[int] | None = None,
                    muted: bool | None = None) -> None:
    """A reader's choice for a room: every post by mail, a digest at these hours, the web
    only; and whether the room is muted (no mail, no unread count)."""
    if delivery not in DELIVERIES:
        raise OperationError("bad_delivery")
    reader.delivery = delivery
    if hours is not None:
        clean = sorted({int(h) for h in hours if 0 <= int(h) <= 23})
        if not clean:
            raise OperationError("digest_hours")
        reader.digest_hours = clean
    if muted is not None:
        reader.muted = muted


# --------------------------------------------------------------------------- the Masters

def moderate(session: Session, game: Game, post_row: PostRow, action: str, by: User, now: datetime) -> None:
    """A Master holds a post for review (hidden from the players but its author), releases
    it, or removes it (the page keeps its place: "rimosso dal Master")."""
    if not game.is_master(by) or post_row.game_id != game.id:
        raise OperationError("not_master")
    status = {"hold": HELD, "release": SHOWN, "remove": REMOVED}.get(action)
    if status is None:
        raise OperationError("bad_moderation")
    post_row.status = status
    post_row.moderated_by, post_row.moderated_at = by.id, now
    log(session, game, by, f"post_{action}", now, post=post_row.id, room=post_row.room.key)


def silence(session: Session, game: Game, room: RoomRow, seat: Seat, until: datetime | None, by: User,
            now: datetime) -> None:
    """A Master mutes a player as a writer in one room until ``until`` (None: lifts it)."""
    if seat.user is None:
        raise OperationError("no_account")
    reader_of(session, room, seat.user).silenced_until = until
    log(session, game, by, "room_silence", now, room=room.key, player=seat.name,
        until=until.isoformat() if until else None)


def lock(session: Session, game: Game, room: RoomRow, locked: bool, by: User, now: datetime) -> None:
    """A locked room is read, and written by the Masters alone."""
    room.locked = locked
    log(session, game, by, "room_lock" if locked else "room_unlock", now, room=room.key)


def report(session: Session, game: Game, post_row: PostRow, user: User, note: str, now: datetime) -> PostReport:
    """A reader reports a post to the Masters (once each)."""
    found = session.scalar(select(PostReport).where(PostReport.post_id == post_row.id,
                                                    PostReport.user_id == user.id))
    if found is not None:
        return found
    row = PostReport(post_id=post_row.id, user_id=user.id, at=now, note=(note or "")[:500], seen=False)
    session.add(row)
    session.flush()
    return row


def choose_talk(session: Session, game: Game, settings: dict[str, bool], archive: str | None, by: User,
                now: datetime) -> None:
    """The Masters' choices about the talk: the ruleset's room settings, and what the
    archive keeps of the rooms once the game is over (all, the piazza only, none)."""
    rooms = rooms_of(game)
    declared = {s.key for s in rooms.settings()} if rooms is not None else set()
    talk = dict(game.talk or {})
    talk["settings"] = {k: bool(v) for k, v in settings.items() if k in declared}
    if archive is not None:
        if archive not in ("all", "plenary", "none"):
            raise OperationError("bad_archive")
        talk["archive"] = archive
    game.talk = talk
    log(session, game, by, "talk_settings", now, **talk)
