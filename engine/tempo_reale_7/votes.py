"""The pyre vote pipeline of FAQ 36-38, and the tally with its quorum (§3.3, FAQ 34).

Order (FAQ 36): Amnesia, then Ipnosi, then the Ipnotisti's control (following
chains of Ipnotisti), then the Scrutatori one after another in a random order
(FAQ 38), each moving the votes aimed at its target onto its own vote as it
stood before the Scrutatori (the only reading that gives FAQ 38's example). A circular chain of Ipnotisti admits no single outcome: an Ipnotista
of the circle is drawn at random and his control fails for the day, like a
third-category failure, until no circle is left.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Pipeline:
    votes: dict[str, str | None]  # every living voter -> effective target (None: no vote)
    failed_hypnotists: list[str] = field(default_factory=list)


def run_pipeline(voters: list[str], submitted: dict[str, str], amnesia: set[str],
                 ipnosi: dict[str, str], control: dict[str, str], alive: set[str],
                 scrutatori: list[tuple[str, str]], rng: random.Random) -> Pipeline:
    vote: dict[str, str | None] = {v: submitted.get(v) for v in voters}
    for x in voters:
        if x in amnesia:
            vote[x] = None
        elif x in ipnosi:
            vote[x] = ipnosi[x]
    # A character under Amnesia or Ipnosi is, for the day, not under control.
    master = {x: h for x, h in control.items()
              if x in vote and h in alive and h != x and x not in amnesia and x not in ipnosi}
    failed: list[str] = []
    while True:
        cycle = _find_cycle(master)
        if not cycle:
            break
        loser = cycle[rng.randrange(len(cycle))]
        failed.append(loser)
        master = {x: h for x, h in master.items() if h != loser}
    own = dict(vote)
    for x in list(master):
        root = x
        while root in master:
            root = master[root]
        vote[x] = own.get(root)
    order = list(scrutatori)
    rng.shuffle(order)
    # FAQ 38's example (C-B-A sends everything to Y) fixes the Scrutatore's own vote
    # as it stands before any Scrutatore moves votes.
    cast = dict(vote)
    for s, x in order:
        if s not in alive:
            continue
        # A Scrutatore who casts no vote takes the votes away (FAQ 34 counts the
        # Scrutatore among the powers that can change the quorum).
        target = cast.get(s)
        for v in vote:
            if vote[v] == x:
                vote[v] = target
    return Pipeline(vote, failed)


def _find_cycle(master: dict[str, str]) -> list[str]:
    """The Ipnotisti of one circle of control, in a stable order, or []."""
    state: dict[str, int] = {}
    for start in sorted(master):
        path: list[str] = []
        node = start
        while node in master and state.get(node) is None:
            state[node] = 1
            path.append(node)
            node = master[node]
        if node in path:
            cyc = path[path.index(node):]
            return sorted({master[n] for n in cyc})
        for n in path:
            state[n] = 2
    return []


def tally(votes: dict[str, str | None]) -> dict[str, int]:
    out: dict[str, int] = {}
    for target in votes.values():
        if target is not None:
            out[target] = out.get(target, 0) + 1
    return out


def quorum(votes: dict[str, str | None], living: int) -> bool:
    """§3.3 and FAQ 34: at least half of the living, counted after every effect."""
    cast = sum(1 for t in votes.values() if t is not None)
    return cast > 0 and 2 * cast >= living
