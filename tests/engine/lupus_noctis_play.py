"""Random legal games of Lupus Noctis, for the property tests."""
from __future__ import annotations

import random
from typing import Iterator

from engine.core import Action, Event, GameState, Resolution, phase_rng, setup_rng
from engine.interface import TableScript
from engine.registry import get_ruleset

R = get_ruleset("lupus-noctis")
# The narrator's night, as the service asks for it: by the ability's type.
TABLE = R.ability(TableScript)


def seating_for(n: int, rng: random.Random) -> list[tuple[str, str]]:
    roles = [role for role, count in R.default_composition(n).items() for _ in range(count)]
    rng.shuffle(roles)
    return [(f"P{i:02d}", role) for i, role in enumerate(roles)]


def play(seed: int, n: int | None = None, moments: int = 60,
         options: dict | None = None) -> Iterator[tuple[GameState, list[Action], Resolution]]:
    """Deal a standard village and play random legal choices until the end: yields each
    moment's state before resolution, the actions taken and the resolution."""
    rng = random.Random(seed)
    n = n or rng.randrange(R.min_players, 21)
    state, _ = R.setup(seating_for(n, rng), setup_rng(seed), options or {})
    for _ in range(moments):
        if state.over:
            return
        actions = []
        for p in state.players:
            for form in R.forms(state, p.name):
                if rng.random() < 0.15:
                    continue  # somebody forgets, or the Apprendista waits
                args = {f.name: rng.choice(f.choices) for f in form.fields}
                actions.append(R.validate(state, Action(p.name, form.kind, args)))
        res = R.resolve(state, actions, phase_rng(seed, state.phase))
        yield state, actions, res
        state = res.state


def setup_events(seed: int, n: int) -> list[Event]:
    rng = random.Random(seed)
    return R.setup(seating_for(n, rng), setup_rng(seed), {})[1]
