"""Everything that changes a game. The only module that calls the engine.

Every way in (web form, mail, a Master on a player's behalf) ends in
``submit``; every phase boundary ends in ``resolve_phase``. Functions take a
session and the current time from their caller and never commit, except
``resolve_phase`` which is its own unit of work.
"""
from __future__ import annotations

import random
import re
import secrets
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload, sessionmaker

from engine.core import (
    Action, Event, GameState, Phase, Rejected, SetupError, UnknownRole, actions_from_submission,
    keep_last, phase_rng, setup_rng,
)
from engine.registry import get_ruleset

from . import mailer, render, schedule
from .models import (
    ActionRow, EventRow, Game, GameMaster, MasterLog, OutboxRow, PhaseRow, Seat, User,
)

MAIL_SOURCES = ("web", "mail", "master")


class OperationError(Exception):
    """A request the service refuses (not a rule of the game): code + params."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


# --------------------------------------------------------------------------- games

def slugify(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:50] or "game"


def game_schedule(game: Game) -> schedule.Schedule:
    return schedule.game_schedule(game.ruleset, game.schedule or None)


def game_tz(game: Game) -> str:
    return game_schedule(game).tz


def create_game(session: Session, *, name: str, ruleset: str, master: User, now: datetime,
                slug: str | None = None, schedule_spec: dict[str, Any] | None = None,
                seed: str | None = None, auto_publish: bool = True,
                review_contradictions: bool = False) -> Game:
    get_ruleset(ruleset)  # fail early on an unknown ruleset
    base = slug or slugify(name)
    candidate, n = base, 1
    while session.scalar(select(Game.id).where(Game.slug == candidate)) is not None:
        n += 1
        candidate = f"{base}-{n}"
    if schedule_spec:
        schedule.parse_schedule(schedule_spec)  # validate before storing
    game = Game(slug=candidate, name=name, ruleset=ruleset, status="setup",
                seed=seed or secrets.token_hex(8), schedule=schedule_spec or {},
                auto_publish=auto_publish, review_contradictions=review_contradictions,
                created_at=now)
    session.add(game)
    session.flush()
    session.add(GameMaster(game_id=game.id, user_id=master.id))
    log(session, game, master, "create_game", now, name=name, ruleset=ruleset)
    return game


def log(session: Session, game: Game, user: User | None, action: str, now: datetime,
        **details: Any) -> None:
    session.add(MasterLog(game_id=game.id, user_id=user.id if user else None, at=now,
                          action=action, details=details))


def ensure_user(session: Session, *, email: str, name: str, lang: str = "it") -> tuple[User, str | None]:
    """The user with this address, created with a fresh password if new."""
    email = email.strip().lower()
    user = session.scalar(select(User).where(User.email == email))
    if user is not None:
        return user, None
    password = secrets.token_urlsafe(9)
    user = User(email=email, name=name, lang=lang)
    user.set_password(password)
    session.add(user)
    session.flush()
    return user, password


def add_player(session: Session, config: dict[str, Any], game: Game, *, name: str, email: str,
               now: datetime, by: User | None = None, lang: str = "it",
               password: str | None = None) -> Seat:
    name = " ".join(name.split())
    if game.status != "setup":
        raise OperationError("game_started")
    if not name:
        raise OperationError("name_required")
    if any(s.name.casefold() == name.casefold() for s in game.seats):
        raise OperationError("name_taken", name=name)
    user, new_password = ensure_user(session, email=email, name=name, lang=lang)
    if password:
        user.set_password(password)
        new_password = password
    if any(s.user_id == user.id for s in game.seats):
        raise OperationError("email_taken", email=email)
    seat = Seat(game_id=game.id, user_id=user.id, name=name, position=len(game.seats),
                token=secrets.token_urlsafe(12))
    session.add(seat)
    game.seats.append(seat)
    session.flush()
    mailer.queue(session, config, to=user.email, template="welcome", lang=user.lang, now=now,
                 game=game, seat=seat, context={"user": user, "password": new_password})
    log(session, game, by, "add_player", now, name=name, email=user.email)
    return seat


def draw_roles(ruleset_key: str, names: list[str], composition: dict[str, int],
               rng: random.Random) -> list[tuple[str, str]]:
    ruleset = get_ruleset(ruleset_key)
    roles: list[str] = []
    for role, count in composition.items():
        roles += [ruleset.canonical_role(role)] * int(count)
    if len(roles) != len(names):
        raise OperationError("composition_size", roles=len(roles), players=len(names))
    rng.shuffle(roles)
    return list(zip(names, roles))


def prepare_game(session: Session, game: Game, *, now: datetime,
                 composition: dict[str, int] | None = None, roles: dict[str, str] | None = None,
                 mayor: str | None = None, options: dict[str, Any] | None = None,
                 by: User | None = None) -> dict[str, Any]:
    """Draw the roles (and what the ruleset draws at setup) for the Masters to
    review before anything is dealt; drawing again replaces the previous draw."""
    if game.status != "setup":
        raise OperationError("game_started")
    names = [s.name for s in game.seats]
    if len(names) < 3:
        raise OperationError("too_few_players", players=len(names))
    draws = int((game.prepared or {}).get("draws", 0)) + 1
    rng = setup_rng(f"{game.seed}|draw{draws}")  # each draw its own, replayable
    if roles:
        seating = [(n, roles[n]) for n in names]
    else:
        seating = draw_roles(game.ruleset, names, composition or {}, rng)
    opts = dict(options or {})
    if mayor:
        opts["mayor"] = mayor
    state, events = _setup_engine(game, seating, rng, opts)
    opts["mayor"] = state.mayor
    for e in events:  # what the setup drew that the Masters may edit later
        if e.kind == "divinatore_propositions":
            opts.setdefault("divinatore_propositions", {})[e.data["player"]] = [
                {"player": p["player"], "role": p["role"]} for p in e.data["propositions"]]
    game.prepared = {"seating": [list(x) for x in seating], "options": opts, "draws": draws}
    log(session, game, by, "draw_roles", now, roles=dict(Counter(r for _, r in seating)))
    return game.prepared


def edit_prepared(session: Session, game: Game, *, now: datetime, options: dict[str, Any],
                  by: User | None = None) -> dict[str, Any]:
    """Change set-up options of the prepared draw (checked by the engine now)."""
    if game.status != "setup" or not game.prepared:
        raise OperationError("not_prepared")
    merged = {**game.prepared["options"], **options}
    _setup_engine(game, [tuple(x) for x in game.prepared["seating"]], _draw_rng(game), merged)
    game.prepared = {**game.prepared, "options": merged}
    log(session, game, by, "edit_setup", now, options=options)
    return game.prepared


def _draw_rng(game: Game) -> random.Random:
    """The generator of the prepared draw, so dealing replays exactly what was shown."""
    return setup_rng(f"{game.seed}|draw{game.prepared['draws']}")


def _setup_engine(game: Game, seating: list[tuple[str, str]], rng: random.Random,
                  options: dict[str, Any]) -> tuple[GameState, list[Event]]:
    try:
        return get_ruleset(game.ruleset).setup(seating, rng, dict(options))
    except (SetupError, UnknownRole) as exc:
        raise OperationError("setup_failed", reason=str(exc), why=exc.code, **exc.params) from exc
    except (ValueError, KeyError) as exc:
        raise OperationError("setup_failed", reason=str(exc)) from exc


def start_game(session: Session, config: dict[str, Any], game: Game, *, now: datetime,
               composition: dict[str, int] | None = None, roles: dict[str, str] | None = None,
               mayor: str | None = None, by: User | None = None,
               options: dict[str, Any] | None = None) -> PhaseRow:
    """Deal the roles (the prepared draw, or a new one), open night 1, mail every role letter."""
    if game.status != "setup":
        raise OperationError("game_started")
    if composition or roles or not game.prepared:
        prepare_game(session, game, now=now, composition=composition, roles=roles, mayor=mayor,
                     options=options, by=by)
    seating = [tuple(x) for x in game.prepared["seating"]]
    state, events = _setup_engine(game, seating, _draw_rng(game), game.prepared["options"])
    game.composition = dict(Counter(role for _, role in seating))
    game.status = "running"
    game.state = state.to_dict()
    game.prepared = None
    _store_events(session, game, None, events, published=True)
    phase = _open_phase(session, game, state, index=0, after=now, now=now)
    for seat in game.seats:
        mine = [e for e in events if seat.name in e.to]
        mailer.queue(session, config, to=seat.user.email, template="role_letter",
                     lang=seat.user.lang, now=now, game=game, seat=seat, phase_id=phase.id,
                     context=_mail_context(game, phase, seat.user.lang, {
                         "lines": [render.describe(e.kind, e.data, game.ruleset, seat.user.lang)
                                   for e in mine],
                         "mayor": state.mayor,
                     }))
    log(session, game, by, "start_game", now, composition=game.composition)
    return phase


def _open_phase(session: Session, game: Game, state: GameState, *, index: int,
                after: datetime, now: datetime) -> PhaseRow:
    """Open the engine's next phase with its deadline from the game's calendar.

    The first night runs from the start of the game to the end of the next
    scheduled night (docs/rulings.md). A later phase starts at the boundary
    that closed the previous one and ends at the first scheduled end of a
    phase of its kind after that boundary: so a worker that was down past
    several boundaries finds the missed phases already due, and resolves
    them one after another, in order, never skipping one.
    """
    sched = game_schedule(game)
    wanted = state.phase.kind
    start = now if index == 0 else after
    candidates = schedule.phases_from(sched, start, 8)
    chosen = next((p for p in candidates if p.kind == wanted and p.end > start), candidates[0])
    row = PhaseRow(game_id=game.id, index=index, kind=state.phase.kind, number=state.phase.number,
                   starts_at=start, ends_at=chosen.end, long=chosen.long, status="open",
                   state_before=state.to_dict(), pending=[], gm_input={}, reminded=[])
    session.add(row)
    session.flush()
    return row


def current_phase(session: Session, game: Game) -> PhaseRow | None:
    return session.scalar(select(PhaseRow).where(PhaseRow.game_id == game.id)
                          .order_by(PhaseRow.index.desc()).limit(1))


def current_state(game: Game) -> GameState | None:
    return GameState.from_dict(game.state) if game.state else None


# --------------------------------------------------------------------------- actions

@dataclass
class Submitted:
    """What was recorded, for the receipt."""

    phase: PhaseRow
    rows: list[ActionRow] = field(default_factory=list)


def open_phase_for(session: Session, game: Game, now: datetime, correcting: bool = False,
                   arrived_at: datetime | None = None) -> PhaseRow:
    """The phase taking actions now. A Master correcting a rolled-back phase
    may also add to it while it is a draft. A message that reached the
    mailbox during the phase still counts after the deadline, until the phase
    is resolved."""
    phase = current_phase(session, game)
    if correcting and phase is not None and phase.status == "draft":
        return phase
    if game.status != "running" or phase is None or phase.status != "open":
        raise Rejected("phase_closed")
    in_time = now < phase.ends_at or (
        arrived_at is not None and phase.starts_at <= arrived_at < phase.ends_at)
    if not in_time:
        raise Rejected("phase_closed")
    return phase


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
           notify_player: bool = True) -> Submitted:
    """Record a player's submission (vocabulary of SCENARIOS.md), all or nothing.

    The engine validates against the state at the start of the phase; a
    forbidden choice raises Rejected with the engine's code. A submission
    aimed at a phase that has since closed is refused, never carried over.
    """
    if source not in MAIL_SOURCES:
        raise ValueError(source)
    if seat.disqualified:
        raise Rejected("disqualified")
    phase = open_phase_for(session, game, now, correcting=source == "master", arrived_at=arrived_at)
    if expected_phase_id is not None and expected_phase_id != phase.id:
        raise Rejected("phase_closed")
    _hold_phase(session, phase)
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(phase.state_before)
    try:
        actions = actions_from_submission(seat.name, submission)
    except ValueError as exc:
        raise Rejected("bad_submission", reason=str(exc)) from exc
    checked = [ruleset.validate(state, a) for a in actions]
    done = Submitted(phase)
    for action in checked:
        row = ActionRow(game_id=game.id, phase_id=phase.id, seat_id=seat.id, kind=action.kind,
                        args=action.args, submitted_at=now, source=source,
                        source_detail=source_detail, by_user_id=by_user.id if by_user else None,
                        inbound_id=inbound_id)
        session.add(row)
        done.rows.append(row)
    session.flush()
    if source == "master" and by_user is not None:
        log(session, game, by_user, "submit_on_behalf", now, player=seat.name,
            submission=submission, source=source_detail)
        if notify_player:
            mailer.queue(session, config, to=seat.user.email, template="on_behalf_copy",
                         lang=seat.user.lang, now=now, game=game, seat=seat,
                         context=_mail_context(game, phase, seat.user.lang, {
                             "master": by_user.name, "source": source_detail,
                             "lines": describe_submission(submission, seat.user.lang),
                         }))
    return done


_KIND_OF_KEY = {"vote": "vote", "target": "power", "target2": "power", "elect": "elect",
                "appoint": "appoint", "ritual": "ritual"}


def legal_choices(game: Game, phase: PhaseRow | None, seat: Seat, key: str) -> list[str] | None:
    """The names the engine would accept for this key now (for error replies)."""
    if phase is None or phase.status != "open":
        return None
    kind = _KIND_OF_KEY.get(key)
    state = GameState.from_dict(phase.state_before)
    for form in get_ruleset(game.ruleset).forms(state, seat.name):
        if form.kind != kind:
            continue
        for f in form.fields:
            if f.name == key and f.type in ("player", "players", "choice"):
                return list(f.choices)
    return [] if kind else None


def describe_submission(submission: dict[str, Any], lang: str) -> list[str]:
    labels = {
        "vote": ("Voto", "Vote"), "target": ("Bersaglio", "Target"),
        "target2": ("Secondo bersaglio", "Second target"), "power": ("Potere", "Power"),
        "ritual": ("Rituale", "Ritual"), "with": ("Con", "With"), "n": ("n", "n"),
        "appoint": ("Vicesindaco/successore", "Deputy/successor"), "elect": ("Sindaco", "Mayor"),
        "become": ("Diventa", "Become"), "question": ("Domanda", "Question"),
        "shout": ("Urlo", "Shout"), "notes": ("Note", "Notes"),
    }
    out = []
    for key, value in submission.items():
        label = labels.get(key, (key, key))[0 if lang != "en" else 1]
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        out.append(f"{label}: {value}")
    return out


def latest_actions(session: Session, phase: PhaseRow) -> list[ActionRow]:
    rows = session.scalars(select(ActionRow).where(ActionRow.phase_id == phase.id)
                           .options(selectinload(ActionRow.seat)).order_by(ActionRow.id)).all()
    last: dict[tuple[int, str], ActionRow] = {}
    for r in rows:
        last[(r.seat_id, r.kind)] = r
    return list(last.values())


def engine_actions(session: Session, phase: PhaseRow) -> list[Action]:
    return keep_last(Action(r.seat.name, r.kind, dict(r.args)) for r in latest_actions(session, phase))


# --------------------------------------------------------------------------- boundaries

def due_phase_ids(session: Session, now: datetime) -> list[int]:
    """Open phases whose deadline has passed, oldest first (paused games wait)."""
    return list(session.scalars(
        select(PhaseRow.id).join(Game, Game.id == PhaseRow.game_id)
        .where(PhaseRow.status == "open", PhaseRow.ends_at <= now, Game.status == "running",
               Game.paused_at.is_(None))
        .order_by(PhaseRow.ends_at, PhaseRow.id)))


def resolve_due(factory: sessionmaker[Session], config: dict[str, Any], now: datetime,
                max_rounds: int = 100) -> list[int]:
    """Resolve every due phase; the phases a resolution opens may be due too
    (after downtime), so keep going until none is."""
    done: list[int] = []
    for _ in range(max_rounds):
        with factory() as session:
            ids = due_phase_ids(session, now)
        resolved = [pid for pid in ids if resolve_phase(factory, config, pid, now)]
        done += resolved
        if not resolved:
            break
    return done


def resolve_phase(factory: sessionmaker[Session], config: dict[str, Any], phase_id: int,
                  now: datetime) -> bool:
    """Close a phase and resolve it, in one transaction; False if someone else did.

    The first statement claims the phase (open -> resolving), so two workers
    racing on one boundary serialise on the row: the loser sees it claimed.
    The resolution, its events and its mail commit together or not at all.
    """
    with factory() as session:
        with session.begin():
            claimed = session.execute(
                update(PhaseRow).where(PhaseRow.id == phase_id, PhaseRow.status == "open")
                .values(status="resolving")).rowcount
            if claimed != 1:
                return False
            phase = session.get(PhaseRow, phase_id)
            game = _load_game(session, phase.game_id)
            with session.no_autoflush:  # one flush at commit, not one per queued mail
                _resolve_into(session, config, game, phase, now)
    return True


def _load_game(session: Session, game_id: int) -> Game:
    """The game with its seats, Masters and their users in one go: a boundary
    mails every one of them, and lazy loading would cost a query each."""
    return session.scalars(select(Game).where(Game.id == game_id).options(
        selectinload(Game.seats).selectinload(Seat.user),
        selectinload(Game.masters).selectinload(GameMaster.user))).one()


def _resolve_into(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                  now: datetime) -> None:
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(phase.state_before)
    actions = engine_actions(session, phase)
    rng = phase_rng(game.seed, Phase(phase.kind, phase.number))
    result = ruleset.resolve(state, actions, rng, phase.gm_input or {})
    session.execute(EventRow.__table__.delete().where(EventRow.phase_id == phase.id))
    _store_events(session, game, phase, result.events, published=False)
    phase.state_after = result.state.to_dict()
    phase.pending = [{"kind": p.kind, "data": p.data, "blocking": p.blocking} for p in result.pending]
    phase.resolved_at = now
    if phase.resolved_at - phase.ends_at > LATE_AFTER and phase.status == "resolving":
        _tell_masters_late(session, config, game, phase, now)
    if game.auto_publish and not _needs_masters(game, phase, result):
        publish(session, config, game, phase, now)
    else:
        phase.status = "draft"
        for m in game.masters:
            mailer.queue(session, config, to=m.user.email, template="draft_ready", lang=m.user.lang,
                         now=now, game=game, context=_mail_context(game, phase, m.user.lang, {
                             "pending": phase.pending}))


def _needs_masters(game: Game, phase: PhaseRow, result: Any) -> bool:
    """A draft waits for the Masters when the rules need them: a question only
    they can answer, a stall (§2.1), a contradiction they asked to review, or a
    correction after a rollback."""
    if not result.publishable or (phase.gm_input or {}).get("correction"):
        return True
    # The stall is held once, when it begins; if the Masters choose to wait,
    # later phases publish as usual while the desk keeps showing it.
    if any(p.kind == "stall" and p.data.get("quiet_phases") == STALL_PHASES for p in result.pending):
        return True
    return game.review_contradictions and any(e.kind == "contradiction" for e in result.events)


STALL_PHASES = 6  # lupus-live-12-principale §2.1
LATE_AFTER = timedelta(minutes=5)


def _tell_masters_late(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                       now: datetime) -> None:
    """The worker was down past this boundary: resolved late, in order; say so."""
    log(session, game, None, "late_boundary", now, phase=phase.index,
        due=phase.ends_at.isoformat(), resolved=now.isoformat())
    for m in game.masters:
        mailer.queue(session, config, to=m.user.email, template="late_boundary", lang=m.user.lang,
                     now=now, game=game, context=_mail_context(game, phase, m.user.lang, {
                         "resolved": render.deadline_text(now, m.user.lang, game_tz(game))}))


def publish(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
            now: datetime, by: User | None = None) -> PhaseRow | None:
    """Make a resolved phase public, mail everyone, open the next phase."""
    if phase.status not in ("draft", "resolving"):
        raise OperationError("not_a_draft")
    if any(p.get("blocking") for p in phase.pending or []):
        raise OperationError("pending_items")
    state = GameState.from_dict(phase.state_after)
    session.execute(update(EventRow).where(EventRow.phase_id == phase.id).values(published=True))
    phase.status = "published"
    phase.published_at = now
    game.state = phase.state_after
    next_phase = None
    if state.over:
        game.status = "over"
    else:
        next_phase = _open_phase(session, game, state, index=phase.index + 1,
                                 after=phase.ends_at, now=now)
    session.flush()
    _mail_results(session, config, game, phase, next_phase, now)
    if by is not None:
        log(session, game, by, "publish", now, phase=phase.index)
    return next_phase


def _mail_results(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                  next_phase: PhaseRow | None, now: datetime) -> None:
    rows = session.scalars(select(EventRow).where(EventRow.phase_id == phase.id)
                           .order_by(EventRow.seq)).all()
    public_rows = [r for r in rows if r.visibility == "public"]
    for seat in game.seats:
        lang = seat.user.lang
        mine = [r for r in rows if r.visibility == "private" and seat.name in (r.recipients or [])]
        mailer.queue(session, config, to=seat.user.email, template="phase_results", lang=lang,
                     now=now, game=game, seat=seat,
                     phase_id=next_phase.id if next_phase else None, context=_mail_context(game, phase, lang, {
                         "correction": bool((phase.gm_input or {}).get("correction")),
                         "private_lines": render.lines_for(mine, game.ruleset, lang),
                         "public_lines": render.lines_for(public_rows, game.ruleset, lang),
                         "vote_lines": _vote_lines(public_rows),
                         "next_phase": next_phase,
                         "next_label": render.phase_label(next_phase, lang, game_tz(game)) if next_phase else None,
                         "next_deadline": render.deadline_text(next_phase.ends_at, lang, game_tz(game)) if next_phase else None,
                     }))
    for m in game.masters:
        lang = m.user.lang
        mailer.queue(session, config, to=m.user.email, template="master_report", lang=lang,
                     now=now, game=game, context=_mail_context(game, phase, lang, {
                         "lines": [f"[{r.visibility}{' → ' + ', '.join(r.recipients) if r.recipients else ''}] "
                                   f"{render.describe(r.kind, r.data, game.ruleset, lang) or r.kind}"
                                   for r in rows],
                     }))


def _vote_lines(rows: list[EventRow]) -> list[str]:
    for r in rows:
        if r.kind == "pyre":
            return render.vote_lines(r.data)
    return []


def _mail_context(game: Game, phase: PhaseRow, lang: str, extra: dict[str, Any]) -> dict[str, Any]:
    tz = game_tz(game)
    return {"phase": phase, "phase_label": render.phase_label(phase, lang, tz),
            "deadline": render.deadline_text(phase.ends_at, lang, tz), **extra}


def _store_events(session: Session, game: Game, phase: PhaseRow | None, events: list[Event],
                  published: bool) -> None:
    for seq, e in enumerate(events):
        session.add(EventRow(game_id=game.id, phase_id=phase.id if phase else None, seq=seq,
                             kind=e.kind, data=e.data, visibility=e.visibility,
                             recipients=list(e.to), published=published))
    session.flush()


def pending_mail(session: Session) -> int:
    return session.query(OutboxRow).filter(OutboxRow.status == "pending").count()


# --------------------------------------------------------------------------- the Masters

def answer_pending(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                   gm_input: dict[str, Any], now: datetime, by: User | None = None) -> None:
    """Record the Masters' answers (e.g. the Profeta's question) and resolve the draft again.

    The phase's seed is unchanged, so every other outcome stays as previewed.
    """
    if phase.status != "draft":
        raise OperationError("not_a_draft")
    merged = dict(phase.gm_input or {})
    for key, value in gm_input.items():
        if isinstance(value, dict):
            merged[key] = {**merged.get(key, {}), **value}
        else:
            merged[key] = value
    phase.gm_input = merged
    _resolve_into(session, config, game, phase, now)
    if phase.status != "published":
        phase.status = "draft"
    if by is not None:
        log(session, game, by, "answer_pending", now, phase=phase.index, gm_input=gm_input)


def close_now(factory: sessionmaker[Session], config: dict[str, Any], game_id: int,
              now: datetime, by_user_id: int | None = None) -> bool:
    """End the open phase at once (a Master's decision) and resolve it."""
    with factory() as session, session.begin():
        game = session.get(Game, game_id)
        phase = current_phase(session, game)
        if phase is None or phase.status != "open":
            return False
        phase.ends_at = min(phase.ends_at, now)
        user = session.get(User, by_user_id) if by_user_id else None
        log(session, game, user, "close_phase", now, phase=phase.index)
        phase_id = phase.id
    return resolve_phase(factory, config, phase_id, now)
