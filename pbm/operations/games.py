"""Games: create one, seat its players and its other Masters, draw and deal the roles,
open its phases."""
from __future__ import annotations

import random
import secrets
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import Event, GameState, SetupError, UnknownRole, setup_rng
from engine.registry import get_ruleset

from .. import calendar, hooks
from ..mail import outbound as mailer
from ..accounts import create_user, normalize_email, password_link, send_set_password, tokens
from ..models import Game, GameMaster, GameStatus, Listing, PhaseRow, PhaseStatus, Seat, User
from ..render import named_day
from .base import OperationError, check_typed_name, game_tz, log, slugify, store_events
from .seasons import fair_seating, fair_weights
from .timing import checked_window, moments
from .windows import apply_standing, checked_extensions


def create_game(session: Session, *, name: str, ruleset: str, master: User, now: datetime,
                slug: str | None = None, schedule_spec: dict[str, Any] | None = None,
                seed: str | None = None, auto_publish: bool = True,
                review_contradictions: bool = False,
                answer_window: timedelta | None = None, extensions: int | None = None,
                listing: str = Listing.PUBLIC) -> Game:
    """A new game in set-up; ``answer_window``: how long each WINDOW moment lasts
    (one minute to two days), ``extensions``: how many times each player may have a
    window extended by that much; both kept beside the calendar in the schedule column.
    ``listing``: who may read its pages (``models.Listing``)."""
    listing = Listing(listing)
    get_ruleset(ruleset)  # fail early on an unknown ruleset
    check_typed_name(name)
    base = slug or slugify(name)
    candidate, n = base, 1
    while session.scalar(select(Game.id).where(Game.slug == candidate)) is not None:
        n += 1
        candidate = f"{base}-{n}"
    stored = dict(schedule_spec or {})
    spec = calendar.calendar_spec(stored)
    if spec:
        calendar.parse_schedule(spec)  # validate before storing
    if answer_window is not None:
        stored[calendar.ANSWER_WINDOW] = checked_window(answer_window)
    if extensions is not None:
        stored[calendar.EXTENSIONS] = checked_extensions(extensions)
    game = Game(slug=candidate, name=name, ruleset=ruleset, status=GameStatus.SETUP,
                seed=seed or secrets.token_hex(8), schedule=stored,
                auto_publish=auto_publish, review_contradictions=review_contradictions,
                created_at=now, listing=listing)
    session.add(game)
    session.flush()
    session.add(GameMaster(game_id=game.id, user_id=master.id))
    log(session, game, master, "create_game", now, name=name, ruleset=ruleset)
    return game


def ensure_user(session: Session, *, email: str, name: str, lang: str = "it") -> tuple[User, bool]:
    """The user with this address (created without a password if new), and
    whether it was created: a new account chooses its password through a link."""
    return create_user(session, email=email, name=name, lang=lang)


def add_player(session: Session, config: dict[str, Any], game: Game, *, name: str, email: str,
               now: datetime, by: User | None = None, lang: str = "it",
               password: str | None = None) -> Seat:
    """Seat a player. The welcome mail never carries a password: a new account
    gets a link to choose one. ``password`` sets one directly (the demo's
    accounts, tests) and is never mailed."""
    check_typed_name(name)
    name = " ".join(name.split())
    if game.status != GameStatus.SETUP:
        raise OperationError("game_started")
    if not name:
        raise OperationError("name_required")
    if any(s.name.casefold() == name.casefold() for s in game.seats):
        raise OperationError("name_taken", name=name)
    user, _created = ensure_user(session, email=email, name=name, lang=lang)
    if password:
        user.set_password(password)
    if any(s.user_id == user.id for s in game.seats):
        raise OperationError("email_taken", email=email)
    if game.is_master(user):
        raise OperationError("master_plays")
    seat = Seat(game_id=game.id, user_id=user.id, name=name, position=len(game.seats),
                token=secrets.token_urlsafe(12))
    session.add(seat)
    game.seats.append(seat)
    session.flush()
    link = None if user.password_hash else password_link(config, user, now, "set")
    # The game's own words (its name, what a player gets, a command) are the composer's
    # for every mail of a game (mail.outbound.composer._game_words).
    mailer.queue(session, config, to=user.email, template="welcome", lang=user.lang, now=now,
                 game=game, seat=seat, context={"user": user, "password_link": link,
                                                   "days": tokens.MAX_AGE["set"] // 86400})
    log(session, game, by, "add_player", now, name=name, email=user.email)
    return seat


def add_co_master(session: Session, config: dict[str, Any], game: Game, *, email: str, name: str,
                  lang: str, by: User, now: datetime) -> User:
    """Make the owner of this address a Master of the game: a new account gets
    a set-password link, an existing one a note with the desk's address."""
    check_typed_name(name)
    email = normalize_email(email)
    if any(s.user is not None and s.user.email == email for s in game.seats):  # a table's seats have none
        raise OperationError("master_plays")
    user, created = create_user(session, email=email, name=name or email.split("@")[0], lang=lang)
    if game.is_master(user):
        raise OperationError("already_master")
    session.add(GameMaster(game_id=game.id, user_id=user.id))
    if not user.password_hash:
        send_set_password(session, config, user, now, game=game, role="master")
    else:
        mailer.queue(session, config, to=user.email, template="master_added", lang=user.lang, now=now,
                     game=game, context={"user": user, "by": by})
    log(session, game, by, "add_master", now, email=user.email)
    session.flush()
    return user


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
                 options: dict[str, Any] | None = None, by: User | None = None) -> dict[str, Any]:
    """Draw the roles (and what the ruleset draws at setup) for the Masters to
    review before anything is dealt; drawing again replaces the previous draw."""
    if game.status != GameStatus.SETUP:
        raise OperationError("game_started")
    names = [s.name for s in game.seats]
    ruleset = get_ruleset(game.ruleset)
    minimum = ruleset.min_players
    if len(names) < minimum:
        raise OperationError("too_few_players", players=len(names), minimum=minimum)
    if len(names) > ruleset.max_players:
        raise OperationError("too_many_players", players=len(names), maximum=ruleset.max_players)
    draws = int((game.prepared or {}).get("draws", 0)) + 1
    rng = setup_rng(f"{game.seed}|draw{draws}")  # each draw its own, replayable
    if roles:
        seating = [(n, roles[n]) for n in names]
    elif not ruleset.roles():  # a game without roles deals its own (cards, coins...)
        seating = [(n, "") for n in names]
    else:
        seating = fair_seating(session, game, names, composition or {}, rng) or \
            draw_roles(game.ruleset, names, composition or {}, rng)
    opts = dict(options or {})
    state, events = _setup_engine(game, seating, rng, opts)
    # What the setup drew that the Masters may edit later (the draw wins over the options).
    for key, value in get_ruleset(game.ruleset).prepared_options(events).items():
        given = opts.get(key)
        opts[key] = {**given, **value} if isinstance(given, dict) and isinstance(value, dict) else value
    prepared: dict[str, Any] = {"seating": [list(x) for x in seating], "options": opts, "draws": draws}
    if fair := fair_weights(session, game):  # shown to the Masters with the draw
        prepared["fair"] = fair
    game.prepared = prepared
    log(session, game, by, "draw_roles", now, roles=dict(Counter(r for _, r in seating)))
    return game.prepared


def edit_prepared(session: Session, game: Game, *, now: datetime, options: dict[str, Any],
                  by: User | None = None) -> dict[str, Any]:
    """Change set-up options of the prepared draw (checked by the engine now)."""
    if game.status != GameStatus.SETUP or not game.prepared:
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
               by: User | None = None, options: dict[str, Any] | None = None) -> PhaseRow:
    """Deal the roles (the prepared draw, or a new one), open night 1, mail every role letter."""
    if game.status != GameStatus.SETUP:
        raise OperationError("game_started")
    if composition or roles or not game.prepared:
        prepare_game(session, game, now=now, composition=composition, roles=roles, options=options, by=by)
    seating = [tuple(x) for x in game.prepared["seating"]]
    state, events = _setup_engine(game, seating, _draw_rng(game), game.prepared["options"])
    game.composition = dict(Counter(role for _, role in seating))
    game.status = GameStatus.RUNNING
    game.state = state.to_dict()
    game.prepared = None
    store_events(session, game, None, events, published=True)
    phase = open_phase(session, game, state, index=0, after=now, now=now, config=config)
    hooks.announce(hooks.game_started, moments(game, state), hooks.GameStarted(
        session, config, game, now, phase=phase, events=events))
    log(session, game, by, "start_game", now, composition=game.composition)
    return phase


def open_phase(session: Session, game: Game, state: GameState, *, index: int,
                after: datetime, now: datetime, config: dict[str, Any] | None = None,
                saved: dict[str, Any] | None = None) -> PhaseRow:
    """Open the engine's next moment, with its deadline as its timing says (its moments' ``span``);
    an answer window gets the players' standing answers at once (``windows.apply_standing``).
    ``saved``: ``state.to_dict()`` already made (the previous phase's state after)."""
    when = moments(game, state).span(game, state, first=index == 0, after=after, now=now)
    row = PhaseRow(game_id=game.id, index=index, kind=state.phase.kind, number=state.phase.number,
                   starts_at=when.starts_at, ends_at=when.ends_at, long=when.long, status=PhaseStatus.OPEN,
                   named_on=named_day(when.ends_at, game_tz(game)),
                   state_before=state.to_dict() if saved is None else saved, pending=[], gm_input={},
                   reminded=[])
    session.add(row)
    session.flush()
    if any(s.standing for s in game.seats):
        apply_standing(session, config or {}, game, row, now)
    return row
