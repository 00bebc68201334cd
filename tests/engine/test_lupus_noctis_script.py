"""The narrator's night script: every role called, dead or alive, always in one order."""
from __future__ import annotations

import random

import pytest

from engine.core import Action, setup_rng
from engine.interface import IdentifyTap, PowerTap
from engine.lupus_noctis.roles import CALL_ORDER, CONTADINO, ROLES

from lupus_noctis_play import TABLE, R, play, seating_for


@pytest.mark.parametrize("seed", range(40))
def test_every_role_of_the_composition_is_called_dead_or_alive_in_one_order(seed):
    composition = None
    nights = 0
    orders = {}
    for state, _actions, _ in play(seed, n=9 + seed % 12, moments=200):
        if state.phase.kind != "night":
            continue
        composition = state.data["composition"]
        calls = TABLE.night_script(state)
        roles = [c.role for c in calls]
        first = state.phase.number == 1
        expected = {r for r in composition if r != CONTADINO and (first or ROLES[r].target)}
        assert set(roles) == expected and len(roles) == len(expected)
        assert roles == sorted(roles, key=CALL_ORDER.index)
        orders.setdefault(first, roles)
        assert orders[first] == roles  # the same calls every night, whoever has died
        for call in calls:
            assert call.holders == tuple(p.name for p in state.players if p.role == call.role)
            assert set(call.living) <= set(call.holders)
            for said in (call.open, call.do, call.close):
                assert said.it and said.en
        nights += 1
    assert nights >= 2 and composition is not None


def test_a_dead_role_is_still_called_with_the_same_words_and_nothing_to_tap():
    seating = [("Anna", "Licantropo"), ("Bruno", "Veggente"), ("Carla", "Contadino"),
               ("Dario", "Contadino"), ("Elio", "Medium"), ("Fede", "Contadino")]
    state, _ = R.setup(seating, setup_rng(0), {"unlucky": "Carla"})
    state.phase = state.phase.__class__("night", 2)
    alive_calls = TABLE.night_script(state)
    state.player("Bruno").alive = False
    dead_calls = TABLE.night_script(state)
    assert [c.role for c in alive_calls] == [c.role for c in dead_calls] == \
        ["Licantropo", "Veggente", "Medium"]
    seer_alive, seer_dead = alive_calls[1], dead_calls[1]
    assert (seer_alive.open, seer_alive.do, seer_alive.close) == (seer_dead.open, seer_dead.do, seer_dead.close)
    assert seer_alive.tap.actor == "Bruno" and "Anna" in seer_alive.tap.choices
    assert seer_dead.tap.actor is None and seer_dead.tap.choices == ()
    # The Medium, alive, now has a dead player to look at.
    assert dead_calls[2].tap.choices == ("Bruno",)


def test_the_first_night_asks_the_narrator_to_identify_each_role():
    state, _ = R.setup(seating_for(12, random.Random(3)), setup_rng(3), {})
    calls = TABLE.night_script(state)
    assert [c.role for c in calls] == [r for r in CALL_ORDER if r != CONTADINO]
    for call in calls:
        assert isinstance(call.tap, IdentifyTap)
        assert call.tap.count == len(call.holders) == state.data["composition"][call.role]
        assert list(call.tap.choices) == state.names()
    assert TABLE.night_script(R.resolve(state, [], setup_rng(0)).state) == ()  # morning: no script


@pytest.mark.parametrize("seed", range(20))
def test_what_the_script_offers_the_narrator_is_accepted(seed):
    checked = 0
    for state, _, _ in play(seed, n=10, moments=30):
        for call in TABLE.night_script(state):
            tap = call.tap
            if not isinstance(tap, PowerTap) or tap.actor is None:
                continue
            for target in tap.choices:
                R.validate(state, Action(tap.actor, "power", {tap.key: target}))
                checked += 1
    assert checked > 0  # ten players reach night 2 with a living Licantropo
