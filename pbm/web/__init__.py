"""The web layer: the blueprints (public pages and the archive, the player's reserved
area and an answer window's page, the Masters' pages and seats, the narrator's
phone, sign-ups, log-in and accounts, /healthz, and the demo's mailbox), and what every
view shares here: the request's session, clock and configuration, and the game, seat
and phase a URL names. A refusal reaches the reader through ``refusals`` (``attempt``,
the one catalogue of ``pbm.errors``)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import abort, current_app, g, request
from flask_login import current_user
from sqlalchemy import Select, and_, bindparam, exists, func, select
from sqlalchemy.orm import Session, aliased, defer

from ..db import read_sessions, write_sessions
from ..models import Absence, Game, Listing, PhaseRow, Seat


def db() -> Session:
    """The request's session (closed at teardown). A GET only reads (``read_sessions``:
    it refuses to write; on PostgreSQL it reads in autocommit): it takes no lock, so
    pages are served while the worker writes. Any other request's
    takes the write lock as it begins (``pbm.db.writing``), waiting for a boundary
    being resolved instead of failing when the worker commits under it."""
    if "db" not in g:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            g.db = read_sessions(current_app.extensions)()
        else:
            g.db = write_sessions(current_app.extensions)()
    return g.db


def now() -> datetime:
    return current_app.extensions["pbm_clock"].now()


def config() -> dict[str, Any]:
    return current_app.config


def game_or_404(slug: str) -> Game:
    game = db().scalar(select(Game).where(Game.slug == slug))
    if game is None or not may_read(game):
        abort(404)
    return game


def may_read(game: Game) -> bool:
    """Whether the visitor may read a game's pages: a private game only its players and
    Masters (to anyone else it is not there at all), any other game everyone."""
    if game.listing != Listing.PRIVATE:
        return True
    if not current_user.is_authenticated:
        return False
    return game.is_master(current_user) or my_seat(game) is not None


def my_seat(game: Game) -> Seat | None:
    """The logged-in user's seat in ``game``: one row asked for, not the game's
    every seat (a page of a 40-player game would load them all to pick one)."""
    if not current_user.is_authenticated:
        return None
    if "seats" in game.__dict__:  # already loaded by this request: no second query
        return next((s for s in game.seats if s.user_id == current_user.id), None)
    found = g.get("my_seats", {})
    if game.id in found:  # asked already by this request (the reserved page, then its parts)
        return found[game.id]
    return db().scalar(select(Seat).where(Seat.game_id == game.id, Seat.user_id == current_user.id))


def remember_my_seat(game: Game, seat: Seat | None) -> None:
    """What ``my_seat`` answers for this game for the rest of the request: the page's
    parts (the absences form) ask again what the view has just read."""
    g.setdefault("my_seats", {})[game.id] = seat


def never_absent(game: Game) -> bool:
    """Whether this request found the reader's seat in ``game`` without a single absence
    declared, past or to come (read with the seat: ``game_and_my_seat_or_404``): then
    the page asks for none (most seats never declare one)."""
    return game.id in g.get("never_absent", ())


# Built once (bound per request): building a statement costs more Python than running it.
# With the seat, whether it has ever declared an absence (the reserved page shows them).
_GAME_AND_SEAT = (select(Game, Seat, exists().where(Absence.game_id == Game.id, Absence.seat_id == Seat.id))
                  .outerjoin(Seat, and_(Seat.game_id == Game.id, Seat.user_id == bindparam("user_id")))
                  .where(Game.slug == bindparam("slug")))


# The same, the game's states left in the database until something reads them: the
# reserved page, whose parts are kept per version (reserved_parts), reads them only
# when the game has changed.
_GAME_AND_SEAT_UNREAD_STATES = _GAME_AND_SEAT.options(defer(Game.state), defer(Game.composition),
                                                      defer(Game.prepared))


def game_and_my_seat_or_404(slug: str, *, states: bool = True) -> tuple[Game, Seat | None]:
    """``game_or_404`` and ``my_seat`` in one query: the player's pages ask both on
    every request. ``states=False``: the game's state, composition and prepared draw
    are read on first use."""
    if not current_user.is_authenticated:
        return game_or_404(slug), None
    row = db().execute(_GAME_AND_SEAT if states else _GAME_AND_SEAT_UNREAD_STATES,
                       {"slug": slug, "user_id": current_user.id}).first()
    if row is None:
        abort(404)
    remember_my_seat(row[0], row[1])
    if row[1] is not None and not row[2]:
        g.setdefault("never_absent", set()).add(row[0].id)
    if row[1] is None and not may_read(row[0]):
        abort(404)
    return row[0], row[1]


def _game_seat_and_held_phase() -> Select:
    """The statement of ``game_my_seat_and_phase_or_404``, built once: building it
    costs more Python than running it."""
    later = aliased(PhaseRow)
    current = (select(func.max(later.index)).where(later.game_id == Game.id)
               .correlate(Game).scalar_subquery())
    return (select(Game, Seat, PhaseRow, PhaseRow.state_before)
            .outerjoin(Seat, and_(Seat.game_id == Game.id, Seat.user_id == bindparam("user_id")))
            .join(PhaseRow, and_(PhaseRow.game_id == Game.id, PhaseRow.index == current))
            .where(Game.slug == bindparam("slug")).with_for_update(of=PhaseRow)
            # What a submission never reads (the game's published state is the size
            # of the phase's own, parsed for nothing) is left in the database, and
            # read on first use if some path does need it. The phase's state comes
            # as a value of its own, not the row's: a state can be made of it uncopied.
            .options(*(defer(c) for c in (Game.state, Game.composition, Game.prepared, PhaseRow.state_before,
                                          PhaseRow.state_after, PhaseRow.pending, PhaseRow.gm_input,
                                          PhaseRow.reminded)))
            .execution_options(populate_existing=True))


_GAME_SEAT_AND_HELD_PHASE = _game_seat_and_held_phase()


def game_my_seat_and_phase_or_404(slug: str) -> tuple[Game, Seat | None, PhaseRow | None,
                                                     dict[str, Any] | None]:
    """``game_and_my_seat_or_404`` and the game's current phase, in one query, for
    a player's submission: the phase row is locked until the transaction ends
    (FOR UPDATE OF phases; SQLite ignores it) and read afresh, as
    ``operations.opening`` would read it (``held``), with its ``state_before``
    as a value of the caller's own (``held_state``). The phase and its state are
    None before the game has one. Only for a logged-in user."""
    row = db().execute(_GAME_SEAT_AND_HELD_PHASE, {"slug": slug, "user_id": current_user.id}).first()
    if row is None:  # no such game, or a game with no phase yet
        return (*game_and_my_seat_or_404(slug), None, None)
    return row[0], row[1], row[2], row[3]


def require_master(game: Game) -> None:
    if not current_user.is_authenticated or not game.is_master(current_user):
        abort(403)
