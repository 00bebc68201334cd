"""What a player's reserved page shows that changes only when the game does: computed
once per version of the game, not per request (issue 33: the page is most of the
deadline rush's requests, and a player reloads it after every vote).

The version is what those parts are made of, read in one query without parsing any
of it: the game's state and the open phase's state as stored (a digest of their
text), the phase's status and deadline, the game's status and pause, the game's
events (how many, the newest, how many published: a publication, a Master's
intervention or a result made again changes them) and the seat (its name, whether it is still in). A new version is
computed afresh; nothing is ever invalidated by hand, so nothing can be forgotten.

What a player changes within a phase (their choices, their absences, the rooms'
unread counts) is never in these parts: the page reads it with every request.

``etag`` is the page's validator (a visit with nothing new answers 304): the version,
the reader and everything the page shows beside these parts.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable

from flask import Flask, current_app
from sqlalchemy import Integer, Text, bindparam, cast, exists, func, select, true
from sqlalchemy.orm import Session, defer

from engine.core import GameState
from engine.interface import ActionForm
from engine.registry import get_ruleset

from .. import operations, render, role_cards, visibility
from ..models import ActionRow, EventRow, Game, PhaseRow, Seat
from ..views.deadline_note import deadline_note
from ..visibility import PRIVATE, Viewer
from .kept import Kept, of_app


@dataclass(frozen=True)
class Parts:
    """The reserved page's parts at one version of the game, for one seat and language."""

    window_page: bool  # the game's moment has a page of its own (an answer window)
    me: bool  # the seat is a player of the game's state
    facts: list[Any]
    status: str
    my_titles: list[str]
    table: list[Any]
    cards: list[Any]
    known: list[dict[str, Any]]
    results: list[dict[str, Any]]
    phase_label: str | None
    deadline: str | None
    deadline_note: str | None  # the Masters moved the deadline, or paused the game
    # The open phase's state and the forms it offers this seat (page_groups), with
    # their titles: built into forms with the seat's own choices at each request.
    open_state: GameState | None
    groups: list[tuple[list[ActionForm], str]]
    version: str  # a digest of the key: the page's validator is made of it
    forms_key: str  # what these forms are written from but the seat's choices (``forms_key``)


# About 6 KB a seat (the phase's state is shared, below): fifty 40-player games in one
# language, some 12 MB a web process at most.
def _parts(app: Flask = current_app) -> Kept[Parts]:
    return of_app(app, "reserved_parts", 2048)  # per app: the keys hold a database's ids

# Built once (bound per request): every reserved page asks it. The open (latest) phase
# and the version of the game in one statement: the game's state and the phase's as
# stored (text, parsed only when the parts are made), and the game's events: how many,
# the newest, how many published (a draft's are, with it).
_DEFERRED = (PhaseRow.state_before, PhaseRow.state_after, PhaseRow.pending, PhaseRow.gm_input, PhaseRow.reminded)
_EVENTS = (select(func.count(EventRow.id).label("n"), func.max(EventRow.id).label("newest"),
                  func.sum(cast(EventRow.published, Integer)).label("published"))
           .where(EventRow.game_id == bindparam("game_id")).subquery())
_GAME_STATE = select(cast(Game.state, Text)).where(Game.id == bindparam("game_id")).scalar_subquery()
# And whether the seat has chosen anything in that phase: a first visit, the rush's
# most common, then asks for no choices (player.reserved_context).
_CHOSE = exists().where(ActionRow.phase_id == PhaseRow.id, ActionRow.seat_id == bindparam("seat_id"))
_PHASE_AND_VERSION = (select(PhaseRow, _EVENTS.c.n, _EVENTS.c.newest, _EVENTS.c.published, _GAME_STATE,
                             cast(PhaseRow.state_before, Text), _CHOSE)
                      .join_from(PhaseRow, _EVENTS, true())
                      .where(PhaseRow.game_id == bindparam("game_id"))
                      .order_by(PhaseRow.index.desc()).limit(1)
                      .options(*(defer(c) for c in _DEFERRED)))
# A game without a phase yet (set up, not started): its version alone.
_VERSION = select(_EVENTS.c.n, _EVENTS.c.newest, _EVENTS.c.published, _GAME_STATE)


# The forms a state offers a seat, grouped as the page shows them, each with its title
# (the forms' own module says how: pbm/web/player.py).
GroupsOf = Callable[[Game, GameState, str], list[tuple[list[ActionForm], str]]]


@dataclass(frozen=True)
class Read:
    """What ``parts`` read: the game's latest phase (without its states), the parts at
    the game's version now, the game's state as stored (the rooms' menu reads who is
    where from it), and whether the seat has chosen anything in that phase."""

    phase: PhaseRow | None
    parts: Parts
    state_text: str | None
    chose: bool


def parts(session: Session, game: Game, seat: Seat, lang: str, tz: str, groups_of: GroupsOf) -> Read:
    """The parts at the game's version now (kept, or made and kept), with what was read
    beside them in the same statement."""
    row = session.execute(_PHASE_AND_VERSION, {"game_id": game.id, "seat_id": seat.id}).first()
    if row is not None:
        phase, count, newest, published, state_text, phase_text, chose = row
    else:
        phase, phase_text, chose = None, None, False
        count, newest, published, state_text = session.execute(_VERSION, {"game_id": game.id}).one()
    game_key = (game.id, game.ruleset, game.status, game.paused_at, text_digest(state_text), count, newest, published,
                lang, tz, *((phase.id, phase.status, phase.ends_at, phase.named_on, text_digest(phase_text))
                            if phase else ()))
    key = (*game_key, seat.id, seat.name, seat.disqualified)

    def made() -> Parts:
        shared = _game_parts(session, game, phase, lang, tz, state_text, phase_text, game_key)
        return _made(session, game, seat, shared, lang, groups_of, key)
    return Read(phase, _parts().get_or_make(key, made), state_text, bool(chose))


def text_digest(text: str | None) -> bytes:
    return hashlib.blake2b((text or "").encode(), digest_size=16).digest()


@dataclass(frozen=True)
class _GameParts:
    """What every seat's parts share at one version of the game (and language): made
    once, not once per player (the deadline rush is each player's first visit)."""

    state: GameState | None
    window_page: bool
    phase_label: str | None
    deadline: str | None
    deadline_note: str | None
    open_state: GameState | None
    open_state_digest: bytes  # of the open phase's state as stored (``forms_key``)


def _games(app: Flask = current_app) -> Kept[_GameParts]:
    return of_app(app, "reserved_game_parts", 256)


def _game_parts(session: Session, game: Game, phase: PhaseRow | None, lang: str, tz: str, state_text: str | None,
                phase_text: str | None, key: tuple[Any, ...]) -> _GameParts:
    def made() -> _GameParts:
        # The game's state from the text the version was read from (the game was read
        # without it): what operations.current_state parses from the column.
        data = json.loads(state_text) if state_text else None
        state = GameState.from_dict(data) if data else None
        return _GameParts(
            state=state,
            window_page=operations.timing.moments(game, state).page == operations.timing.WINDOW_PAGE,
            phase_label=render.phase_label(phase, lang, tz) if phase else None,
            deadline=render.deadline_text(phase.ends_at, lang, tz) if phase else None,
            deadline_note=deadline_note(session, game, phase, lang, tz),
            # One object for every seat's forms (it is only read).
            open_state=GameState.from_dict(json.loads(phase_text)) if phase is not None and phase_text else None,
            open_state_digest=text_digest(phase_text))
    return _games().get_or_make(key, made)


def _made(session: Session, game: Game, seat: Seat, shared: _GameParts, lang: str, groups_of: GroupsOf,
          key: tuple[Any, ...]) -> Parts:
    state = shared.state
    me = state is not None and state.player(seat.name) is not None
    viewer = Viewer(player=seat.name)
    # What was told to this player alone (the public events are the bulletin's): the
    # database hands over only the events this viewer may read, the rest never leaves it.
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game.id, EventRow.visibility == PRIVATE,
                                                  visibility.readable_by(viewer))
                           .order_by(EventRow.phase_id, EventRow.seq)).all()
    known: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for seen in visibility.seen(rows, viewer, game.ruleset, lang):
        if seen.visibility == PRIVATE:
            (known if seen.phase_id is None else results).append(
                {"phase": seen.phase_id, "text": seen.text or seen.event.kind})
    rules = get_ruleset(game.ruleset)
    open_state = shared.open_state
    groups = groups_of(game, open_state, seat.name) if open_state is not None else []
    return Parts(
        window_page=shared.window_page, me=me,
        facts=rules.self_facts(state, seat.name, lang) if me and state else [],
        status=rules.self_status(state, seat.name, lang) if me and state else "",
        my_titles=rules.titles(state, seat.name, lang) if state else [],
        # What the rules show this player of their own state at a glance (a power they hold...).
        table=rules.public_table(state, viewer, lang) if state else [],
        # How the player's role is played (engine/cards.py).
        cards=role_cards.player_cards(game, state, seat.name, lang) if me and state else [],
        known=known, results=results,
        phase_label=shared.phase_label, deadline=shared.deadline, deadline_note=shared.deadline_note,
        open_state=open_state, groups=groups, version=_digest_of(key),
        forms_key=forms_key(game, lang, shared.open_state_digest, groups))


def _digest_of(key: Any) -> str:
    """A short digest of ``key``'s repr: what a kept thing is made of, in 24 characters."""
    return hashlib.blake2b(repr(key).encode(), digest_size=12).hexdigest()


def forms_key(game: Game, lang: str, open_state: bytes, groups: list[tuple[list[ActionForm], str]]) -> str:
    """What a seat's forms and choices are written from, but the choices: the ruleset,
    the game's address, the language, the open phase's state as stored (``open_state``,
    its ``text_digest``) and the forms offered, with their titles. Seats offered the same
    forms share it (by day, most players are offered the same vote): the page and the
    answer to a vote in place keep the forms as written per this and the choices."""
    return _digest_of((game.ruleset, game.slug, lang, open_state, groups))


def etag(found: Parts, shown: tuple[Any, ...]) -> str:
    """The page's validator: the parts' version and everything the page shows beside
    them (``shown``: the reader, their forms' token, the seat's choices, whether the
    phase still takes them, the rooms' unread counts, the absences...)."""
    return hashlib.blake2b(repr((found.version, shown)).encode(), digest_size=16).hexdigest()


def forget(app: Flask) -> None:
    """Drop every part ``app`` keeps (a test that wants a page made from nothing)."""
    _parts(app).clear()
    _games(app).clear()
