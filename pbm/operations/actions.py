"""Actions: every way in (web form, mail, a Master on a player's behalf) ends in ``submit``."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.orm import Session, selectinload

from engine.core import Action, GameState, Rejected, keep_last
from engine.registry import get_ruleset

from .. import limits
from .. import hooks
from ..models import ActionRow, Game, PhaseRow, PhaseStatus, Seat, User
from .timing import moments, taking_answers
from .base import SUBMISSION_SOURCES, OperationError, current_phase, log
from ..mail.reading.wording import lines_for_form
from .timing import answer_window


@dataclass
class Submitted:
    """What was recorded, for the receipt."""

    phase: PhaseRow
    actions: list[Action] = field(default_factory=list)


# Built once: a submission is one or two rows, and the ORM's unit of work (an
# object per row, then a flush) cost a web vote more than the INSERT itself.
_INSERT_ACTIONS = insert(ActionRow.__table__)


def open_phase_for(session: Session, game: Game, now: datetime, correcting: bool = False,
                   arrived_at: datetime | None = None, held: bool = False,
                   phase: PhaseRow | None = None) -> PhaseRow:
    """The phase taking actions now. A Master correcting a rolled-back phase
    may also add to it while it is a draft. A message that reached the
    mailbox during the phase still counts after the deadline, until the phase
    is resolved. ``held``: lock the phase row until the transaction ends and
    read it afresh (see ``_hold_phase``). ``phase``: the game's current phase,
    if the caller has read it in this transaction (held, if ``held``)."""
    if phase is None:
        phase = current_phase(session, game, lock=held)
    if correcting and phase is not None and phase.status == PhaseStatus.DRAFT:
        return phase
    if not taking_answers(game, phase, now, arrived_at):
        raise Rejected("phase_closed")
    return phase


@dataclass(frozen=True)
class Opening:
    """The phase taking actions now and the state it opened with, read once: a web
    submission builds its form from the state and ``submit`` validates against it."""

    phase: PhaseRow
    state: GameState


def opening(session: Session, game: Game, now: datetime, *, arrived_at: datetime | None = None,
            held: PhaseRow | None = None, held_state: dict[str, Any] | None = None,
            current: PhaseRow | None = None) -> Opening:
    """``open_phase_for`` a player's own submission, with the state parsed. The
    phase row is held from here on, as ``_hold_phase`` would hold it, so that
    ``submit`` given this opening has nothing to read or lock again. ``held``: the
    game's current phase, already read in this transaction as ``current_phase(lock=True)``
    reads it (locked and afresh), e.g. together with the game (a web vote).
    ``held_state``: ``held.state_before`` read with it as a value of its own, the
    caller's to give away (see ``GameState.from_dict``): the state is made of it
    without copying it first, as ``held.state_before`` would have to be.
    ``current``: the game's current phase as this transaction holds it unlocked (a
    mail batch, which read its id just now): locked here and its status checked,
    without reading its states again. A mail passes when it reached the mailbox."""
    if current is not None:
        phase = open_phase_for(session, game, now, arrived_at=arrived_at, phase=current)
        _hold_phase(session, phase)
    else:
        phase = open_phase_for(session, game, now, arrived_at=arrived_at, held=True, phase=held)
        if held_state is not None:
            return Opening(phase, GameState.from_dict(held_state, owned=True))
    return Opening(phase, GameState.from_dict(phase.state_before))


def lock_game(session: Session, game: Game) -> None:
    """Hold the game's row until this transaction ends, then see the game as it
    is now: two Masters clicking Publish (or Roll back) at once act one after
    the other, and the second finds the first's work done instead of redoing it.
    (SQLite ignores FOR UPDATE but lets one writer through at a time.)"""
    session.execute(select(Game.id).where(Game.id == game.id).with_for_update())
    session.expire_all()


def _hold_phase(session: Session, phase: PhaseRow) -> None:
    """Lock the phase row until this submission commits, then check it is
    still taking actions.  A resolver claims the same row first thing, so the
    two serialise: either the resolver waits and reads this submission, or
    this waits for the resolution and is refused as late, never recorded and
    then left out.  (PostgreSQL needs the lock; SQLite, which lets one writer
    through at a time, ignores FOR UPDATE and fails the later writer instead.)"""
    status = session.execute(select(PhaseRow.status).where(PhaseRow.id == phase.id)
                             .with_for_update()).scalar_one()
    if status != phase.status:  # resolved (or published) while we were looking at it
        raise Rejected("phase_closed")


def submit(session: Session, config: dict[str, Any], game: Game, seat: Seat,
           submission: dict[str, Any], *, source: str, now: datetime,
           by_user: User | None = None, source_detail: str = "",
           inbound_id: int | None = None, expected_phase_id: int | None = None,
           arrived_at: datetime | None = None,
           notify_player: bool = True, final: bool = False,
           opened: Opening | None = None) -> Submitted:
    """Record a player's submission (vocabulary of SCENARIOS.md), all or nothing.

    The engine validates against the state at the start of the phase; a
    forbidden choice raises Rejected with the engine's code. A submission
    aimed at a phase that has since closed is refused, never carried over.
    ``final``: the choice cannot be changed once recorded (a vote tapped on the
    narrator's phone, "una volta registrato il voto non sarà possibile cambiarlo"):
    a second submission of the same kind by the same seat in this phase is refused
    with ``OperationError("already_recorded")``, checked under the phase's lock so
    two taps racing cannot both get in.
    ``opened``: what ``opening`` returned for this submission in this transaction (a
    web form already looked the phase up to build itself, a mail to word its receipt),
    and holds it, so it is neither read nor locked twice; a mail's ``opening`` is
    given the same ``arrived_at``.
    """
    if source not in SUBMISSION_SOURCES:
        raise ValueError(source)
    if seat.disqualified:
        raise Rejected("disqualified")
    limits.check_lengths(get_ruleset(game.ruleset), submission)
    if opened is not None and source == "master":
        raise ValueError("opened: only for a player's own submission (see opening)")
    try:
        phase = opened.phase if opened is not None else open_phase_for(
            session, game, now, correcting=source == "master", arrived_at=arrived_at)
    except Rejected:
        # An answer that comes after its moment closed (an answer window closed early:
        # all had answered) is never applied to whatever is open now.
        raise too_late(session, game, session.get(PhaseRow, expected_phase_id)
                       if expected_phase_id else None, seat) from None
    if expected_phase_id is not None and expected_phase_id != phase.id:
        raise too_late(session, game, session.get(PhaseRow, expected_phase_id), seat)
    if opened is None:  # an opening holds its phase already
        _hold_phase(session, phase)
    ruleset = get_ruleset(game.ruleset)
    state = opened.state if opened is not None else GameState.from_dict(phase.state_before)
    try:  # the scenario runner's reading too (engine/interface.py)
        read = ruleset.submission_actions(state, seat.name, submission, made=lambda: keep_last(
            Action(seat.name, r.kind, dict(r.args)) for r in latest_actions_of(session, phase, seat)))
    except ValueError as exc:
        raise Rejected("bad_submission", reason=str(exc)) from exc
    if read.refused:
        raise read.refused[0]
    checked = read.accepted
    if final:
        kinds = {a.kind for a in checked}
        recorded = session.scalar(select(ActionRow.kind).where(
            ActionRow.phase_id == phase.id, ActionRow.seat_id == seat.id,
            ActionRow.kind.in_(kinds)).limit(1))
        if recorded is not None:
            raise OperationError("already_recorded", player=seat.name, kind=recorded)
    done = Submitted(phase, list(checked))
    if checked:
        session.execute(_INSERT_ACTIONS, [
            {"game_id": game.id, "phase_id": phase.id, "seat_id": seat.id, "kind": action.kind,
             "args": action.args, "submitted_at": now, "source": source, "source_detail": source_detail,
             "by_user_id": by_user.id if by_user else None, "inbound_id": inbound_id}
            for action in checked])
    moments(game, state).close_if_complete(game, phase, state, lambda: engine_actions(session, phase), now)
    if source == "master" and by_user is not None:
        log(session, game, by_user, "submit_on_behalf", now, player=seat.name,
            submission=submission, source=source_detail)
    hooks.announce(hooks.submission_recorded, moments(game, state), hooks.SubmissionRecorded(
        session, config, game, now, seat=seat, phase=phase, submission=submission, source=source,
        source_detail=source_detail, by=by_user, tell_player=notify_player))
    return done


def legal_choices(game: Game, phase: PhaseRow | None, seat: Seat, key: str) -> list[str] | None:
    """The names the engine would accept for this key now (for error replies)."""
    if phase is None or phase.status != PhaseStatus.OPEN:
        return None
    rules = get_ruleset(game.ruleset)
    kind = rules.kind_of_key(key)
    state = GameState.from_dict(phase.state_before)
    for form in rules.forms(state, seat.name):
        if form.kind != kind:
            continue
        for f in form.fields:
            if f.name == key and f.type in ("player", "players", "choice"):
                return list(f.choices)
    return [] if kind else None


def too_late(session: Session, game: Game, phase: PhaseRow | None, seat: Seat) -> Rejected:
    """The refusal of ``seat``'s answer to a moment that has closed: for one that closes
    early (an answer window) when another player's answer closed it before its time
    while ``seat`` had not answered (a challenge), who and with what
    (``moment_closed_by``), so a timely answer is not just "too late"."""
    if moments(game).closes_early and phase is not None and phase.game_id == game.id:
        latest = latest_actions(session, phase)
        closed_early = phase.ends_at < phase.starts_at + answer_window(game)
        if latest and closed_early and all(r.seat_id != seat.id for r in latest):
            last = max(latest, key=lambda r: (r.submitted_at, r.id))
            return Rejected("moment_closed_by", by=last.seat.name, args=dict(last.args))
    return Rejected(moments(game).late)


def choices_now(game: Game, phase: PhaseRow | None, seat: Seat, command: dict[str, Any] | None,
                lang: str) -> tuple[str, list[str]] | None:
    """What the player may write now, in the game's words, for a refused ``command``
    (None: for any of the moment's forms): ``("lines", [...])``, the whole mail lines
    that answer the open moment's forms (only what is legal now: an action the player
    cannot afford, a card not in this game, is never offered), or ``("choices", [...])``,
    the legal values of the refused key as the game names them. None: nothing to offer
    (no phase open, no form of this kind now, or the command's keys have no choices)."""
    if phase is None or phase.status != PhaseStatus.OPEN:
        return None
    rules = get_ruleset(game.ruleset)
    forms = rules.forms(GameState.from_dict(phase.state_before), seat.name)
    kinds = None
    if command is not None:
        kinds = {command["kind"]} if command.get("kind") else {rules.kind_of_key(k) for k in command}
    lines = [line for form in forms if kinds is None or form.kind in kinds
             for line in lines_for_form(rules, form, lang)]
    if lines or command is None:
        return ("lines", lines) if lines else None
    for key in command:
        field = next((f for form in forms if form.kind in kinds for f in form.fields if f.name == key), None)
        if field is None or field.type not in ("player", "players", "choice"):
            continue
        named = [c if field.type != "choice" else rules.describe_choice(key, c, lang) for c in field.choices]
        return "choices", list(dict.fromkeys(named))
    return None


def latest_actions(session: Session, phase: PhaseRow) -> list[ActionRow]:
    rows = session.scalars(select(ActionRow).where(ActionRow.phase_id == phase.id)
                           .options(selectinload(ActionRow.seat)).order_by(ActionRow.id)).all()
    last: dict[tuple[int, str], ActionRow] = {}
    for r in rows:
        last[(r.seat_id, r.kind)] = r
    return list(last.values())


def latest_actions_of(session: Session, phase: PhaseRow, seat: Seat) -> list[ActionRow]:
    """One seat's latest submission of each kind in the phase (what ``latest_actions``
    keeps for it), in the order it first submitted each kind; asked of the database,
    so a page costs the same however many times anyone changed their mind."""
    return list(session.scalars(_LATEST_OF_SEAT, {"phase_id": phase.id, "seat_id": seat.id}))


def _latest_of_seat() -> Any:
    """The statement of ``latest_actions_of``, built once: every reserved page asks it."""
    per_kind = (select(func.min(ActionRow.id).label("first"), func.max(ActionRow.id).label("last"))
                .where(ActionRow.phase_id == bindparam("phase_id"), ActionRow.seat_id == bindparam("seat_id"))
                .group_by(ActionRow.kind).subquery())
    return select(ActionRow).join(per_kind, ActionRow.id == per_kind.c.last).order_by(per_kind.c.first)


_LATEST_OF_SEAT = _latest_of_seat()


def engine_actions(session: Session, phase: PhaseRow) -> list[Action]:
    """The phase's submissions as the engine takes them (the last per player and kind);
    three columns, not rows and their seats: a boundary reads forty and more."""
    rows = session.execute(_PHASE_ACTIONS, {"phase_id": phase.id})
    return keep_last(Action(name, kind, dict(args)) for name, kind, args in rows)


# Built once: every boundary of every game reads its submissions with it.
_PHASE_ACTIONS = (select(Seat.name, ActionRow.kind, ActionRow.args).join(Seat, Seat.id == ActionRow.seat_id)
                  .where(ActionRow.phase_id == bindparam("phase_id")).order_by(ActionRow.id))
