"""Fair dealing through the service (issue 34): off, the draw is today's uniform
shuffle, seat for seat; on, the draw is the engine's fair deal with the history the
desk shows, replayed exactly from the game's recorded seed."""
from __future__ import annotations

from sqlalchemy import select

from engine.core import setup_rng
from engine.fair_deal import deal
from pbm import operations
from pbm.db import transaction
from pbm.models import Game, User
from pbm.operations import seasons

from tests.support.season_games import master_and_season, new_season_game, play_to_end

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
COMPOSITION = {"Lupo Mannaro": 2, "Contadino": 5, "Guardia del corpo": 1}


def _prepared(app, clock, master_id: int, season_id: int, fair: bool) -> tuple[Game, dict]:
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Nuova", ruleset="lupus-live-12", master=master, now=clock.now(),
                                      seed="seme-fisso")
        for p in PLAYERS:
            operations.add_player(s, app.config, game, name=p, email=f"{p.lower()}@players.test", now=clock.now(),
                                  by=master)
        seasons.place_game(s, game, season_id, fair_deal=fair, by=master, now=clock.now())
        prepared = operations.prepare_game(s, game, composition=COMPOSITION, now=clock.now(), by=master)
        return game, dict(prepared)


def _history_season(app, clock) -> tuple[int, int]:
    factory = app.extensions["pbm_sessions"]
    master, _group, season = master_and_season(factory, clock.now())
    roles = dict(zip(PLAYERS, ["Lupo Mannaro", "Lupo Mannaro", "Contadino", "Contadino", "Contadino", "Contadino",
                               "Guardia", "Contadino"]))
    gid = new_season_game(factory, app.config, clock.now(), master, season, PLAYERS, roles, seed="storia")
    play_to_end(factory, app.config, clock, gid, "bots")
    return master, season


def test_off_the_draw_is_the_uniform_shuffle_of_before(app, clock):
    master, season = _history_season(app, clock)
    _game, prepared = _prepared(app, clock, master, season, fair=False)
    before = operations.draw_roles("lupus-live-12", PLAYERS, COMPOSITION, setup_rng("seme-fisso|draw1"))
    assert [tuple(x) for x in prepared["seating"]] == before
    assert "fair" not in prepared


def test_on_the_draw_replays_from_its_seed_and_the_history_shown(app, clock):
    master, season = _history_season(app, clock)
    _game, prepared = _prepared(app, clock, master, season, fair=True)
    shown = prepared["fair"]
    assert shown["history"]  # the last game's watched faction
    with app.extensions["pbm_sessions"]() as s:
        game = s.scalar(select(Game).where(Game.name == "Nuova"))
        last_wolves = {r.name for r in s.scalars(select(seasons.SeatRecord)) if r.figures["outcome"]["faction"] == "Lupi"}
        assert set(shown["history"]) == {seat.name for seat in game.seats if seat.name in last_wolves}
    roles: list[str] = []
    for role, n in COMPOSITION.items():
        roles += [role] * n
    replayed = deal(PLAYERS, roles, {"Lupo Mannaro"}, shown["history"], setup_rng("seme-fisso|draw1"))
    assert [tuple(x) for x in prepared["seating"]] == replayed
