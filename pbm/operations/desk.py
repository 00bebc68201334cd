"""What the Masters can do to a game beyond the normal flow: answer what a draft
waits for, close a phase early, pause, move a deadline, preview, roll back and
correct, and intervene (the ruleset's remedies and the sanctions of the service).

Every function logs who did what and when (MasterLog). Changes to the game itself
go through the ruleset (``remedies``/``apply_remedy``) or through a full
re-resolution of a phase with the same seed, so nothing is edited by hand.

An intervention is recorded as events of the phase it happened in: first a
``remedy`` event (Masters only) with the remedy, its arguments, the state it was
applied to and its own seed, then the events the ruleset's remedy produced. So
``replay_interventions`` rebuilds the phase's state from the events alone, on any
machine, and a random draw of a remedy depends on nothing but the game's seed and
how many interventions came before it.
"""
from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from engine.core import (
    Event, GameState, Phase, Rejected, Resolution, master, phase_rng, public, setup_rng,
)
from engine.interface import Viewer
from engine.registry import get_ruleset

from .. import hooks, render, visibility
from ..mail import outbound as mailer
from ..models import ActionRow, EventRow, Game, GameStatus, OutboxRow, PhaseRow, PhaseStatus, User
from .actions import engine_actions
from .base import (
    OperationError, current_phase, current_state, log, reader_tz,
)
from .boundary import resolve_into, resolve_phase
from .timing import moments

# The record of an intervention, and where its events sit in the phase: before
# anything the resolution writes (sequence numbers from 0), in the order made.
REMEDY = "remedy"
INTERVENTION_SEQ = -1_000_000


# --------------------------------------------------------------------------- drafts and deadlines

def answer_pending(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                   gm_input: dict[str, Any], now: datetime, by: User | None = None) -> None:
    """Record the Masters' answers (e.g. the Profeta's question) and resolve the draft again.

    The phase's seed is unchanged, so every other outcome stays as previewed.
    """
    if phase.status != PhaseStatus.DRAFT:
        raise OperationError("not_a_draft")
    merged = dict(phase.gm_input or {})
    for key, value in gm_input.items():
        if isinstance(value, dict):
            merged[key] = {**merged.get(key, {}), **value}
        else:
            merged[key] = value
    phase.gm_input = merged
    resolve_into(session, config, game, phase, now)
    if phase.status != PhaseStatus.PUBLISHED:
        phase.status = PhaseStatus.DRAFT
    if by is not None:
        log(session, game, by, "answer_pending", now, phase=phase.index, gm_input=gm_input)


def close_now(factory: sessionmaker[Session], config: dict[str, Any], game_id: int,
              now: datetime, by_user_id: int | None = None) -> bool:
    """End the open phase at once (a Master's decision, or a narrator's confirm) and resolve it."""
    with factory() as session, session.begin():
        game = session.get(Game, game_id)
        phase = current_phase(session, game)
        if phase is None or phase.status != PhaseStatus.OPEN:
            return False
        phase.ends_at = min(phase.ends_at, now)
        user = session.get(User, by_user_id) if by_user_id else None
        log(session, game, user, "close_phase", now, phase=phase.index)
        phase_id = phase.id
    return resolve_phase(factory, config, phase_id, now)


def pause(session: Session, config: dict[str, Any], game: Game, now: datetime, by: User) -> None:
    """Stop the clock: no deadline runs until ``resume`` (the players are told)."""
    if game.status != GameStatus.RUNNING or game.paused_at is not None:
        raise OperationError("not_running")
    game.paused_at = now
    log(session, game, by, "pause", now)
    _announce_deadline(session, config, game, now, by, hooks.PAUSED, paused=True)


def resume(session: Session, config: dict[str, Any], game: Game, now: datetime, by: User) -> None:
    """The phase in progress keeps the time it had left when the game was paused."""
    if game.paused_at is None:
        raise OperationError("not_paused")
    phase = current_phase(session, game)
    old = phase.ends_at if phase is not None else None
    if (phase is not None and phase.status == PhaseStatus.OPEN and phase.ends_at > game.paused_at
            and phase.has_deadline):
        phase.ends_at = phase.ends_at + (now - game.paused_at)
    log(session, game, by, "resume", now, paused_at=game.paused_at.isoformat())
    game.paused_at = None
    _announce_deadline(session, config, game, now, by, hooks.RESUMED, old=old)


def extend(session: Session, config: dict[str, Any], game: Game, new_end: datetime, now: datetime,
           by: User) -> None:
    """Move the open phase's deadline, earlier or later (the players are told)."""
    phase = current_phase(session, game)
    if phase is None or phase.status != PhaseStatus.OPEN:
        raise OperationError("no_open_phase")
    if new_end <= now:
        raise OperationError("deadline_in_past")
    old = phase.ends_at
    log(session, game, by, "extend", now, phase=phase.index, old=old.isoformat(), new=new_end.isoformat())
    phase.ends_at = new_end
    _announce_deadline(session, config, game, now, by, hooks.EXTENDED, old=old)


def _announce_deadline(session: Session, config: dict[str, Any], game: Game, now: datetime, by: User,
                       why: str, *, old: datetime | None = None, paused: bool = False) -> None:
    """Tell the open phase's deadline as it now stands (``paused``: that none runs)."""
    phase = current_phase(session, game)
    if phase is None or phase.status != PhaseStatus.OPEN or not phase.has_deadline:
        return  # nothing to tell: no moment runs, or a narrator's, which has no deadline
    hooks.announce(hooks.deadline_changed, moments(game), hooks.DeadlineChanged(
        session, config, game, now, phase=phase, old=old, new=None if paused else phase.ends_at,
        why=why, by=by))


# --------------------------------------------------------------------------- preview

def preview(session: Session, game: Game) -> Resolution | None:
    """What the open phase would resolve to with the actions so far (same seed)."""
    phase = current_phase(session, game)
    if phase is None or phase.status not in (PhaseStatus.OPEN, PhaseStatus.DRAFT):
        return None
    state = GameState.from_dict(phase.state_before)
    actions = engine_actions(session, phase)
    rng = phase_rng(game.seed, Phase(phase.kind, phase.number))
    return get_ruleset(game.ruleset).resolve(state, actions, rng, phase.gm_input or {})


# --------------------------------------------------------------------------- corrections

def rollback(session: Session, game: Game, now: datetime, by: User) -> PhaseRow:
    """Undo the last published phase: back to a draft the Masters can correct.

    A correction, not a new fact of the game: the phase opened by that
    publication is removed (its submissions are copied into the Masters' log
    first), the resolution's events are withdrawn, and the game's state goes
    back to the state before the phase. The Masters' interventions in the rolled
    back phase stay: they happened, and the corrected resolution starts from them.
    """
    phases = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id)
                             .order_by(PhaseRow.index.desc())).all()
    last = next((p for p in phases if p.status == PhaseStatus.PUBLISHED), None)
    if last is None:
        raise OperationError("nothing_to_roll_back")
    following = [p for p in phases if p.index > last.index]
    for p in following:
        dropped = session.scalars(select(ActionRow).where(ActionRow.phase_id == p.id)).all()
        log(session, game, by, "rollback_dropped_phase", now, phase=p.index,
            submissions=[{"player": a.seat.name, "kind": a.kind, "args": a.args,
                          "source": a.source} for a in dropped])
        session.execute(delete(ActionRow).where(ActionRow.phase_id == p.id))
        session.execute(delete(EventRow).where(EventRow.phase_id == p.id))
        # Mail already sent for that phase stays in the outbox, detached from it.
        session.execute(update(OutboxRow).where(OutboxRow.phase_id == p.id).values(phase_id=None))
        session.delete(p)
    session.execute(update(EventRow).where(EventRow.phase_id == last.id, EventRow.seq >= 0)
                    .values(published=False))
    last.status = PhaseStatus.DRAFT
    last.published_at = None
    game.state = last.state_before
    if game.status == GameStatus.OVER:
        game.status = GameStatus.RUNNING
        hooks.announce(hooks.game_reopened, game, hooks.GameReopened(session, {}, game, now))
    last.gm_input = {**(last.gm_input or {}), "correction": True}
    log(session, game, by, "rollback", now, phase=last.index)
    session.flush()
    return last


def reresolve(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
              now: datetime, by: User) -> None:
    """Resolve a draft again after the Masters corrected its submissions."""
    if phase.status != PhaseStatus.DRAFT:
        raise OperationError("not_a_draft")
    answer_pending(session, config, game, phase, {}, now, by=by)


# --------------------------------------------------------------------------- interventions

def is_remedy_record() -> ColumnElement[bool]:
    """The condition on EventRow that picks the records of interventions."""
    return and_(EventRow.kind == REMEDY, EventRow.seq < 0)


def remedy_rng(game_seed: str, seed: str) -> random.Random:
    """The generator of one intervention: the game's seed and the remedy's own."""
    return setup_rng(f"{game_seed}|{seed}")


def _apply(game: Game, state: GameState, remedy: str, args: dict[str, Any],
           seed: str) -> tuple[GameState, list[Event]]:
    try:
        return get_ruleset(game.ruleset).apply_remedy(state, remedy, args, remedy_rng(game.seed, seed))
    except Rejected as exc:
        if exc.code == "unknown_remedy":
            raise OperationError("unknown_action", action=remedy) from exc
        raise OperationError(exc.code, **exc.params) from exc


def intervene(session: Session, config: dict[str, Any], game: Game, action: str,
              names: list[str], now: datetime, by: User, reason: str = "") -> list[Event]:
    """A Master's remedy (the ruleset's: kill, resurrect, declare a draw, end the
    game...) or a sanction (disqualify a player or a faction: the ruleset's kill,
    and the seat may no longer act), applied to the open phase's state and
    announced to everyone at once."""
    phase = current_phase(session, game)
    if phase is None or phase.status != PhaseStatus.OPEN or game.status != GameStatus.RUNNING:
        raise OperationError("no_open_phase")
    state = GameState.from_dict(phase.state_before)
    for name in names:
        if action != "end" and not state.has_player(name):
            raise OperationError("unknown_player", name=name)
    remedy = "kill" if action == "disqualify" else action
    args: dict[str, Any] = {"winner": names[0] if names else "draw"} if action == "end" else {"players": names}
    if remedy not in {r.key for r in get_ruleset(game.ruleset).remedies()}:
        raise OperationError("unknown_action", action=action)
    made = session.scalar(select(func.count()).select_from(EventRow).where(
        EventRow.game_id == game.id, is_remedy_record()))
    seed = f"remedy{made + 1}"  # the n-th intervention of the game, whatever else happened
    record = master(REMEDY, remedy=remedy, args=args, seed=seed, before=state.to_dict())
    state, events = _apply(game, state, remedy, args, seed)
    if action == "disqualify":
        for name in names:
            game.seat_by_name(name).disqualified = True
        events.append(public("disqualified", players=names, reason=reason))
    _store_intervention(session, game, phase, [record, *events])
    phase.state_before = state.to_dict()
    game.state = state.to_dict()
    if state.over:
        phase.status = PhaseStatus.PUBLISHED
        phase.state_after = state.to_dict()
        phase.published_at = now
        game.status = GameStatus.OVER
    log(session, game, by, action, now, players=names, reason=reason)
    _announce(session, config, game, phase, events, now)
    if state.over:
        session.flush()
        hooks.announce(hooks.game_ended, game, hooks.GameEnded(session, config, game, now))
    return events


def _store_intervention(session: Session, game: Game, phase: PhaseRow, events: list[Event]) -> None:
    """Published at once, numbered after the phase's earlier interventions and
    before its resolution (which replaces only its own events, from 0 up)."""
    last = session.scalar(select(func.max(EventRow.seq)).where(
        EventRow.phase_id == phase.id, EventRow.seq < 0))
    first = INTERVENTION_SEQ if last is None else last + 1
    for offset, e in enumerate(events):
        session.add(EventRow(game_id=game.id, phase_id=phase.id, seq=first + offset, kind=e.kind,
                             data=e.data, visibility=e.visibility, recipients=list(e.to),
                             published=True))
    session.flush()


def replay_interventions(session: Session, game: Game, phase: PhaseRow) -> GameState | None:
    """The phase's state rebuilt from its intervention events alone (None if it had
    none): each remedy applied again with its stored seed to the state it was
    applied to, checking that each starts where the previous one ended."""
    rows = session.scalars(select(EventRow).where(EventRow.phase_id == phase.id, is_remedy_record())
                           .order_by(EventRow.seq)).all()
    state: GameState | None = None
    for row in rows:
        before = GameState.from_dict(row.data["before"])
        if state is not None and before.to_dict() != state.to_dict():
            raise ValueError(f"intervention {row.data['seed']} does not follow the previous one")
        state, _events = _apply(game, before, row.data["remedy"], row.data["args"], row.data["seed"])
    return state


def disqualify_faction(session: Session, config: dict[str, Any], game: Game, faction: str,
                       now: datetime, by: User, reason: str = "") -> list[Event]:
    state = current_state(game)
    members = [p.name for p in state.players if p.faction == faction]
    if not members:
        raise OperationError("unknown_faction", faction=faction)
    return intervene(session, config, game, "disqualify", members, now, by, reason=reason)


def _announce(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
              events: list[Event], now: datetime) -> None:
    for seat in game.seats:
        if not seat.mailable:
            continue
        lang, tz = seat.user.lang, reader_tz(game, seat.user)
        lines = visibility.lines(events, Viewer(player=seat.name), game.ruleset, lang)
        mailer.queue(session, config, to=seat.user.email, template="announcement", lang=lang, now=now,
                     game=game, seat=seat, phase_id=phase.id if phase.status == PhaseStatus.OPEN else None,
                     context={"lines": [x for x in lines if x],
                              "phase_label": render.phase_label(phase, lang, tz),
                              "deadline": render.deadline_text(phase.ends_at, lang, tz)})
