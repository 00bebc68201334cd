"""Time to resolve a night and a day of a 60-player Lupus LIVE! 12 game.

The night has every character of both factions using its power and fifteen ghosts
(plus a Satanista) performing rituals; the day has every living player voting,
with the vote rituals of the night before in effect. Prints the median of
repeated runs of the pure engine. Run: python bench/bench_lupus_live_12.py
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Action, Phase, phase_rng, setup_rng
from engine.lupus_live_12 import RULESET
from engine.lupus_live_12.roles import ROLES

RUNS = 50
N = 60
GHOSTS = 15


def seating() -> list[tuple[str, str]]:
    roles = list(ROLES)  # every character once (20)
    roles += ["Lupo Mannaro"] * 6 + ["Veggente", "Mago", "Medium", "Guardia del corpo",
                                     "Sequestratore", "Fattucchiera", "Cacciatore"]
    roles += ["Contadino"] * (N - len(roles))
    return [(f"P{i:02d}", role) for i, role in enumerate(roles)]


def start():
    seats = seating()
    ghosts = [name for name, role in seats if role == "Contadino"][:GHOSTS]
    state, _ = RULESET.setup(seats, setup_rng(1), {"mayor": "P00", "dead": ghosts})
    state.phase = Phase("night", 3)  # wolves may kill, the Missile must choose
    return state


def night_actions(state, rng: random.Random) -> list[Action]:
    acts: list[Action] = []
    for p in state.players:
        for form in RULESET.forms(state, p.name):
            field = form.fields[0]
            if form.kind == "power" and field.choices:
                acts.append(Action(p.name, "power", {"target": rng.choice(field.choices)}))
            elif form.kind == "question":
                acts.append(Action(p.name, "question", {"question": "C'è un Rasputin?"}))
    wolves = [p.name for p in state.alive() if p.role == "Lupo Mannaro"]
    victim = next(p.name for p in state.alive() if p.role == "Contadino")
    acts = [a for a in acts if a.player not in wolves]
    acts += [Action(w, "power", {"target": victim}) for w in wolves]
    ghosts = [p.name for p in state.dead()]
    satanista = next(p.name for p in state.alive() if p.role == "Satanista")
    living = [p.name for p in state.alive()]
    plan = [("Omicidio", ghosts[0:3] + [satanista], rng.choice(living), None),
            ("Impedimento", ghosts[3:7], rng.choice(living), None),
            ("Spionaggio", ghosts[7:11], rng.choice(living), None),
            ("Voto diretto", ghosts[11:15], rng.choice(living), 3)]
    for ritual, members, target, n in plan:
        for m in members:
            args = {"ritual": ritual, "with": [x for x in members if x != m], "target": target}
            if n:
                args["n"] = n
            acts.append(Action(m, "ritual", args))
    return [RULESET.validate(state, a) for a in acts]


def day_actions(state, rng: random.Random) -> list[Action]:
    living = [p.name for p in state.alive()]
    return [RULESET.validate(state, Action(n, "vote", {"vote": rng.choice(living[:6])}))
            for n in living]


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    rng = random.Random(0)
    state = start()
    acts = night_actions(state, rng)
    gm = {"answers": {p.name: "yes" for p in state.players}}
    night = [timed(lambda: RULESET.resolve(state, acts, phase_rng(0, state.phase), gm))
             for _ in range(RUNS)]
    res = RULESET.resolve(state, acts, phase_rng(0, state.phase), gm)
    rituals = sum(1 for e in res.events if e.kind == "ritual")
    day_state = res.state
    votes = day_actions(day_state, rng)
    day = [timed(lambda: RULESET.resolve(day_state, votes, phase_rng(0, day_state.phase)))
           for _ in range(RUNS)]
    print(f"lupus-live-12, {N} players ({len(state.alive())} alive, {GHOSTS} ghosts + a Satanista "
          f"in rituals, {len(acts)} night actions, {rituals} ritual successes told):")
    print(f"  night: median {statistics.median(night) * 1000:.2f} ms over {RUNS} runs")
    print(f"  day ({len(votes)} votes): median {statistics.median(day) * 1000:.2f} ms over {RUNS} runs")
    from _support import record
    record("engine_lupus_live_12_rituals", {"players": N, "runs": RUNS,
                                            "night_ms_median": round(statistics.median(night) * 1000, 3),
                                            "day_ms_median": round(statistics.median(day) * 1000, 3)})


if __name__ == "__main__":
    main()
