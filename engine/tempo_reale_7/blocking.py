"""Who blocks whom, and the third-category failures when that admits no single outcome.

§3.9 and FAQ 2: the blocking powers (Sequestratore, Stregone, Esorcista, Sciamano,
Spettro dell'Occultamento) can block each other. An outcome is a set E of
effective actors such that an actor is effective exactly when no effective
actor blocks it (a kernel of the "blocks" graph). When there is none, or more
than one, characters are drawn at random to fail ("di terza categoria") until
exactly one outcome remains.

Counting outcomes over every subset of blockers is 2^n. Instead the graph is
split into strongly connected components and walked in topological order:
a component whose upstream is settled has its external blockers fixed, an
acyclic part is decided outright, and only a tangled component is searched,
with unit propagation, so its cost depends on its own size and shape alone.
Contradictions are settled where they are: a failure is drawn among the
characters of the tangled component (docs/rulings-tempo-reale-7.md).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Mapping

Node = Hashable


@dataclass
class BlockOutcome:
    effective: set = field(default_factory=set)  # actors whose power works (as far as blocking goes)
    blocked: set = field(default_factory=set)  # blocked by an effective blocker
    forced: set = field(default_factory=set)  # third-category failures drawn at random
    searched: int = 0  # search nodes visited, for the bench


def strongly_connected(nodes: Iterable[Node], edges: Mapping[Node, Iterable[Node]]) -> list[list[Node]]:
    """Tarjan's algorithm, iterative; components come out in reverse topological order."""
    nodes = list(nodes)
    inside = set(nodes)
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    on_stack: set[Node] = set()
    stack: list[Node] = []
    out: list[list[Node]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter([m for m in edges.get(root, ()) if m in inside]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter([m for m in edges.get(w, ()) if m in inside])))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def count_kernels(nodes: list[Node], edges: Mapping[Node, Iterable[Node]], limit: int = 2) -> tuple[int, dict, int]:
    """How many outcomes (up to ``limit``) the subgraph on ``nodes`` admits, and one of them.

    Returns (count, one assignment {node: True if effective}, search nodes visited).
    """
    inside = set(nodes)
    succ = {n: [m for m in edges.get(n, ()) if m in inside] for n in nodes}
    pred: dict[Node, list[Node]] = {n: [] for n in nodes}
    for n in nodes:
        for m in succ[n]:
            pred[m].append(n)
    found: list[dict] = []
    visited = 0

    def propagate(state: dict, queue: list[Node]) -> bool:
        while queue:
            n = queue.pop()
            for m in [n] + succ[n]:
                val = state.get(m)
                ins = [state.get(p) for p in pred[m]]
                if True in ins:
                    if val is True:
                        return False
                    if val is None:
                        state[m] = False
                        queue.append(m)
                    continue
                unknown = [p for p in pred[m] if state.get(p) is None]
                if not unknown:  # every blocker of m fails: m works
                    if val is False:
                        return False
                    if val is None:
                        state[m] = True
                        queue.append(m)
                elif val is False and len(unknown) == 1:
                    state[unknown[0]] = True
                    queue.append(unknown[0])
        return True

    def search(state: dict) -> None:
        nonlocal visited
        visited += 1
        if len(found) >= limit:
            return
        free = [n for n in nodes if state.get(n) is None]
        if not free:
            found.append(dict(state))
            return
        n = free[0]
        for choice in (True, False):
            trial = dict(state)
            trial[n] = choice
            if propagate(trial, [n]):
                search(trial)
            if len(found) >= limit:
                return

    start: dict = {}
    if propagate(start, list(nodes)):
        search(start)
    return len(found), (found[0] if found else {}), visited


def resolve_blocks(actors: Iterable[Node], blocks: Mapping[Node, Iterable[Node]],
                   rng: random.Random) -> BlockOutcome:
    """Settle who is effective given ``blocks`` (blocker -> the actors it makes fail)."""
    actors = list(actors)
    edges = {b: [a for a in targets if a != b] for b, targets in blocks.items()}
    out = BlockOutcome()
    involved = set(edges)
    for targets in edges.values():
        involved.update(targets)
    ordered = [a for a in actors if a in involved]
    pred: dict[Node, list[Node]] = {a: [] for a in ordered}
    for b, targets in edges.items():
        for a in targets:
            if a in pred and b in pred:
                pred[a].append(b)
    status: dict[Node, bool] = {}
    _settle(ordered, edges, pred, status, rng, out)
    for a in actors:
        if a in out.forced:
            continue
        if any(status.get(b) for b in pred.get(a, ())):
            out.blocked.add(a)
        else:
            out.effective.add(a)
    return out


def _settle(nodes: list[Node], edges: Mapping[Node, Iterable[Node]], pred: dict,
            status: dict, rng: random.Random, out: BlockOutcome) -> None:
    # Tarjan yields sinks first; walk sources first.
    for comp in reversed(strongly_connected(nodes, edges)):
        free = []
        for n in comp:
            if n in out.forced:
                status[n] = False
            elif any(status.get(b) for b in pred[n] if b not in comp):
                status[n] = False  # blocked from upstream: its own blocking does nothing
            else:
                free.append(n)
        if len(free) <= 1:
            for n in free:
                status[n] = True  # no self-blocking, so a lone node works
            continue
        sub = {n: [m for m in edges.get(n, ()) if m in free] for n in free}
        count, assignment, visited = count_kernels(free, sub)
        out.searched += visited
        if count == 1:
            status.update(assignment)
            continue
        # Contradiction (none, or more than one): one character of the tangle fails
        # at random; what is left may split into smaller components.
        loser = free[rng.randrange(len(free))]
        out.forced.add(loser)
        status[loser] = False
        _settle([n for n in free if n != loser], edges, pred, status, rng, out)
