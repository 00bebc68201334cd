"""What the Masters can do to a running game, beyond the normal flow.

Every function logs who did what and when (MasterLog). Changes to the game
itself go through the engine (its remedy functions) or through a full
re-resolution of a phase with the same seed, so nothing is edited by hand.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from engine.core import Event, GameState, Phase, Resolution, phase_rng, public
from engine.interface import Viewer
from engine.registry import get_ruleset, ruleset_module

from . import mailer, operations, render, visibility
from .models import ActionRow, EventRow, Game, OutboxRow, PhaseRow, User
from .operations import OperationError, log


# --------------------------------------------------------------------------- calendar

def pause(session: Session, game: Game, now: datetime, by: User) -> None:
    if game.status != "running" or game.paused_at is not None:
        raise OperationError("not_running")
    game.paused_at = now
    log(session, game, by, "pause", now)


def resume(session: Session, game: Game, now: datetime, by: User) -> None:
    """The phase in progress keeps the time it had left when the game was paused."""
    if game.paused_at is None:
        raise OperationError("not_paused")
    phase = operations.current_phase(session, game)
    if phase is not None and phase.status == "open" and phase.ends_at > game.paused_at:
        phase.ends_at = phase.ends_at + (now - game.paused_at)
    log(session, game, by, "resume", now, paused_at=game.paused_at.isoformat())
    game.paused_at = None


def extend(session: Session, game: Game, new_end: datetime, now: datetime, by: User) -> None:
    phase = operations.current_phase(session, game)
    if phase is None or phase.status != "open":
        raise OperationError("no_open_phase")
    if new_end <= now:
        raise OperationError("deadline_in_past")
    log(session, game, by, "extend", now, phase=phase.index, old=phase.ends_at.isoformat(),
        new=new_end.isoformat())
    phase.ends_at = new_end


# --------------------------------------------------------------------------- preview

def preview(session: Session, game: Game) -> Resolution | None:
    """What the open phase would resolve to with the actions so far (same seed)."""
    phase = operations.current_phase(session, game)
    if phase is None or phase.status not in ("open", "draft"):
        return None
    state = GameState.from_dict(phase.state_before)
    actions = operations.engine_actions(session, phase)
    rng = phase_rng(game.seed, Phase(phase.kind, phase.number))
    return get_ruleset(game.ruleset).resolve(state, actions, rng, phase.gm_input or {})


# --------------------------------------------------------------------------- corrections

def rollback(session: Session, game: Game, now: datetime, by: User) -> PhaseRow:
    """Undo the last published phase: back to a draft the Masters can correct.

    The phase opened by that publication is removed (its submissions are kept
    in the log), the published events are withdrawn, the game's state goes
    back to the state before the phase.
    """
    phases = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id)
                             .order_by(PhaseRow.index.desc())).all()
    last = next((p for p in phases if p.status == "published"), None)
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
    session.execute(update(EventRow).where(EventRow.phase_id == last.id).values(published=False))
    last.status = "draft"
    last.published_at = None
    game.state = last.state_before
    if game.status == "over":
        game.status = "running"
    last.gm_input = {**(last.gm_input or {}), "correction": True}
    log(session, game, by, "rollback", now, phase=last.index)
    session.flush()
    return last


def reresolve(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
              now: datetime, by: User) -> None:
    """Resolve a draft again after the Masters corrected its submissions."""
    if phase.status != "draft":
        raise OperationError("not_a_draft")
    operations.answer_pending(session, config, game, phase, {}, now, by=by)


# --------------------------------------------------------------------------- interventions

def _remedy(ruleset_key: str, name: str) -> Callable[..., tuple[GameState, list[Event]]] | None:
    """The ruleset's own remedy (gm_kill, gm_resurrect, gm_declare_draw), which
    knows its consequences (corruption, succession, end of game), if it has one."""
    return getattr(ruleset_module(ruleset_key), name, None)


def _generic_kill(state: GameState, names: list[str], _rng: Any) -> tuple[GameState, list[Event]]:
    state = state.copy()
    events: list[Event] = []
    for name in names:
        p = state.player(name)
        if p.alive:
            p.alive = False
            events.append(public("death", player=name, cause="masters"))
    return state, events


def _generic_resurrect(state: GameState, names: list[str], _rng: Any) -> tuple[GameState, list[Event]]:
    state = state.copy()
    events: list[Event] = []
    for name in names:
        p = state.player(name)
        if not p.alive:
            p.alive = True
            events.append(public("revive", player=name, cause="masters"))
    return state, events


def _generic_draw(state: GameState) -> tuple[GameState, list[Event]]:
    state = state.copy()
    state.winner = "draw"
    return state, [public("game_over", winner="draw", roles={p.name: p.role for p in state.players})]


def intervene(session: Session, config: dict[str, Any], game: Game, action: str,
              names: list[str], now: datetime, by: User, reason: str = "") -> list[Event]:
    """A Master's remedy (§2.1: kill, resurrect, declare a draw) or a sanction
    (§4.4: disqualify a player or a faction), applied to the open phase's state
    and announced to everyone at once."""
    phase = operations.current_phase(session, game)
    if phase is None or phase.status != "open" or game.status != "running":
        raise OperationError("no_open_phase")
    state = GameState.from_dict(phase.state_before)
    rng = phase_rng(game.seed, Phase(phase.kind, phase.number), attempt=len(phase.reminded or []) + 7)
    for name in names:
        if not state.has_player(name):
            raise OperationError("unknown_player", name=name)
    if action in ("kill", "disqualify"):
        fn = _remedy(game.ruleset, "gm_kill") or _generic_kill
        state, events = fn(state, [n for n in names if state.player(n).alive], rng)
        if action == "disqualify":
            for name in names:
                game.seat_by_name(name).disqualified = True
            events.append(public("disqualified", players=names, reason=reason))
    elif action == "resurrect":
        fn = _remedy(game.ruleset, "gm_resurrect") or _generic_resurrect
        state, events = fn(state, names, rng)
    elif action == "draw":
        fn = _remedy(game.ruleset, "gm_declare_draw") or _generic_draw
        state, events = fn(state)
    elif action == "end":
        state = state.copy()
        state.winner = names[0] if names else "draw"
        events = [public("game_over", winner=state.winner, roles={p.name: p.role for p in state.players})]
    else:
        raise OperationError("unknown_action", action=action)
    phase.state_before = state.to_dict()
    game.state = state.to_dict()
    operations._store_events(session, game, phase, events, published=True)
    if state.over:
        phase.status = "published"
        phase.state_after = state.to_dict()
        phase.published_at = now
        game.status = "over"
    log(session, game, by, action, now, players=names, reason=reason)
    _announce(session, config, game, phase, events, now)
    return events


def disqualify_faction(session: Session, config: dict[str, Any], game: Game, faction: str,
                       now: datetime, by: User, reason: str = "") -> list[Event]:
    state = operations.current_state(game)
    members = [p.name for p in state.players if p.faction == faction]
    if not members:
        raise OperationError("unknown_faction", faction=faction)
    return intervene(session, config, game, "disqualify", members, now, by, reason=reason)


def _announce(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
              events: list[Event], now: datetime) -> None:
    tz = operations.game_tz(game)
    for seat in game.seats:
        lang = seat.user.lang
        lines = visibility.lines(events, Viewer(player=seat.name), game.ruleset, lang)
        mailer.queue(session, config, to=seat.user.email, template="announcement", lang=lang, now=now,
                     game=game, seat=seat, phase_id=phase.id if phase.status == "open" else None,
                     context={"lines": lines,
                              "phase_label": render.phase_label(phase, lang, tz),
                              "deadline": render.deadline_text(phase.ends_at, lang, tz)})


