"""``GameState.to_dict`` is what ``dataclasses.asdict`` makes of a state, keys in the
same order (it is stored as JSON: the bytes must not change), for the states of
whole games of every ruleset (the rulebooks' scenarios), and the copy shares
nothing with the state."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml

from engine.core import Phase, Rejected, phase_rng, setup_rng
from engine.registry import get_ruleset

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = [p for p in sorted(SCENARIOS.glob("*/*.yaml"))
         if isinstance(d := yaml.safe_load(p.read_text()), dict) and "players" in d]


def states(data):
    ruleset = get_ruleset(data["ruleset"])
    seed = int(data.get("seed", 0))
    seating = [(str(n), str(r)) for n, r in (data.get("players") or {}).items()]
    state, _events = ruleset.setup(seating, setup_rng(seed), dict(data.get("setup") or {}))
    yield state
    for step in data.get("steps") or []:
        if state.over:
            return
        accepted = []
        for name, submission in (step.get("act") or {}).items():
            try:  # read as the service and the scenario runner read it
                accepted += ruleset.submission_actions(state, str(name), submission or {}).accepted
            except (Rejected, ValueError, KeyError):
                continue
        try:
            state = ruleset.resolve(state, accepted, phase_rng(seed, Phase(state.phase.kind, state.phase.number)),
                                    step.get("gm") or {}).state
        except Exception:  # a scenario about a refusal or a pending answer: the game so far
            return
        yield state


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_to_dict_is_asdict(path):
    for state in states(yaml.safe_load(path.read_text())):
        made = state.to_dict()
        assert json.dumps(made) == json.dumps(asdict(state))
        assert made == asdict(state)
        made["players"][0]["data"]["touched"] = True
        made["data"]["touched"] = True
        assert "touched" not in state.players[0].data and "touched" not in state.data
