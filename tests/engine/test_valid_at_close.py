"""engine.core.valid_at_close: every ruleset judges a moment's submissions again as it
closes, with the one rule written once. A refused one is left out and its sender told
why, worded with the refusal's parameters; the Lupus games judge only each player's
last choice of a kind, Complots every answer (the last that holds counts)."""
from __future__ import annotations

import random

import pytest

from engine.core import Action, phase_rng, setup_rng
from engine.lupus_common.results import results_for
from engine.interface import Viewer
from engine.registry import get_ruleset

# A night where Dario's power aims at Carla, and Carla is dead when the night closes.
LUPUS = {
    "lupus-live-12": [("Anna", "Lupo Mannaro"), ("Bruno", "Contadino"), ("Carla", "Contadino"),
                      ("Dario", "Veggente"), ("Elena", "Contadino")],
    "tempo-reale-7": [("Anna", "Lupo"), ("Bruno", "Contadino"), ("Carla", "Contadino"),
                      ("Dario", "Veggente"), ("Elena", "Negromante")],
}


def _night_with_a_target_dead_at_close(key: str):
    rules = get_ruleset(key)
    state, _ = rules.setup(LUPUS[key], setup_rng(0), {"mayor": "Bruno"})
    sent = Action("Dario", "power", {"target": "Carla"})
    rules.validate(state, sent)  # valid when sent
    state.player("Carla").alive = False  # the Masters killed her before the night closed
    return rules, rules.resolve(state, [sent], phase_rng(0, state.phase), {})


@pytest.mark.parametrize("key", sorted(LUPUS))
def test_an_action_no_longer_valid_is_dropped_and_its_sender_told_why_by_name(key):
    rules, res = _night_with_a_target_dead_at_close(key)
    (refused,) = [e for e in res.events if e.kind == "rejected_at_resolution"]
    assert refused.to == ["Dario"] and refused.visibility == "private"
    assert refused.data["code"] == "target_not_alive"
    assert refused.data["params"] == {"target": "Carla"}
    for lang in ("it", "en"):
        line = rules.describe(rules.visible(refused, Viewer(player="Dario")), lang, Viewer(player="Dario"))
        assert "Carla" in line and "{" not in line, line
    assert results_for(res, "Dario") == []  # the power was not used


def test_lupus_the_last_choice_of_a_kind_counts_even_when_it_no_longer_holds():
    """§1.6: a choice is changed, not withdrawn: Dario's later aim at the dead Carla
    replaces his valid earlier one at Anna, and the night closes with no power of his."""
    rules = get_ruleset("lupus-live-12")
    state, _ = rules.setup(LUPUS["lupus-live-12"], setup_rng(0), {"mayor": "Bruno"})
    first, second = Action("Dario", "power", {"target": "Anna"}), Action("Dario", "power", {"target": "Carla"})
    state.player("Carla").alive = False
    res = rules.resolve(state, [first, second], phase_rng(0, state.phase), {})
    assert [e.data["code"] for e in res.events if e.kind == "rejected_at_resolution"] == ["target_not_alive"]
    assert results_for(res, "Dario") == []
    alone = rules.resolve(state, [first], phase_rng(0, state.phase), {})
    assert results_for(alone, "Dario") == [{"answer": "yes"}]  # what the earlier one alone gives


def test_complots_every_answer_is_judged_and_the_last_that_holds_counts():
    rules = get_ruleset("complots")
    hands = {"Anna": ["Duchessa", "Capitano"], "Bruno": ["Contessa", "Assassino"],
             "Carla": ["Ambasciatore", "Contessa"]}
    state, _ = rules.setup([(n, "") for n in hands], setup_rng(0),
                           {"variant": "ambasciatore", "hands": hands, "court": [], "coins": {}})
    state = rules.resolve(state, [Action("Anna", "turn", {"action": "tax"})],
                          phase_rng(0, state.phase)).state
    answers = [Action("Bruno", "answer", {"answer": "challenge"}),
               Action("Bruno", "answer", {"answer": "block"})]  # nothing blocks a tax
    res = rules.resolve(state, answers, phase_rng(0, state.phase))
    (refused,) = [e for e in res.events if e.kind == "rejected_at_resolution"]
    assert refused.to == ["Bruno"] and refused.data["code"] == "cannot_block"
    assert [e.data["player"] for e in res.events if e.kind == "challenge"] == ["Bruno"]


def test_lupus_noctis_refuses_at_close_with_the_same_rule():
    rules = get_ruleset("lupus-noctis")
    seating = [("Anna", "Licantropo"), ("Bruno", "Contadino"), ("Carla", "Contadino"),
               ("Dario", "Veggente"), ("Elena", "Contadino")]
    state, _ = rules.setup(seating, random.Random(0), {"unlucky": "Bruno"})
    vote = Action("Carla", "vote", {"vote": "Anna"})
    res = rules.resolve(state, [vote], phase_rng(0, state.phase), {})  # a vote at night
    (refused,) = [e for e in res.events if e.kind == "rejected_at_resolution"]
    assert refused.to == ["Carla"] and "code" in refused.data and "params" in refused.data
