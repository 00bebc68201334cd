"""How resolving a tempo-reale-7 night grows with tangled blockers (§3.9, FAQ 2).

Prints, for nights full of blockers that block each other in cycles, the time the
whole night takes through RULESET.resolve, the search nodes the contradiction
machinery visited, and beside it the 2^n subsets a naive enumeration of the
blockers would have to check.

    .venv/bin/python bench/bench_tempo_reale_7.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Action, GameState, Phase, setup_rng
from engine.tempo_reale_7 import RULESET
from engine.tempo_reale_7.acts import blocking_edges
from engine.tempo_reale_7.blocking import resolve_blocks
from engine.tempo_reale_7.night import acts_from


def night_state(blockers: list[tuple[str, str]]) -> GameState:
    seating = [(name, role) for name, role in blockers]
    seating += [("Lupa", "Lupo"), ("Nino", "Negromante"), ("Vera", "Veggente"), ("Ugo", "Contadino")]
    state, _ = RULESET.setup(seating, setup_rng(1), {"mayor": "Ugo"})
    state.phase = Phase("night", 2)
    return state


def cycles_of_sequestratori(n: int, size: int) -> tuple[GameState, list[Action]]:
    """n Sequestratori in rings of ``size``, each taking the next one of the ring."""
    names = [f"S{i:03d}" for i in range(n)]
    state = night_state([(x, "Sequestratore") for x in names])
    actions = []
    for start in range(0, n, size):
        ring = names[start:start + size]
        for i, x in enumerate(ring):
            actions.append(Action(x, "power", {"target": ring[(i + 1) % len(ring)]}))
    return state, actions


def stregoni_on_one_house(n: int) -> tuple[GameState, list[Action]]:
    """n Stregoni on the same player: each blocks every other one (a complete tangle)."""
    names = [f"G{i:03d}" for i in range(n)]
    state = night_state([(x, "Stregone") for x in names])
    return state, [Action(x, "power", {"target": "Ugo"}) for x in names]


def mixed_rings(n: int) -> tuple[GameState, list[Action]]:
    """Rings of Sequestratore -> Stregone -> Sequestratore..., each Stregone on the next one's target."""
    roles = ["Sequestratore", "Stregone"]
    names = [(f"M{i:03d}", roles[i % 2]) for i in range(n)]
    state = night_state(names)
    actions = []
    for start in range(0, n, 6):
        ring = names[start:start + 6]
        for i, (x, role) in enumerate(ring):
            nxt = ring[(i + 1) % len(ring)][0]
            if role == "Sequestratore":
                actions.append(Action(x, "power", {"target": nxt}))
            else:  # blocks whoever acts on the house of the next one's target
                actions.append(Action(x, "power", {"target": ring[(i + 2) % len(ring)][0]}))
    return state, actions


def measure(label: str, build, n: int, repeat: int = 5) -> float:
    state, actions = build(n)
    acts = acts_from(state, actions)
    edges = blocking_edges(acts)
    best = float("inf")
    for seed in range(repeat):
        t0 = time.perf_counter()
        RULESET.resolve(state, actions, random.Random(seed))
        best = min(best, time.perf_counter() - t0)
    outcome = resolve_blocks(list(acts), edges, random.Random(0))
    blockers = len(edges)
    print(f"{label:<44} blockers={blockers:>3}  night={best * 1000:8.2f} ms  "
          f"searched={outcome.searched:>5}  forced={len(outcome.forced):>3}  "
          f"naive subsets=2^{blockers} = {2 ** blockers:.3e}")
    return best


def main() -> None:
    print("Lupus in tempo reale 7: resolving nights of mutually blocking characters")
    cases = [(f"{n} Sequestratori in rings of 3 (odd: none)", lambda k: cycles_of_sequestratori(k, 3), n)
             for n in (6, 15, 30, 60, 120)]
    cases += [(f"{n} Sequestratori in rings of 2 (two outcomes)", lambda k: cycles_of_sequestratori(k, 2), n)
              for n in (6, 30, 60, 120)]
    cases += [(f"{n} Sequestratori in one ring", lambda k: cycles_of_sequestratori(k, k), n) for n in (15, 60, 121)]
    cases += [(f"{n} Stregoni on one house (complete tangle)", stregoni_on_one_house, n) for n in (10, 30, 60)]
    cases += [(f"{n} Sequestratori/Stregoni in mixed rings", mixed_rings, n) for n in (12, 60)]
    figures = {label: measure(label, build, n) for label, build, n in cases}
    from _support import record
    record("engine_tempo_reale_7_night_ms", {label: round(best * 1000, 3) for label, best in figures.items()})


if __name__ == "__main__":
    main()
