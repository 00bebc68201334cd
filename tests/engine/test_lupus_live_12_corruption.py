"""§1.11.1: actual and expected corruptions at death never differ by more than 1."""
from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from engine.core import PRIVATE
from engine.lupus_live_12.death import decide_corruption
from engine.lupus_live_12.roles import ROLES, VILLAGGIO

from engine.lupus_live_12.autoplay import play_phase, random_game

PROBS = sorted({r.corruption for r in ROLES.values() if r.faction == VILLAGGIO})


@given(st.lists(st.sampled_from(PROBS), max_size=80), st.integers(0, 2**32))
def test_bound_holds_after_every_death(probs: list[Fraction], seed: int) -> None:
    rng = random.Random(seed)
    expected, actual = Fraction(0), 0
    for p in probs:
        if decide_corruption(expected, actual, p, rng):
            actual += 1
        expected += p
        assert abs(actual - expected) <= 1


def test_a_single_death_is_corrupted_with_its_probability() -> None:
    rng = random.Random(7)
    draws = 20000
    hits = sum(decide_corruption(Fraction(0), 0, Fraction("0.3"), rng) for _ in range(draws))
    assert abs(hits / draws - 0.3) < 0.02


def test_the_bound_forces_when_it_must() -> None:
    rng = random.Random(1)
    # Expected 0.8 with none corrupted: a 0.4 death must be corrupted (1.2 - 0 > 1).
    assert all(decide_corruption(Fraction("0.8"), 0, Fraction("0.4"), rng) for _ in range(200))
    # One corrupted after expected 0.3: another 0.3 death can never be (2 - 0.6 > 1).
    assert not any(decide_corruption(Fraction("0.3"), 1, Fraction("0.3"), rng) for _ in range(200))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_long_random_games_keep_the_bound_per_death_event(seed: int) -> None:
    """Recount from the events alone: every Villaggio death adds its role's probability."""
    rng = random.Random(seed)
    state = random_game(rng, rng.randint(8, 24))
    expected, actual = Fraction(0), 0
    for _ in range(40):
        if state.over:
            break
        before = {p.name: (p.role, p.faction) for p in state.players}
        res, _ = play_phase(state, rng, seed)
        for e in res.events:
            if e.kind == "death":
                # The previous death and its corruption, if any, are complete here.
                assert abs(actual - expected) <= 1
                role, faction = before[e.data["player"]]
                if faction == VILLAGGIO:
                    expected += ROLES[role].corruption
            if e.kind == "corrupted" and e.visibility == PRIVATE and e.data["how"] == "death":
                actual += 1
        assert abs(actual - expected) <= 1
        state = res.state
        assert Fraction(state.data["corruption"]["expected"]) == expected
        assert state.data["corruption"]["actual"] == actual


def test_only_the_corrupted_and_the_masters_are_told() -> None:
    from engine.core import phase_rng, setup_rng
    from engine.lupus_live_12 import RULESET
    seating = [("Anna", "Lupo Mannaro"), ("Bruno", "Lupo Mannaro"), ("Carla", "Missile"),
               ("Dario", "Missile"), ("Elena", "Missile"), ("Fabio", "Guardia del corpo")]
    for seed in range(10):
        state, _ = RULESET.setup(seating, setup_rng(seed), {"mayor": "Fabio"})
        for _ in range(3):  # night 1, day 1, night 2: the three Missili make no choice
            res = RULESET.resolve(state, [], phase_rng(seed, state.phase))
            state = res.state
        corrupted = {p.name for p in state.players if p.data.get("corrupt")}
        assert corrupted, "1.2 expected corruptions force at least one"
        told = [e for e in res.events if e.kind == "corrupted"]
        for e in told:
            assert e.visibility in ("private", "master")
            if e.visibility == "private":
                assert e.to == [e.data["player"]] and e.data["player"] in corrupted
        assert {e.data["player"] for e in told if e.visibility == "private"} == corrupted
