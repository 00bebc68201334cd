"""Seasons of bot-played games for the statistics' tests and bench (issue 34): a
group, a season, and whole games played through the service's operations (each
player's moves drawn from a seeded generator among the legal choices the forms offer,
sent by the way each player uses: web, mail or through the Master), each moment closed
and published as its boundary would, until the game ends (a game that drags on past
``max_moments`` is ended by the Master as a draw)."""
from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from engine.core import GameState, Rejected
from engine.registry import get_ruleset

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, GameStatus, PhaseRow, PhaseStatus, User
from pbm.operations import desk, seasons

WAYS = ("web", "mail", "master")


def master_and_season(factory, now: datetime, *, email: str = "master@example.org",
                      group: str = "Circolo del Martedì", season: str = "Autunno 2026") -> tuple[int, int, int]:
    """(master id, group id, season id)."""
    with transaction(factory) as s:
        master, _ = operations.ensure_user(s, email=email, name="Master Mara")
        master.set_password("master")
        master.is_admin = True
        g = seasons.create_group(s, name=group, owner=master, now=now)
        season_row = seasons.add_season(s, g, name=season, by=master, now=now)
        return master.id, g.id, season_row.id


def new_season_game(factory, config, now: datetime, master_id: int, season_id: int | None,
                    players: list[str], roles: dict[str, str] | None = None, *,
                    ruleset: str = "lupus-live-12", composition: dict[str, int] | None = None,
                    fair_deal: bool = False, name: str = "Partita", seed: str = "seme") -> int:
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name=name, ruleset=ruleset, master=master, now=now, seed=seed)
        for p in players:
            operations.add_player(s, config, game, name=p, email=f"{p.lower()}@players.test", now=now,
                                  by=master, password="pw-" + p.lower())
        if season_id is not None:
            seasons.place_game(s, game, season_id, fair_deal=fair_deal, by=master, now=now)
        operations.start_game(s, config, game, roles=roles, composition=composition, now=now, by=master)
        return game.id


def way_of(name: str) -> str:
    """How a player sends their moves: fixed by their name, so tests can count it."""
    return WAYS[sum(map(ord, name)) % len(WAYS)]


def play_to_end(factory, config, clock, game_id: int, seed: str, *, forget: float = 0.15,
                max_moments: int = 40) -> None:
    rng = random.Random(seed)
    for _ in range(max_moments):
        with transaction(factory) as s:
            game = s.get(Game, game_id)
            if game.status == GameStatus.OVER:
                return
            master = s.scalar(select(User).where(User.id == game.masters[0].user_id))
            phase = operations.current_phase(s, game)
            if phase is not None and phase.status == PhaseStatus.OPEN:
                _play_moment(s, config, game, phase, master, rng, forget, clock.now())
        clock.set(clock.now() + timedelta(minutes=1))
        with transaction(factory) as s:
            game = s.get(Game, game_id)
            master = s.scalar(select(User).where(User.id == game.masters[0].user_id))
            phase = operations.current_phase(s, game)
            if phase is not None and phase.status == PhaseStatus.OPEN:
                operations.close_and_resolve(s, config, game, clock.now())
            _publish_drafts(s, config, game, master, clock.now())
    with transaction(factory) as s:
        game = s.get(Game, game_id)
        if game.status != GameStatus.OVER:
            master = s.scalar(select(User).where(User.id == game.masters[0].user_id))
            desk.intervene(s, config, game, "end", [], clock.now(), by=master)


def _play_moment(s, config, game: Game, phase: PhaseRow, master: User, rng: random.Random,
                 forget: float, now: datetime) -> None:
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(phase.state_before)
    for seat in game.seats:
        if not state.has_player(seat.name):
            continue
        for form in ruleset.forms(state, seat.name):
            if rng.random() < forget:
                continue
            move = _move(ruleset, form, seat.name, rng)
            if move is None:
                continue
            way = way_of(seat.name)
            try:
                operations.submit(s, config, game, seat, move, source=way, now=now,
                                  by_user=master if way == "master" else None)
            except (Rejected, operations.OperationError):
                pass


def _move(ruleset: Any, form: Any, me: str, rng: random.Random) -> dict[str, Any] | None:
    values: dict[str, Any] = {}
    for f in form.fields:
        choices = sorted(c for c in f.choices if c != me)
        if f.type == "player":
            if choices:
                values[f.name] = rng.choice(choices)
        elif f.type == "players":
            if choices:
                values[f.name] = sorted(rng.sample(choices, max(1, min(len(choices), f.min or 1))))
        elif f.type == "choice":
            if f.choices:
                values[f.name] = rng.choice(sorted(f.choices))
        elif f.type == "int":
            values[f.name] = f.min if f.min is not None else 1
    return ruleset.form_submission(form, values) if values else None


def _publish_drafts(s, config, game: Game, master: User, now: datetime) -> None:
    for phase in s.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.status == PhaseStatus.DRAFT)):
        asked = {p["data"]["player"]: "yes" for p in phase.pending or []
                 if p.get("blocking") and "player" in (p.get("data") or {})}
        if asked:
            desk.answer_pending(s, config, game, phase, {"answers": asked}, now, by=master)
        if phase.status == PhaseStatus.DRAFT:
            try:
                operations.publish(s, config, game, phase, now, by=master)
            except operations.OperationError:
                desk.intervene(s, config, game, "end", [], now, by=master)
