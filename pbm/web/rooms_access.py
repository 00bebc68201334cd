"""Who reads which room, cheaply: for the polling endpoint, asked every ten seconds by
every open room page, and for the unread counts on every page of a game.

``operations.rooms.places`` is the authority: it asks the ruleset at the game's state,
each time. What it answers about *reading* depends on nothing but the game's state, its
status, the Masters' choices (``Game.talk``), the reader's seat (its name, whether it
was disqualified) and, for a whisper, its members: so the rules' part (who reads each
room at that state) is computed once per state and kept, under a digest of the state as
stored (``standing``). A new state, a new choice of the Masters, a game that ends: a new
digest, asked of the rules again. Nothing is kept about a reader: the seat is read with
every request, so a reader removed, replaced by a substitute or disqualified has lost
the room at their next request. tests/web/test_rooms_poll.py holds this against
``places`` at every moment of games played through.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any, Mapping

from sqlalchemy import Boolean, Text, and_, bindparam, cast, exists, func, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from engine.core import GameState
from engine.registry import get_ruleset
from engine.rooms import Access, Rooms

from ..models import Game, GameMaster, GameStatus, Seat, User
from ..talk_models import HELD, REMOVED, RULES, WHISPER, PostRow, RoomReader, RoomRow, WhisperMember
from .kept import Kept


@dataclass(frozen=True)
class Standing:
    """Who reads each of the rules' rooms of a game at one state (the Masters' settings
    applied), in the order pages list them; and whether the Masters read whispers."""

    members: Mapping[str, Mapping[str, Access]]
    masters_read_whispers: bool

    def reads(self, key: str, seat_name: str | None, *, master: bool) -> bool:
        if key not in self.members:
            return False
        return master or (seat_name is not None and self.members[key].get(seat_name, Access.NONE) > Access.NONE)


_standings: Kept[Standing | None] = Kept(512)


def standing(ruleset: str, status: str, state_text: str | None, talk: Mapping[str, Any] | None) -> Standing | None:
    """The rules' rooms at this state (None: the game has no rooms now: a ruleset without
    them, a game in its set-up). Computed once per (ruleset, status, state, choices)."""
    if state_text is None or status not in (GameStatus.RUNNING, GameStatus.OVER):
        return None
    settings = dict((talk or {}).get("settings") or {})
    key = (ruleset, status, hashlib.blake2b(state_text.encode(), digest_size=20).digest(),
           json.dumps(settings, sort_keys=True))
    return _standings.get_or_make(key, lambda: _computed(ruleset, state_text, settings))


def _computed(ruleset: str, state_text: str, settings: dict[str, Any]) -> Standing | None:
    rooms = get_ruleset(ruleset).ability(Rooms)
    if rooms is None:
        return None
    state = GameState.from_dict(json.loads(state_text))
    members = {spec.key: rooms.members(state, spec.key, settings) for spec in rooms.rooms_in(state)}
    return Standing(members, rooms.masters_read_whispers(settings))


# --------------------------------------------------------------------------- one reader

@dataclass(frozen=True)
class Asker:
    """A logged-in user in one game, as one query reads them."""

    game_id: int
    ruleset: str
    status: str
    standing: Standing | None
    user_id: int
    seat_id: int | None
    seat_name: str | None
    master: bool

    @property
    def in_game(self) -> bool:
        return self.master or self.seat_id is not None

    def reads_rules_room(self, key: str) -> bool:
        return self.standing is not None and self.standing.reads(key, self.seat_name, master=self.master)

    def reads_whisper(self, member: bool) -> bool:
        if self.standing is None:
            return False
        return member if not self.master else self.standing.masters_read_whispers


def _asker_columns() -> list[Any]:
    is_master = exists().where(GameMaster.game_id == Game.id, GameMaster.user_id == bindparam("user_id"))
    return [Game.id, Game.ruleset, Game.status, cast(Game.state, Text), Game.talk,
            Seat.id, Seat.name, Seat.disqualified, is_master]


def _asker(row: Any, user_id: int) -> Asker:
    game_id, ruleset, status, state_text, talk, seat_id, seat_name, disqualified, master = row[:9]
    if disqualified:  # a removed player is out of every room (operations.rooms._rules_place)
        seat_id, seat_name = None, None
    return Asker(game_id, ruleset, status, standing(ruleset, status, state_text, talk), user_id,
                 seat_id, seat_name, bool(master))


_SEAT = and_(Seat.game_id == Game.id, Seat.user_id == bindparam("user_id"))
_ASKER = select(*_asker_columns()).outerjoin(Seat, _SEAT).where(Game.slug == bindparam("slug"))


def seated_asker(game: Game, seat: Seat, state_text: str | None) -> Asker:
    """The player of ``seat`` in ``game``, from what a page has read already (the game,
    the seat and the game's state as stored): what ``asker`` reads, without its query.
    A player is never a Master of their own game (operations refuse both ways)."""
    row = (game.id, game.ruleset, game.status, state_text, game.talk, seat.id, seat.name, seat.disqualified, False)
    return _asker(row, seat.user_id)


def asker(session: Session | Connection, slug: str, user_id: int) -> Asker | None:
    """The user in the game ``slug`` (None: no such game)."""
    row = session.execute(_ASKER, {"slug": slug, "user_id": user_id}).first()
    return _asker(row, user_id) if row is not None else None


# The polling endpoint's one query: the user in the game, the room, whether they are in
# it as a whisper's member, and the newest post there: for a player, the newest they may
# see (not one held for review, unless theirs); for a Master, the newest.
_LATEST = (select(PostRow.id).where(PostRow.room_id == RoomRow.id,
                                    (PostRow.status != HELD) | (PostRow.author_id == bindparam("user_id")))
           .order_by(PostRow.id.desc()).limit(1).correlate(RoomRow).scalar_subquery())
_LATEST_OF_ALL = select(func.max(PostRow.id)).where(PostRow.room_id == RoomRow.id).correlate(RoomRow).scalar_subquery()
_WHISPER_MEMBER = exists().where(WhisperMember.room_id == RoomRow.id, WhisperMember.seat_id == Seat.id)
_SESSION_TOKEN = select(User.session_token).where(User.id == bindparam("user_id")).scalar_subquery()
_POLL = (select(*_asker_columns(), RoomRow.id, RoomRow.kind, _WHISPER_MEMBER, _LATEST, _LATEST_OF_ALL,
                _SESSION_TOKEN)
         .outerjoin(Seat, _SEAT)
         .outerjoin(RoomRow, and_(RoomRow.game_id == Game.id, RoomRow.key == bindparam("key")))
         .where(Game.slug == bindparam("slug")))


@dataclass(frozen=True)
class Poll:
    asker: Asker
    room_id: int | None
    reads: bool
    latest: int  # the newest post the asker may see (0: none yet)
    signed_in: bool = True


def poll(session: Session | Connection, slug: str, key: str, user_id: int,
         session_token: str | None = None) -> Poll | None:
    """What the polling endpoint needs, in one query (None: no such game). With
    ``session_token`` (the one of the login, as the session cookie carries it, instead
    of the user loaded first) the same query checks it, as ``auth.load_user`` does:
    ``signed_in`` False when it is not the user's now (logged out since, password
    changed)."""
    row = session.execute(_POLL, {"slug": slug, "key": key, "user_id": user_id}).first()
    if row is None:
        return None
    who = _asker(row, user_id)
    room_id, kind, member, latest, latest_of_all, stored_token = row[9:]
    signed_in = session_token is None or (
        stored_token is not None and hmac.compare_digest(stored_token.encode(), session_token.encode()))
    if who.master:
        latest = latest_of_all
    if room_id is not None and kind == WHISPER:
        reads = who.reads_whisper(bool(member) and who.seat_id is not None)
    else:
        reads = who.reads_rules_room(key)
    return Poll(who, room_id, reads and signed_in, latest or 0, signed_in)


# --------------------------------------------------------------------------- every room of a reader

@dataclass(frozen=True)
class Held:
    """A room a reader has now: its stored row's id (None: nobody has posted or read
    there yet), and the posts in it the reader has not read (0 in a room they muted)."""

    key: str
    kind: str
    room_id: int | None
    unread: int = 0


# The posts of a room its reader has not read, counted through the posts' index from
# where they stopped: what ``operations.rooms.unread`` counts (not removed, not held
# unless theirs or for a Master, not their own), in the same query as the rooms.
_UNREAD = (select(func.count(PostRow.id)).where(
    PostRow.room_id == RoomRow.id, PostRow.id > func.coalesce(RoomReader.last_read_id, 0),
    PostRow.status != REMOVED,
    or_(PostRow.status != HELD, PostRow.author_id == bindparam("user_id"), bindparam("master", type_=Boolean)),
    or_(PostRow.author_id.is_(None), PostRow.author_id != bindparam("user_id")))
    .correlate(RoomRow, RoomReader).scalar_subquery())
_HELD = (select(RoomRow.id, RoomRow.key, RoomRow.kind,
                exists().where(WhisperMember.room_id == RoomRow.id, WhisperMember.seat_id == bindparam("seat_id")),
                RoomReader.muted, _UNREAD)
         .outerjoin(RoomReader, and_(RoomReader.room_id == RoomRow.id, RoomReader.user_id == bindparam("user_id")))
         .where(RoomRow.game_id == bindparam("game_id")).order_by(RoomRow.id))


def rooms_held(connection: Session | Connection, who: Asker) -> list[Held]:
    """The rooms ``who`` reads now, the rules' in their order, then the whispers, with
    their unread posts: one query, built once (every page of a game asks it, for the
    menu)."""
    if who.standing is None:
        return []
    rows = connection.execute(_HELD, {"game_id": who.game_id, "user_id": who.user_id, "seat_id": who.seat_id,
                                      "master": who.master}).all()

    def held(row: Any, kind: str) -> Held:
        room_id, key, _kind, _member, muted, unread = row
        return Held(key, kind, room_id, 0 if muted else int(unread or 0))

    by_key = {row[1]: row for row in rows}
    out = [held(by_key[key], RULES) if key in by_key else Held(key, RULES, None)
           for key in who.standing.members if who.reads_rules_room(key)]
    out += [held(row, WHISPER) for row in rows if row[2] == WHISPER and who.reads_whisper(bool(row[3]))]
    return out


def forget() -> None:
    """Drop every kept reckoning (a test that changes the rules in place)."""
    _standings.clear()
