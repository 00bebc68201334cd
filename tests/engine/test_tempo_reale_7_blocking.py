"""The contradiction machinery of tempo-reale-7 (§3.9, FAQ 2) against a brute force."""
from __future__ import annotations

import itertools
import random

from hypothesis import given, settings, strategies as st

from engine.tempo_reale_7.blocking import count_kernels, resolve_blocks


def brute_outcomes(nodes, edges):
    """Every set E with: a in E exactly when no member of E blocks a (2^n, small n only)."""
    out = []
    for bits in itertools.product([False, True], repeat=len(nodes)):
        eff = {n for n, b in zip(nodes, bits) if b}
        if all((n in eff) == (not any(n in edges.get(b, ()) for b in eff)) for n in nodes):
            out.append(eff)
    return out


graphs = st.integers(1, 7).flatmap(lambda k: st.tuples(
    st.just(list(range(k))),
    st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), max_size=3 * k),
))


def as_edges(pairs):
    edges: dict[int, list[int]] = {}
    for a, b in pairs:
        if a != b and b not in edges.get(a, []):
            edges.setdefault(a, []).append(b)
    return edges


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_count_matches_brute_force(graph):
    nodes, pairs = graph
    edges = as_edges(pairs)
    brute = brute_outcomes(nodes, edges)
    count, one, _ = count_kernels(nodes, edges, limit=2)
    assert count == min(len(brute), 2)
    if brute:
        assert {n for n, v in one.items() if v} in brute


@settings(max_examples=300, deadline=None)
@given(graphs, st.integers(0, 10_000))
def test_resolution_is_the_single_outcome_once_the_forced_fail(graph, seed):
    nodes, pairs = graph
    edges = as_edges(pairs)
    out = resolve_blocks(nodes, edges, random.Random(seed))
    assert out.effective | out.blocked | out.forced == set(nodes)
    assert not (out.effective & (out.blocked | out.forced))
    rest = [n for n in nodes if n not in out.forced]
    sub = {b: [a for a in t if a in rest] for b, t in edges.items() if b in rest}
    assert brute_outcomes(rest, sub) == [out.effective]


def test_forced_failures_only_where_needed():
    # A chain is consistent on its own: nobody is drawn to fail.
    out = resolve_blocks("ABCD", {"A": ["B"], "B": ["C"], "C": ["D"]}, random.Random(0))
    assert out.forced == set() and out.effective == {"A", "C"}


def test_three_way_cycle_always_leaves_exactly_one_working():
    seen = set()
    for seed in range(50):
        out = resolve_blocks("EOS", {"E": ["O"], "O": ["S"], "S": ["E"]}, random.Random(seed))
        assert len(out.effective) == 1
        seen |= out.effective
    assert seen == {"E", "O", "S"}
