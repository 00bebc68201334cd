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
from typing import Hashable, Iterable, Mapping, TypeVar

# Whatever names an actor (the night passes player names, the tests small integers).
Node = TypeVar("Node", bound=Hashable)


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
    A backtracking search with unit propagation kept by counters (how many of a
    node's blockers are known to work, how many are still open), so a ring is
    decided by one guess and a complete tangle costs O(n^2) per guess.
    """
    index = {n: i for i, n in enumerate(nodes)}
    k = len(nodes)
    succ = [[index[m] for m in edges.get(n, ()) if m in index] for n in nodes]
    pred: list[list[int]] = [[] for _ in range(k)]
    for i in range(k):
        for j in succ[i]:
            pred[j].append(i)
    found: list[list] = []
    visited = 0

    def assign(val: list, working: list, open_: list, i: int, v: bool) -> bool:
        queue = [(i, v)]
        while queue:
            i, v = queue.pop()
            if val[i] is not None:
                if val[i] != v:
                    return False
                continue
            val[i] = v
            for j in succ[i]:
                open_[j] -= 1
                if v:
                    working[j] += 1
            for j in [i] + succ[i]:
                if working[j] > 0:
                    if val[j] is True:
                        return False
                    if val[j] is None:
                        queue.append((j, False))
                elif open_[j] == 0:
                    if val[j] is False:
                        return False
                    if val[j] is None:
                        queue.append((j, True))
                elif val[j] is False and open_[j] == 1:
                    p = next(q for q in pred[j] if val[q] is None)
                    queue.append((p, True))
        return True

    def search(val: list, working: list, open_: list) -> None:
        nonlocal visited
        visited += 1
        free = next((i for i in range(k) if val[i] is None), None)
        if free is None:
            found.append(val)
            return
        for choice in (True, False):
            trial = (val[:], working[:], open_[:])
            if assign(*trial, free, choice):
                search(*trial)
            if len(found) >= limit:
                return

    val: list = [None] * k
    working = [0] * k
    open_ = [len(pred[i]) for i in range(k)]
    ok = True
    for i in range(k):
        if val[i] is None and open_[i] == 0:  # nobody inside blocks it: it works
            ok = ok and assign(val, working, open_, i, True)
    if ok:
        search(val, working, open_)
    one = {nodes[i]: bool(v) for i, v in enumerate(found[0])} if found else {}
    return len(found), one, visited


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
        members = set(comp)
        free = []
        for n in comp:
            if n in out.forced:
                status[n] = False
            elif any(status.get(b) for b in pred[n] if b not in members):
                status[n] = False  # blocked from upstream: its own blocking does nothing
            else:
                free.append(n)
        if len(free) <= 1:
            for n in free:
                status[n] = True  # no self-blocking, so a lone node works
            continue
        free_set = set(free)
        sub = {n: [m for m in edges.get(n, ()) if m in free_set] for n in free}
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
