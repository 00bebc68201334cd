"""Death and what follows it: corruption (§1.11.1) and the mayor's succession."""
from __future__ import annotations

import random
from fractions import Fraction

from ..core import Event, GameState, master, private, public
from .roles import LUPI, ROLES, VILLAGGIO


def corruption_counters(state: GameState) -> tuple[Fraction, int]:
    c = state.data.setdefault("corruption", {"expected": "0", "actual": 0})
    return Fraction(c["expected"]), int(c["actual"])


def decide_corruption(expected: Fraction, actual: int, p: Fraction, rng: random.Random) -> bool:
    """Draw a corruption with probability p, then force it when the bound demands.

    §1.11.1: at every moment |actual - expected| <= 1, counted per death event.
    """
    new_expected = expected + p
    corrupt = rng.random() < p
    if actual + (1 if corrupt else 0) - new_expected > 1:
        corrupt = False
    if new_expected - (actual + (1 if corrupt else 0)) > 1:
        corrupt = True
    return corrupt


def kill(state: GameState, name: str, cause: str, rng: random.Random, events: list[Event]) -> None:
    """Kill a living player: death event, corruption at death, mayor succession."""
    p = state.player(name)
    if not p.alive:
        return
    p.alive = False
    events.append(public("death", player=name, cause=cause))
    if p.faction == VILLAGGIO:
        expected, actual = corruption_counters(state)
        prob = ROLES[p.role].corruption
        corrupt = decide_corruption(expected, actual, prob, rng)
        state.data["corruption"] = {
            "expected": str(expected + prob),
            "actual": actual + (1 if corrupt else 0),
        }
        if corrupt:
            p.faction = LUPI
            p.data["corrupt"] = True
            # Ruling (docs/rulings.md): the corrupted ghost is told privately,
            # the Masters see it; nobody else learns it.
            events.append(private(name, "corrupted", player=name))
            events.append(master("corrupted", player=name))
    if state.mayor == name:
        succeed_mayor(state, rng, events)


def succeed_mayor(state: GameState, rng: random.Random, events: list[Event]) -> None:
    vice = state.data.get("vice")
    living = [p.name for p in state.alive()]
    if vice and vice in living:
        new = vice
        how = "vice"
    elif living:
        new = rng.choice(living)
        how = "random"
    else:
        new = None
        how = "none"
    state.mayor = new
    state.data["vice"] = None
    events.append(public("mayor", player=new, how=how))
