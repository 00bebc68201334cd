"""The vote pipeline of FAQ 36-38, on its own."""
from __future__ import annotations

import random

from engine.tempo_reale_7.votes import quorum, run_pipeline, tally

VOTERS = ["A", "B", "C", "H1", "H2", "X", "Y", "Z"]


def pipe(submitted, amnesia=(), ipnosi=None, control=None, scrutatori=(), seed=0, alive=None):
    return run_pipeline(VOTERS, submitted, set(amnesia), ipnosi or {}, control or {},
                        set(alive or VOTERS), list(scrutatori), random.Random(seed))


def test_amnesia_then_ipnosi_then_control():
    p = pipe({"A": "X", "B": "X", "H1": "Y"}, amnesia=["A"], ipnosi={"A": "Z", "B": "Z"},
             control={"C": "H1"})
    assert p.votes["A"] is None and p.votes["B"] == "Z" and p.votes["C"] == "Y"


def test_dead_ipnotista_controls_nobody():
    p = pipe({"C": "X", "H1": "Y"}, control={"C": "H1"}, alive=[v for v in VOTERS if v != "H1"])
    assert p.votes["C"] == "X"


def test_cycle_of_ipnotisti_fails_one_of_them():
    outcomes = set()
    for seed in range(30):
        p = pipe({"H1": "X", "H2": "Y"}, control={"H1": "H2", "H2": "H1"}, seed=seed)
        assert len(p.failed_hypnotists) == 1
        assert p.votes["H1"] == p.votes["H2"]
        outcomes.add(p.votes["H1"])
    assert outcomes == {"X", "Y"}


def test_quorum_counts_votes_after_the_pipeline():
    p = pipe({"C": "X", "A": "X", "B": "X", "Y": "X"}, control={"C": "H1"})
    assert tally(p.votes) == {"X": 3}
    assert not quorum(p.votes, 8) and quorum({"a": "X", "b": "X", "c": None, "d": "Y"}, 6)
