"""The narrator's phone back from a night without a network: its taps replayed here.

The phone plays the game on ``engine.table_book.Book`` (the engine in Pyodide) from the
book this server gave it (``book_of``), and records every tap with the book's hash
before and after it. Back online it sends them in order; each is replayed through the
same operations a tap online goes through (``pbm/operations/table.py``), and the
stored game's book must then hash as the phone's did. A tap whose ``before`` is not
the stored game (it changed elsewhere meanwhile: the Masters' desk, a second phone)
is not applied, nor is anything after it: the narrator is told, in words, which tap
and why, and the phone keeps them (nothing is dropped in silence). A tap whose
``after`` the stored game already is (a sync cut off after the server committed)
counts as applied.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import Rejected
from engine.table_book import HELD, IDENTITIES, OPEN, OVER, SETUP, Book, book_hash

from ..models import ActionRow, EventRow, Game, GameStatus, PhaseRow, PhaseStatus, Seat, User
from . import table
from .base import OperationError, current_phase, game_options

MAX_TAPS = 500  # a whole evening of taps is a few hundred


def book_of(session: Session, game: Game) -> Book:
    """The stored game as the phone's engine holds it (the narrator is the game's
    Master: the book holds everything, the faces' roles included)."""
    seats = [s.name for s in sorted(game.seats, key=lambda s: s.position)]
    out = Book(ruleset=game.ruleset, seed_hex=Book.hex_of(game.seed), seats=seats, status=SETUP,
               options=dict(game_options(game)))
    if game.status == GameStatus.SETUP:
        return out
    last = session.scalar(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                 PhaseRow.status == PhaseStatus.PUBLISHED)
                          .order_by(PhaseRow.index.desc()).limit(1))
    if last is not None:
        out.published = [{"kind": r.kind, "data": r.data, "visibility": r.visibility,
                          "to": list(r.recipients or [])} for r in session.scalars(
            select(EventRow).where(EventRow.phase_id == last.id, EventRow.seq >= 0).order_by(EventRow.seq))]
    if game.status == GameStatus.OVER:
        out.status, out.state = OVER, game.state
        return Book.from_dict(out.to_dict())
    phase = current_phase(session, game)
    if phase is None:
        out.status = HELD
        return Book.from_dict(out.to_dict())
    out.status = (OPEN if phase.status == PhaseStatus.OPEN
                  else IDENTITIES if table.waits_for_identities(phase) else HELD)
    out.index, out.kind, out.number = phase.index, phase.kind, phase.number
    out.state_before, out.gm_input = phase.state_before, dict(phase.gm_input or {})
    out.actions = [{"player": name, "kind": kind, "args": args} for name, kind, args in session.execute(
        select(Seat.name, ActionRow.kind, ActionRow.args).join(Seat, Seat.id == ActionRow.seat_id)
        .where(ActionRow.phase_id == phase.id).order_by(ActionRow.id))]
    return Book.from_dict(out.to_dict())  # as JSON reads it back, the phone's way


def hash_of(session: Session, game: Game) -> str:
    return book_hash(book_of(session, game))


@dataclass
class Synced:
    """What a sync did: ``applied`` taps (of those sent, from the first), the stored
    game's hash now, and, when it stopped early, the tap it stopped at and why."""

    applied: int
    hash: str
    stopped_at: int | None = None
    why: str = ""  # conflict (the game changed elsewhere) | refused (the tap itself) | mismatch
    refusal: Exception | None = None  # the refusal of the tap (why: refused), to word


Replay = Callable[[dict[str, Any]], None]


def replay_tap(session: Session, config: dict[str, Any], game: Game, tap: dict[str, Any], *,
               now: datetime, by: User, close: Callable[[int], None]) -> None:
    """One tap of the phone through the operation a tap online goes through.
    ``close``: the narrator's confirm of a moment (its own unit of work, see
    ``table.close_moment``), given the phase's id."""
    op = tap.get("op")
    taps = [str(t) for t in tap.get("taps") or []]
    if op == "call":
        table.record_call(session, config, game, index=int(tap["index"]), taps=taps, now=now, by=by)
    elif op == "correct":
        table.correct_call(session, config, game, index=int(tap["index"]), taps=taps, now=now, by=by)
    elif op == "shown":
        table.answer_shown(session, game, index=int(tap["index"]), seen=str(tap.get("mark", "")),
                           now=now, by=by)
    elif op == "vote":
        table.record_vote(session, config, game, voter=str(tap.get("voter", "")),
                          choice=str(tap.get("choice", "")), now=now, by=by)
    elif op == "close":
        phase = current_phase(session, game)
        if phase is None or phase.index != int(tap["phase"]):
            raise OperationError("stale_call")
        close(phase.id)
    else:
        raise OperationError("unknown_tap", kind=str(op))


def sync(session: Session, game_id: int, taps: list[dict[str, Any]], *,
         replay: Callable[[Game, dict[str, Any]], None]) -> Synced:
    """Replay ``taps`` in order, each in its own transaction (``replay`` does the tap
    with ``replay_tap``; a refused tap rolls back and stops the sync)."""
    if len(taps) > MAX_TAPS:
        raise OperationError("too_many_taps", limit=MAX_TAPS)
    start = hash_of(session, session.get_one(Game, game_id))
    # Taps a sync cut off before its answer already applied: the stored game is the
    # state after one of them, and the sync goes on from the next.
    applied = next((n + 1 for n in range(len(taps) - 1, -1, -1) if taps[n].get("after") == start), 0)
    for n, tap in enumerate(taps[applied:], start=applied):
        game = session.get_one(Game, game_id)
        now_hash = hash_of(session, game)
        if now_hash != tap.get("before"):
            return Synced(applied, now_hash, n, "conflict")
        try:
            replay(game, tap)
            session.commit()
        except (OperationError, Rejected) as exc:
            session.rollback()
            return Synced(applied, hash_of(session, session.get_one(Game, game_id)), n, "refused", exc)
        session.expire_all()
        game = session.get_one(Game, game_id)
        after = hash_of(session, game)
        applied = n + 1
        if after != tap.get("after"):
            return Synced(applied, after, n, "mismatch")
    session.rollback()
    return Synced(applied, hash_of(session, session.get_one(Game, game_id)))
