"""Scenario files (docs/scenarios.md): play a scripted game and check each step.

Pure: the caller parses the YAML text and hands over the mapping. One runner for every
game: what a file of that game says and how one of its steps is played is asked of the
ruleset's ``Scenarios`` ability (``engine/scenario_format.py``: phase by phase for the
Lupus games, turn by turn for Complots); the runner plays the file over its seeds and
checks each step's ``expect``, its ``one_of`` alternatives and ``all_seen``.

A refusal is never silent (docs/scenarios.md): a step in which an action was
refused, when submitted or when the step closed, fails unless its ``expect`` names the
player in ``rejected`` (Complots: ``rejected: true``), or the ``one_of`` alternative that
held does; the failure names the player and the refusal.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .core import SetupError
from .registry import get_ruleset
from .scenario_format import Mismatch, ScenarioError, Scenarios

__all__ = ["Outcome", "ScenarioError", "run_scenario"]


@dataclass
class Outcome:
    passed: bool
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return "; ".join(self.failures[:3])


def _unexpected_refusals(label: str, expect: dict[str, Any], held: list[dict[str, Any]],
                         refusals: dict[str, list[str]], say: str) -> list[str]:
    """The refusals of a step its ``expect`` does not say (docs/scenarios.md: "a refusal is
    never silent"), one failure per player, naming the player and what was refused.
    ``held``: the ``one_of`` alternatives that held; a ``rejected`` key in the step's
    ``expect`` or in one of them says the step's refusals (it then checks them exactly).
    ``say``: how the file would say it (``Scenarios.says_rejected``)."""
    if "rejected" in expect or any("rejected" in alt for alt in held):
        return []
    return [f"{label}: {name}'s action was refused ({'; '.join(why)}), and the step's "
            f"expect does not say so ({say.format(name=name)})"
            for name, why in sorted(refusals.items())]


def _run_once(data: dict[str, Any], seed: int, seen: dict[int, set[int]]) -> list[str]:
    ruleset = get_ruleset(data["ruleset"])
    scenarios = ruleset.ability(Scenarios)
    if scenarios is None:
        raise ScenarioError(f"{data['ruleset']} has no scenario files")
    state = scenarios.start(ruleset, data, seed)
    failures: list[str] = []
    for index, step in enumerate(data.get("steps") or []):
        label = scenarios.label(step, index)
        if state.over:
            raise ScenarioError(f"{label}: the game is already over")
        played = scenarios.play(ruleset, state, step, label, seed)
        state = played.state
        expect = step.get("expect") or {}
        mismatches = played.check(expect)
        held: list[dict[str, Any]] = []
        if "one_of" in expect:
            held_at = [i for i, alt in enumerate(expect["one_of"]) if not played.check(alt)]
            held = [expect["one_of"][i] for i in held_at]
            seen.setdefault(index, set()).update(held_at)
            if not held:
                mismatches.append(Mismatch(label, "one_of", "one alternative to hold", "none held"))
        failures += [f"seed {seed}: {m}" for m in mismatches]
        unsaid = _unexpected_refusals(label, expect, held, played.refusals, scenarios.says_rejected)
        failures += [f"seed {seed}: {m}" for m in unsaid]
        if failures:
            break
    return failures


def run_scenario(data: dict[str, Any]) -> Outcome:
    """Play a parsed scenario over its seed(s) and report what differed."""
    if not isinstance(data, dict) or "ruleset" not in data:
        return Outcome(False, ["not a scenario: no ruleset"])
    if "seeds" in data:
        seeds = list(range(int(data["seeds"])))
    else:
        seeds = [int(data.get("seed", 0))]
    seen: dict[int, set[int]] = {}
    try:
        for seed in seeds:
            failures = _run_once(data, seed, seen)
            if failures:
                return Outcome(False, failures)
    except ScenarioError as exc:
        return Outcome(False, [f"scenario error: {exc}"])
    except KeyError as exc:
        return Outcome(False, [f"scenario error: {exc}"])
    except SetupError as exc:  # a set-up the rules refuse is the file's error, not a crash
        return Outcome(False, [f"scenario error: set-up refused: {exc}"])
    failures = []
    for index, step in enumerate(data.get("steps") or []):
        expect = step.get("expect") or {}
        if expect.get("all_seen") and "one_of" in expect:
            missing = set(range(len(expect["one_of"]))) - seen.get(index, set())
            if missing:
                failures.append(f"step {index + 1}: all_seen: alternatives {sorted(i + 1 for i in missing)}"
                                f" never happened over {len(seeds)} seeds")
    return Outcome(not failures, failures)
