"""Random legal games of tempo-reale-7: the engine never crashes and keeps its invariants."""
from __future__ import annotations

import random

import pytest

from engine.core import Action, phase_rng, setup_rng
from engine.lupus_common.results import deaths
from engine.registry import get_ruleset
from engine.tempo_reale_7.roles import FACTIONS, ROLES

R = get_ruleset("tempo-reale-7")


def random_game(seed: int):
    rng = random.Random(seed)
    by_faction = {f: [r.name for r in ROLES.values() if r.faction == f] for f in FACTIONS}
    roles = ["Lupo", "Negromante", "Contadino"]
    roles += [rng.choice(by_faction[rng.choice(FACTIONS)]) for _ in range(rng.randint(5, 14))]
    seating = [(f"P{i:02d}", role) for i, role in enumerate(roles)]
    rng.shuffle(seating)
    return seating, rng


@pytest.mark.parametrize("seed", range(60))
def test_random_games_keep_invariants(seed):
    seating, rng = random_game(seed)
    state, _ = R.setup(seating, setup_rng(seed), {})
    for _ in range(12):
        if state.over:
            break
        actions = []
        acted = set()
        for p in state.players:
            for form in R.forms(state, p.name):
                if rng.random() < 0.3 or not all(f.choices for f in form.fields):
                    continue
                args = {f.name: rng.choice(f.choices) for f in form.fields}
                actions.append(R.validate(state, Action(p.name, form.kind, args)))
                if form.kind == "power":
                    acted.add(p.name)
        before = state
        res = R.resolve(state, actions, phase_rng(seed, state.phase))
        state = res.state
        alive_before = {p.name for p in before.players if p.alive}
        for name in deaths(res):
            assert name in alive_before
            assert not state.player(name).alive
        for e in res.events:
            if e.kind == "failed":
                assert set(e.to) <= acted, (e, acted)
        living = [p for p in state.players if p.alive]
        if state.mayor is not None:
            assert state.player(state.mayor).alive
        if state.over:
            assert state.winner == "draw" or {p.faction for p in living} == {state.winner}
        for p in state.players:
            if p.data.get("spettro"):
                assert not p.alive and p.faction == "Negromanti"
        powers = [p.data["spettro"] for p in state.players if p.data.get("spettro")]
        assert len(powers) == len(set(powers))
