"""Phase boundaries: every deadline ends in ``resolve_phase``, which is its own
unit of work (the worker's ``resolve_due`` resolves many phases at once a few to a
transaction, each phase still all or nothing); a resolved phase is published (or
waits for the Masters as a draft)."""
from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, joinedload, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from engine.core import Event, GameState, Phase, phase_rng
from engine.registry import get_ruleset

from .. import hooks, render
from ..db import make_way
from ..mail import outbound as mailer
from ..models import EventRow, Game, GameMaster, GameStatus, PhaseRow, PhaseStatus, User, running_phases
from ..seating import load_seats
from .actions import engine_actions
from .base import (
    OperationError, current_phase, game_options, log, mail_context, store_events,
    reader_tz,
)
from .games import open_phase
from .timing import moments


def due_phase_ids(session: Session, now: datetime) -> list[int]:
    """Open phases whose deadline has passed, oldest first (paused games wait)."""
    return list(session.scalars(running_phases(PhaseRow.id).where(PhaseRow.ends_at <= now)
                                .order_by(PhaseRow.ends_at, PhaseRow.id)))


def latest_due_deadline(session: Session, now: datetime) -> datetime | None:
    """The latest deadline among the phases ``due_phase_ids`` lists, None if none is due:
    the mail that reached the mailbox before it is what a boundary must read first."""
    return session.scalar(running_phases(func.max(PhaseRow.ends_at)).where(PhaseRow.ends_at <= now))


def resolve_due(factory: sessionmaker[Session], config: dict[str, Any], now: datetime,
                max_rounds: int = 100) -> list[int]:
    """Resolve every due phase; the phases a resolution opens may be due too
    (after downtime), so keep going until none is."""
    done: list[int] = []
    for _ in range(max_rounds):
        with factory() as session:
            ids = due_phase_ids(session, now)
        resolved = resolve_phases(factory, config, ids, now)
        done += resolved
        if not resolved:
            break
    return done


# A commit waits for the disk (milliseconds; far more on a busy one), so when many
# games turn over at once, one transaction resolves several of them: at most this
# many phases, and it takes no more after this many seconds (it holds their rows,
# and on SQLite the database's one writer's lock, until it commits).
BATCH_PHASES = 20
BATCH_SECONDS = 0.25


def resolve_phases(factory: sessionmaker[Session], config: dict[str, Any], phase_ids: list[int],
                   now: datetime) -> list[int]:
    """Resolve these phases, in order; returns those this call resolved (another
    worker may have taken some). Each is resolved in a savepoint of its own, several
    to a transaction: a phase commits with all its events and mail or not at all, as
    with ``resolve_phase``. A resolution that fails is undone alone, the phases
    before it are committed, and its error is raised, the phases after it left due."""
    done: list[int] = []
    queue = list(phase_ids)
    while queue:
        batch: list[int] = []
        failure: Exception | None = None
        began = time.monotonic()
        with factory() as session:
            with session.begin():
                while queue and len(batch) < BATCH_PHASES and time.monotonic() - began < BATCH_SECONDS:
                    phase_id = queue.pop(0)
                    try:
                        with session.begin_nested():
                            claimed = _resolve_claimed(session, config, phase_id, now)
                    except Exception as exc:  # raised below, once the others are committed
                        failure = _first_cause(exc)
                        break
                    session.expunge_all()  # written; the next game is read afresh
                    if claimed:
                        batch.append(phase_id)
        done += batch
        if failure is not None:
            raise failure
        if queue:
            make_way(factory)
    return done


def _first_cause(exc: Exception) -> Exception:
    """The error that undid a resolution. When the database has already rolled the
    whole transaction back (SQLite does on a full disk), undoing the savepoint fails
    too, and that second error ("no such savepoint") would hide the first."""
    while (isinstance(exc, OperationalError) and "savepoint" in str(exc).lower()
           and isinstance(exc.__context__, Exception)):
        exc = exc.__context__
    return exc


def resolve_phase(factory: sessionmaker[Session], config: dict[str, Any], phase_id: int,
                  now: datetime) -> bool:
    """Close a phase and resolve it, in one transaction; False if someone else did.

    The first statements claim the phase (open -> resolving, ``_claim``), so two
    workers racing on one boundary never both resolve it: the loser sees it claimed,
    or (PostgreSQL) held by the other, and goes on to the next.
    The resolution, its events and its mail commit together or not at all.
    """
    with factory() as session:
        with session.begin():
            return _resolve_claimed(session, config, phase_id, now)


def _resolve_claimed(session: Session, config: dict[str, Any], phase_id: int, now: datetime) -> bool:
    phase = _claim(session, phase_id)
    if phase is None:
        return False
    game = _load_game(session, phase.game_id)
    with session.no_autoflush:  # one flush at the end, not one per queued mail
        resolve_into(session, config, game, phase, now)
    return True


# The namespace of the PostgreSQL advisory locks a resolver takes, one per phase
# (the second key); the only others are the posts' mail's and the sender's under a
# relay's limits (keys no phase has: pbm/telling/room_mail.py, -1, and
# pbm/mail/outbound/relay_limits.py, -2).
RESOLVER_LOCKS = 0x4C55  # "LU"


def _claim(session: Session, phase_id: int) -> PhaseRow | None:
    """Claim an open phase for this transaction: open -> resolving; the phase, read
    by the same statement, or None if it was not open.

    Workers sharing a PostgreSQL database all walk the same list of due phases;
    each first tries a lock of its own on the phase, held until its commit, and
    passes over a phase another resolver holds instead of queueing behind it, so
    two workers split a boundary of many games between them. A submission being
    recorded holds the phase's row, not that lock: the claim waits for it, and the
    resolution reads it. (SQLite lets one writer through at a time: no such lock.)"""
    if session.get_bind().dialect.name == "postgresql" and not session.scalar(
            select(func.pg_try_advisory_xact_lock(RESOLVER_LOCKS, phase_id))):
        return None
    return session.scalars(_CLAIM, {"phase_id": phase_id}).one_or_none()


# A boundary's statements, built once: the worker runs them for every game at every
# boundary, and building one (and its cache key) costs about as much as running it.
_CLAIM = (update(PhaseRow).where(PhaseRow.id == bindparam("phase_id"), PhaseRow.status == PhaseStatus.OPEN)
          .values(status=PhaseStatus.RESOLVING).returning(PhaseRow))
_MASTERS = (select(GameMaster).where(GameMaster.game_id == bindparam("game_id"))
            .options(joinedload(GameMaster.user)).order_by(GameMaster.id))
# A new resolution replaces the previous one's events, never the Masters' interventions.
_DROP_RESOLUTION = EventRow.__table__.delete().where(EventRow.phase_id == bindparam("phase_id"),
                                                     EventRow.seq >= 0)


def _load_game(session: Session, game_id: int) -> Game:
    """The game with its seats, Masters and their users: a boundary mails every one
    of them, and lazy loading would cost a query each. Each collection is one plain
    query handed to the game as loaded (a ``selectinload`` of the same rows costs a
    third more, and a boundary is where the time goes)."""
    game = session.get_one(Game, game_id)
    load_seats(session, game)
    set_committed_value(game, "masters", list(session.scalars(_MASTERS, {"game_id": game_id})))
    return game


def resolve_into(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                  now: datetime) -> None:
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(phase.state_before)
    actions = engine_actions(session, phase)
    rng = phase_rng(game.seed, Phase(phase.kind, phase.number))
    result = ruleset.resolve(state, actions, rng, phase.gm_input or {})
    session.execute(_DROP_RESOLUTION, {"phase_id": phase.id})
    store_events(session, game, phase, result.events, published=False)
    phase.state_after = result.state.to_dict()
    phase.pending = [{"kind": p.kind, "data": p.data, "blocking": p.blocking} for p in result.pending]
    phase.resolved_at = now
    if phase.resolved_at - phase.ends_at > LATE_AFTER and phase.status == PhaseStatus.RESOLVING:
        _tell_masters_late(session, config, game, phase, now)
    if game.auto_publish and not needs_masters(game, phase, result):
        publish(session, config, game, phase, now, state=result.state, events=result.events)
    else:
        phase.status = PhaseStatus.DRAFT
        for m in game.masters:
            mailer.queue(session, config, to=m.user.email, template="draft_ready", lang=m.user.lang,
                         now=now, game=game, context=mail_context(game, phase, m.user.lang, {
                             "pending": render.pending_lines(game.ruleset, phase.pending, m.user.lang)},
                             reader=m.user))


def close_and_resolve(session: Session, config: dict[str, Any], game: Game, now: datetime) -> PhaseRow:
    """End the game's open phase now and resolve it in the caller's transaction (it
    never commits), as its boundary would: published at once unless something holds
    it for the Masters. The demo's seeding plays its first night and day with it."""
    phase = current_phase(session, game)
    if phase is None or phase.status != PhaseStatus.OPEN:
        raise OperationError("no_open_phase")
    phase.ends_at = min(phase.ends_at, now)
    phase.status = PhaseStatus.RESOLVING  # claimed, as ``_claim`` claims a due phase
    session.flush()
    resolve_into(session, config, game, phase, now)
    return phase


def needs_masters(game: Game, phase: PhaseRow, result: Any) -> bool:
    """A draft waits for the Masters when the ruleset holds it (a question only
    they can answer, a stall, a contradiction they asked to review) or when it
    is a correction after a rollback."""
    if (phase.gm_input or {}).get("correction"):
        return True
    return get_ruleset(game.ruleset).holds(result, game_options(game))


LATE_AFTER = timedelta(minutes=5)


def _tell_masters_late(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                       now: datetime) -> None:
    """The worker was down past this boundary: resolved late, in order; say so."""
    log(session, game, None, "late_boundary", now, phase=phase.index,
        due=phase.ends_at.isoformat(), resolved=now.isoformat())
    for m in game.masters:
        mailer.queue(session, config, to=m.user.email, template="late_boundary", lang=m.user.lang,
                     now=now, game=game, context=mail_context(game, phase, m.user.lang, {
                         "resolved": render.deadline_text(now, m.user.lang, reader_tz(game, m.user))},
                         reader=m.user))


def publish(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
            now: datetime, by: User | None = None, state: GameState | None = None,
            events: list[Event] | None = None) -> PhaseRow | None:
    """Make a resolved phase public, mail everyone, open the next phase.

    ``state`` and ``events``: the state ``phase.state_after`` holds and the
    resolution's events as stored, when the caller has them at hand (a boundary
    just resolved the phase), so they are not read back from the database."""
    if phase.status not in (PhaseStatus.DRAFT, PhaseStatus.RESOLVING):
        raise OperationError("not_a_draft")
    if any(p.get("blocking") for p in phase.pending or []):
        raise OperationError("pending_items")
    if state is None:
        state = GameState.from_dict(phase.state_after)
    session.execute(update(EventRow).where(EventRow.phase_id == phase.id).values(published=True))
    phase.status = PhaseStatus.PUBLISHED
    phase.published_at = now
    game.state = phase.state_after
    next_phase = None
    if state.over:
        game.status = GameStatus.OVER
    else:
        next_phase = open_phase(session, game, state, index=phase.index + 1,
                                 after=phase.ends_at, now=now, config=config, saved=phase.state_after)
    session.flush()
    hooks.announce(hooks.phase_published, moments(game, state), hooks.PhasePublished(
        session, config, game, now, phase=phase, state=state, next_phase=next_phase, events=events))
    if state.over:
        hooks.announce(hooks.game_ended, game, hooks.GameEnded(session, config, game, now))
    if by is not None:
        log(session, game, by, "publish", now, phase=phase.index)
    return next_phase


def settle(factory: sessionmaker[Session], config: dict[str, Any], game_id: int,
           now: datetime, max_rounds: int = 50) -> list[int]:
    """Resolve this game's due answer windows now (those closed early by a last answer,
    and any that the resolution opens already complete), oldest first. Only WINDOW
    moments: a calendar phase waits for the worker, which reads the mailbox first."""
    done: list[int] = []
    for _ in range(max_rounds):
        with factory() as session:
            game = session.get(Game, game_id)
            if game is None or not moments(game).closes_early:
                break
            phase_id = session.scalar(running_phases(PhaseRow.id).where(
                PhaseRow.game_id == game_id, PhaseRow.ends_at <= now).order_by(PhaseRow.index).limit(1))
        if phase_id is None or not resolve_phase(factory, config, phase_id, now):
            break
        done.append(phase_id)
    return done
