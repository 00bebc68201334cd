"""Ties of Lupus Noctis: the unlucky seat, checked against a walk round the table."""
from __future__ import annotations

import random

import pytest

from engine.core import GameState, Phase, Player
from engine.lupus_noctis.tiebreak import by_bad_luck, most_voted

NAMES = [f"P{i}" for i in range(12)]


def table(n: int, unlucky: int) -> GameState:
    players = [Player(NAMES[i], "Contadino", "Villaggio", "buona") for i in range(n)]
    return GameState("lupus-noctis", players, Phase("morning", 1), data={"unlucky": NAMES[unlucky]})


def walk_outward(n: int, unlucky: int) -> list[str]:
    """The seats in the order bad luck reaches them, by walking: the unlucky seat, then
    one step clockwise, one step counter-clockwise, two steps clockwise..."""
    order = [unlucky]
    for step in range(1, n):
        for seat in ((unlucky + step) % n, (unlucky - step) % n):
            if seat not in order:
                order.append(seat)
    return [NAMES[s] for s in order]


@pytest.mark.parametrize("n", range(3, 13))
def test_bad_luck_walks_out_from_the_unlucky_seat_clockwise_first(n):
    checked = 0
    for unlucky in range(n):
        state = table(n, unlucky)
        assert by_bad_luck(state, NAMES[:n]) == walk_outward(n, unlucky)
        checked += 1
    assert checked == n


def test_the_ends_of_the_list_are_neighbours():
    state = table(7, 6)
    assert by_bad_luck(state, ["P3", "P0"]) == ["P0", "P3"]  # P0 is clockwise next to P6
    state = table(7, 0)
    assert by_bad_luck(state, ["P2", "P6"]) == ["P6", "P2"]  # P6 sits just before P0


def reference_top(tally: dict[str, int], candidates: list[str], order: list[str], k: int) -> list[str]:
    """Most votes first; among equal counts, whoever the outward walk reaches first."""
    return sorted(candidates, key=lambda c: (-tally.get(c, 0), order.index(c)))[:k]


@pytest.mark.parametrize("seed", range(200))
def test_the_run_off_matches_a_reference_over_random_tallies(seed):
    rng = random.Random(seed)
    n = rng.randrange(3, 13)
    unlucky = rng.randrange(n)
    state = table(n, unlucky)
    candidates = NAMES[:n]
    tally: dict[str, int] = {}
    for _ in range(rng.randrange(0, n + 1)):
        target = rng.choice(candidates[: rng.randrange(1, n + 1)])
        tally[target] = tally.get(target, 0) + 1
    chosen, tie = most_voted(state, tally, candidates, 2)
    assert chosen == reference_top(tally, candidates, walk_outward(n, unlucky), 2)
    counts = sorted((tally.get(c, 0) for c in candidates), reverse=True)
    assert tie == (counts[1] == counts[2])


def test_a_clear_result_breaks_no_tie():
    state = table(5, 0)
    assert most_voted(state, {"P3": 3, "P4": 1}, NAMES[:5], 2) == (["P3", "P4"], False)
    assert most_voted(state, {"P3": 1, "P4": 1}, ["P3", "P4"], 1) == (["P4"], True)
