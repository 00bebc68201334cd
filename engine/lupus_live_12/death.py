"""Death and return: corruption (§1.11.1), the mayor's succession (§3), resurrection."""
from __future__ import annotations

import random
from fractions import Fraction

from ..core import Event, GameState, master, private, public
from .roles import LUPI, ROLES, VILLAGGIO


def corruption_counters(state: GameState) -> tuple[Fraction, int]:
    c = state.data.setdefault("corruption", {"expected": "0", "actual": 0})
    return Fraction(c["expected"]), int(c["actual"])


def decide_corruption(expected: Fraction, actual: int, p: Fraction, rng: random.Random) -> bool:
    """Draw a corruption with probability p, then force it either way when the bound demands.

    §1.11.1: at every moment |actual - expected| <= 1, where expected is the sum
    of the probabilities of every Villaggio death event so far and actual the
    number of corruptions at death. Before this death the bound holds, so after
    adding p in [0, 1] at most one of the two corrections can be needed and it
    always restores the bound.
    """
    new_expected = expected + p
    # Always draw, so the random stream does not depend on the forced cases.
    corrupt = rng.random() < p
    if actual + (1 if corrupt else 0) - new_expected > 1:
        corrupt = False
    if new_expected - (actual + (1 if corrupt else 0)) > 1:
        corrupt = True
    return corrupt


def tell_corrupted(name: str, events: list[Event], how: str) -> None:
    # Ruling (docs/rulings.md, "who is told of a corruption"): only the
    # corrupted ghost (who must know for whom it now plays) and the Masters.
    events.append(private(name, "corrupted", player=name, how=how))
    events.append(master("corrupted", player=name, how=how))


def kill(state: GameState, name: str, cause: str, rng: random.Random, events: list[Event]) -> bool:
    """Kill a living player: death event, corruption at death, mayor succession.

    Returns False if the player was already dead (nothing happens).
    """
    p = state.player(name)
    if not p.alive:
        return False
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
        events.append(master("corruption_draw", player=name, probability=str(prob),
                             corrupt=corrupt, expected=str(expected + prob),
                             actual=actual + (1 if corrupt else 0)))
        if corrupt:
            p.faction = LUPI
            p.data["corrupt"] = True
            tell_corrupted(name, events, "death")
    if state.mayor == name:
        succeed_mayor(state, rng, events)
    return True


def revive(state: GameState, name: str, cause: str, events: list[Event]) -> bool:
    """Bring a dead player back with the role and faction she had (§1.11, 4.9, 1.9)."""
    p = state.player(name)
    if p.alive:
        return False
    p.alive = True
    events.append(public("revive", player=name, cause=cause))
    return True


def succeed_mayor(state: GameState, rng: random.Random, events: list[Event]) -> None:
    """§3: the last designated Vicesindaco becomes mayor; if there is none alive, a random one."""
    vice = state.data.get("vice")
    living = [p.name for p in state.alive()]
    if vice and vice in living:
        new, how = vice, "vice"
    elif living:
        new, how = rng.choice(living), "random"
    else:
        new, how = None, "none"
    state.mayor = new
    # The designation was the dead mayor's; the new mayor designates her own.
    state.data["vice"] = None
    events.append(public("mayor", player=new, how=how))
