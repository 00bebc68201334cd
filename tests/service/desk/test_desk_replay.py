"""A Master's intervention is events with its own seed: replaying them rebuilds the game."""
from __future__ import annotations

from pbm import operations
from pbm.db import transaction
from pbm.models import EventRow, Game, PhaseRow, User
from pbm.operations import desk

from tests.support.helpers import make_master

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino", "Fabio": "Contadino", "Gina": "Contadino"}


def _game_with_a_kill(app, factory, now, slug: str, reminded: list[int]) -> int:
    """A game on a fixed seed whose Masters kill the mayor (a random succession) and a
    villager (a random corruption draw) during night 1."""
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name=slug, slug=slug, ruleset="lupus-live-12", master=master,
                                      now=now, seed="same-seed-everywhere")
        for name in ROLES:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}.{slug}@players.test",
                                  now=now, by=master)
        operations.start_game(s, app.config, game, roles=ROLES, options={"mayor": "Bruno"}, now=now, by=master)
        game_id = game.id
    with transaction(factory) as s:
        game = s.get(Game, game_id)
        operations.current_phase(s, game).reminded = reminded  # reminders must not change a draw
        desk.intervene(s, app.config, game, "kill", ["Bruno"], now, s.get(User, master_id))
        desk.intervene(s, app.config, game, "kill", ["Elena"], now, s.get(User, master_id))
    return game_id


def _outcome(factory, game_id: int):
    with factory() as s:
        game = s.get(Game, game_id)
        phase = operations.current_phase(s, game)
        events = [(e.kind, e.data, e.visibility, e.recipients) for e in s.query(EventRow)
                  .filter(EventRow.phase_id == phase.id, EventRow.kind != desk.REMEDY).order_by(EventRow.seq)]
        rebuilt = desk.replay_interventions(s, game, phase)
        return game.state, phase.state_before, rebuilt.to_dict() if rebuilt else None, events


def test_an_intervention_replays_to_the_same_state_on_two_runs(app, factory, clock):
    first = _outcome(factory, _game_with_a_kill(app, factory, clock.now(), "first", reminded=[]))
    second = _outcome(factory, _game_with_a_kill(app, factory, clock.now(), "second", reminded=[1, 2, 3]))
    state, before, rebuilt, events = first
    alive = {p["name"]: p["alive"] for p in state["players"]}
    assert not alive["Bruno"] and not alive["Elena"]
    assert state["mayor"] not in (None, "Bruno")  # succeeded by a draw of the remedy
    assert rebuilt == before == state  # the events alone rebuild the phase's state
    assert [k for k, *_ in events].count("death") == 2
    assert second == first  # same game seed, same interventions: same game


def test_a_resolution_keeps_the_interventions_of_its_phase(app, factory, clock):
    game_id = _game_with_a_kill(app, factory, clock.now(), "kept", reminded=[])
    with factory() as s:
        night = s.query(PhaseRow).filter_by(game_id=game_id, index=0).one()
        ends_at, night_id = night.ends_at, night.id
    operations.resolve_due(factory, app.config, ends_at)
    with factory() as s:
        kinds = [e.kind for e in s.query(EventRow).filter_by(phase_id=night_id).order_by(EventRow.seq)]
        assert kinds.count(desk.REMEDY) == 2 and kinds.count("death") >= 2
        night = s.get(PhaseRow, night_id)
        assert night.status in ("published", "draft")
        assert desk.replay_interventions(s, s.get(Game, game_id), night).to_dict() == night.state_before


def test_the_desk_offers_the_rulesets_remedies_and_applies_them(app, factory, clock):
    from tests.conftest import csrf_from
    from tests.support.helpers import login, make_game
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    client = login(app, "master@example.org", "master")
    page = client.get("/g/test-game/master").get_data(as_text=True)
    offered = [v for v in ("kill", "resurrect", "draw", "disqualify") if f'<option value="{v}">' in page]
    assert offered == ["kill", "resurrect", "draw", "disqualify"] and "Dichiara il pareggio" in page
    r = client.post("/g/test-game/master/intervene", data={
        "csrf_token": csrf_from(page), "action": "kill", "players": ["Elena"], "reason": ""})
    assert r.status_code == 302
    with factory() as s:
        alive = {p["name"]: p["alive"] for p in s.get(Game, gid).state["players"]}
        assert not alive["Elena"] and alive["Bruno"]
        assert s.query(EventRow).filter_by(game_id=gid, kind=desk.REMEDY).count() == 1
