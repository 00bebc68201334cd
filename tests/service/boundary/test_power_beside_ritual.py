"""One rule for a submission in the service and in the scenario runner
(``BaseRuleset.submission_actions``): a ghost who holds her power tonight after a
Replay (lupus-live-12 personaggi §4.8, "in aggiunta al rituale") and names a ritual
and its target in one submission uses her power on that target too, as the scenario
file ``ritual-replay-power-beside-ritual-one-act.yaml`` reads the same act; a power
she chose herself is never overwritten; anyone else's target is the ritual's alone."""
from __future__ import annotations

import random

import pytest

from engine.core import Action, GameState, Phase
from engine.registry import get_ruleset
from pbm import operations
from pbm.db import transaction
from pbm.models import Game

from tests.support.helpers import make_game
from tests.support.forms import edit_open_state, kill, recorded

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Satanista", "Carla": "Veggente", "Dario": "Profeta",
         "Elena": "Guardia del corpo", "Fabio": "Contadino", "Gino": "Contadino", "Ida": "Contadino"}
GHOSTS = ["Elena", "Fabio", "Gino", "Ida"]
RITUAL = {"ritual": "Voto diretto", "n": 1}


@pytest.fixture
def replayed(app, factory, clock):
    """Night 2; Elena, a dead Guardia del corpo, holds her power tonight (a Replay)."""
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Carla")

    def change(state):
        kill(GHOSTS)(state)
        state["phase"] = {"kind": "night", "number": 2}
        next(p for p in state["players"] if p["name"] == "Elena")["data"]["replay_night"] = 2
    edit_open_state(factory, gid, change)
    return gid


def send(app, factory, clock, gid: int, name: str, submission: dict) -> None:
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name(name), submission,
                          source="web", now=clock.now())


def powers(factory, name: str) -> list[dict]:
    return [args for _p, kind, args in recorded(factory, name) if kind == "power"]


def test_one_submission_names_the_ritual_and_the_power_target(app, factory, clock, replayed):
    send(app, factory, clock, replayed, "Elena", {**RITUAL, "with": ["Fabio"], "target": "Carla"})
    assert [kind for _p, kind, _a in recorded(factory, "Elena")] == ["ritual", "power"]
    assert powers(factory, "Elena") == [{"target": "Carla"}]
    # The ritual's target changes: the power that went with it follows.
    send(app, factory, clock, replayed, "Elena", {**RITUAL, "with": ["Fabio"], "target": "Dario"})
    assert powers(factory, "Elena")[-1] == {"target": "Dario"}


def test_a_power_she_chose_herself_is_kept(app, factory, clock, replayed):
    send(app, factory, clock, replayed, "Elena", {"target": "Anna"})
    send(app, factory, clock, replayed, "Elena", {**RITUAL, "with": ["Fabio"], "target": "Carla"})
    assert powers(factory, "Elena") == [{"target": "Anna"}]


def test_a_ghost_without_a_power_only_performs_the_ritual(app, factory, clock, replayed):
    send(app, factory, clock, replayed, "Fabio", {**RITUAL, "with": ["Elena"], "target": "Carla"})
    assert [kind for _p, kind, _a in recorded(factory, "Fabio")] == ["ritual"]


def test_the_service_and_the_runner_read_one_act_alike(app, factory, clock, replayed):
    """The runner's reading (no ``made``: one act a step) is the service's first one."""
    send(app, factory, clock, replayed, "Elena", {**RITUAL, "with": ["Fabio"], "target": "Carla"})
    rules = get_ruleset("lupus-live-12")
    with factory() as s:
        state = GameState.from_dict(operations.current_phase(s, s.get(Game, replayed)).state_before)
    assert state.phase == Phase("night", 2)
    read = rules.submission_actions(state, "Elena", {**RITUAL, "with": ["Fabio"], "target": "Carla"})
    assert not read.refused
    assert [(a.kind, a.args) for a in read.accepted] == [
        (kind, args) for _p, kind, args in recorded(factory, "Elena")]
    # What the resolution then does with them is the engine's: Elena protects Carla.
    res = rules.resolve(state, read.accepted + [Action("Anna", "power", {"target": "Carla"})],
                        random.Random(0))
    assert "Carla" not in [e.data.get("player") for e in res.events if e.kind == "death"]
