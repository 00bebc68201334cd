"""What waits for the Masters: the Profeta's question (blocking), the stall and its remedies."""
from __future__ import annotations

import random

from engine.core import Action, phase_rng, setup_rng
from engine.lupus_common.results import results_for
from engine.lupus_live_12 import RULESET

SEATING = [("Anna", "Lupo Mannaro"), ("Bruno", "Profeta"), ("Carla", "Contadino"),
           ("Dario", "Guardia del corpo")]


def _start():
    return RULESET.setup(SEATING, setup_rng(0), {"mayor": "Carla"})[0]


def test_profeta_question_blocks_until_answered() -> None:
    state = _start()
    ask = [RULESET.validate(state, Action("Bruno", "question", {"question": "Anna è un lupo?"}))]
    res = RULESET.resolve(state, ask, phase_rng(0, state.phase), {})
    assert not res.publishable
    (p,) = res.pending
    assert p.kind == "profeta_question" and p.blocking
    assert p.data == {"player": "Bruno", "question": "Anna è un lupo?"}
    assert results_for(res, "Bruno") == []
    res = RULESET.resolve(state, ask, phase_rng(0, state.phase), {"answers": {"Bruno": False}})
    assert res.publishable
    assert results_for(res, "Bruno") == [{"answer": "no"}]


def _quiet(state, phases):
    res = None
    for _ in range(phases):
        res = RULESET.resolve(state, [], phase_rng(0, state.phase))
        state = res.state
    return state, res


def test_stall_after_six_quiet_phases_is_told_not_blocking() -> None:
    state, res = _quiet(_start(), 5)
    assert not [p for p in res.pending if p.kind == "stall"]
    state, res = _quiet(state, 1)
    (stall,) = [p for p in res.pending if p.kind == "stall"]
    assert not stall.blocking and res.publishable
    assert stall.data["quiet_phases"] == 6
    assert {"kill", "resurrect", "draw"} <= set(stall.data["remedies"])
    assert [e for e in res.events if e.kind == "stall" and e.visibility == "master"]
    assert state.winner is None


def test_the_stall_holds_the_phase_once_when_it_begins() -> None:
    state, res = _quiet(_start(), 5)
    assert not RULESET.holds(res, {})
    state, res = _quiet(state, 1)
    assert RULESET.holds(res, {})
    _state, res = _quiet(state, 1)  # the Masters chose to wait: the seventh publishes
    assert [p for p in res.pending if p.kind == "stall"] and not RULESET.holds(res, {})


def test_the_remedies_are_offered_through_the_interface() -> None:
    assert {"kill", "resurrect", "draw"} <= {r.key for r in RULESET.remedies()}


def test_gm_kill_resurrect_and_draw() -> None:
    state, _ = _quiet(_start(), 6)
    killed, events = RULESET.apply_remedy(state, "kill", {"players": ["Dario"]}, random.Random(3))
    assert not killed.player("Dario").alive and state.player("Dario").alive  # pure
    assert [e.data["player"] for e in events if e.kind == "death"] == ["Dario"]
    assert killed.data["quiet_phases"] == 0
    back, events = RULESET.apply_remedy(killed, "resurrect", {"players": ["Dario"]}, random.Random(3))
    assert back.player("Dario").alive
    assert [e.data["player"] for e in events if e.kind == "revive"] == ["Dario"]
    drawn, events = RULESET.apply_remedy(back, "draw", {}, random.Random(3))
    assert drawn.winner == "draw" and drawn.over
    assert [e.data["winner"] for e in events if e.kind == "game_over"] == ["draw"]
    assert RULESET.forms(drawn, "Carla") == []


def test_gm_kill_of_the_last_wolf_ends_the_game() -> None:
    state = _start()
    over, _ = RULESET.apply_remedy(state, "kill", {"players": ["Anna"]}, random.Random(0))
    assert over.winner == "Villaggio"
