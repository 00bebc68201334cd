"""Scenario files (shared/SCENARIOS.md): play a scripted game and check each phase.

Pure: the caller parses the YAML text and hands over the mapping. The runner drives a
ruleset through the same interface as the service. Each act is read exactly as the
service reads a submission (``ruleset.submission_actions``: split into actions, each
validated, plus what the ruleset adds, such as lupus-live-12's power beside a ritual),
so scenarios and the service cannot disagree. A step's act stands for what a player
sends in a phase, a command a line as a mail is read (``mail.inbound.carry_out`` submits
each command on its own): a refused action is left out and the others of the act stand,
then the phase is resolved with the phase's seeded random generator (``phase_rng``).

A refusal is never silent (SCENARIOS.md, as amended): a step in which an action was
refused, when submitted or when the phase closed (``rejected_at_resolution``), fails
unless its ``expect`` names the player in ``rejected`` (or the ``one_of`` alternative
that held does); the failure names the player and the refusal. A ruleset whose steps
are not phases plays its own scenarios (``play_scenario``), under the same rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .core import (
    RESULT_KINDS, GameState, Phase, Rejected, Resolution, SetupError,
    phase_rng, setup_rng,
)
from .registry import get_ruleset


class ScenarioError(Exception):
    """The file itself is wrong (not the engine)."""


@dataclass
class Mismatch:
    step: str
    key: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return f"{self.step}: {self.key}: expected {self.expected!r}, got {self.got!r}"


@dataclass
class Outcome:
    passed: bool
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return "; ".join(self.failures[:3])


def _yesno(value: Any) -> Any:
    # YAML 1.1 reads unquoted yes/no as booleans; the format allows them unquoted.
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return value


def _norm_name_list(values: Any) -> frozenset[str]:
    if values is None:
        return frozenset()
    if isinstance(values, str):
        return frozenset([values])
    return frozenset(str(v) for v in values)


def _norm_item(item: Any) -> Any:
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and len(item) == 1:
        ((k, v),) = item.items()
        v = _yesno(v)
        if isinstance(v, (list, tuple, set, frozenset)):
            return (k, _norm_name_list(v))
        if isinstance(v, str):
            return (k, v.casefold())
        return (k, v)
    return repr(item)


def _multiset(items: list[Any]) -> list[str]:
    return sorted(repr(_norm_item(i)) for i in items)


def _parse_phase(text: str) -> tuple[str, int | None]:
    parts = str(text).casefold().split()  # "Night 1" is night 1
    if len(parts) == 1:
        return parts[0], None
    if len(parts) == 2 and parts[1].isdigit():
        return parts[0], int(parts[1])
    raise ScenarioError(f"bad phase {text!r}")


_AURA_SPELLINGS = {"bianco": "bianca", "white": "bianca", "nero": "nera", "black": "nera"}


def _num(value: Any) -> Fraction:
    return Fraction(str(value))


class _Checker:
    def __init__(self, ruleset: Any, state: GameState, res: Resolution,
                 rejected: set[str], step: str) -> None:
        self.ruleset = ruleset
        self.state = state
        self.res = res
        self.rejected = rejected
        self.step = step

    def check(self, expect: dict[str, Any]) -> list[Mismatch]:
        out: list[Mismatch] = []
        for key, expected in expect.items():
            if key in ("one_of", "all_seen"):
                continue
            method = getattr(self, "_k_" + key, None)
            if method is None:
                raise ScenarioError(f"unknown expect key {key!r}")
            out.extend(method(expected))
        return out

    def _m(self, key: str, expected: Any, got: Any) -> list[Mismatch]:
        return [Mismatch(self.step, key, expected, got)]

    def _names_eq(self, key: str, expected: Any, got: list[str]) -> list[Mismatch]:
        if _norm_name_list(expected) != frozenset(got):
            return self._m(key, sorted(_norm_name_list(expected)), sorted(got))
        return []

    def _k_dead(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("dead", expected, self.res.deaths())

    def _k_revived(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("revived", expected, self.res.revivals())

    def _k_alive(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("alive", expected, [p.name for p in self.state.alive()])

    def _k_burned(self, expected: Any) -> list[Mismatch]:
        pyre = self.res.pyre()
        got = pyre.data.get("burned") if pyre else None
        # "burned" means died at the stake: a Mannella spared is not burned.
        if got is not None and got not in [e.data["player"] for e in self.res.events
                                           if e.kind == "death" and e.data.get("cause") == "pyre"]:
            got = None
        if expected != got:
            return self._m("burned", expected, got)
        return []

    def _k_mayor(self, expected: Any) -> list[Mismatch]:
        if expected != self.state.mayor:
            return self._m("mayor", expected, self.state.mayor)
        return []

    def _attr(self, key: str, attr: str, expected: dict[str, Any]) -> list[Mismatch]:
        out: list[Mismatch] = []
        for name, value in expected.items():
            got = getattr(self.state.player(name), attr)
            if attr == "role":
                value = self.ruleset.canonical_role(str(value))
            if attr == "aura":
                # The rulebooks write the colour "Bianco"/"Nero"; the format says bianca/nera.
                value = _AURA_SPELLINGS.get(str(value).casefold(), value)
            if str(value).casefold() != str(got).casefold():
                out += self._m(f"{key}.{name}", value, got)
        return out

    def _k_role(self, expected: dict[str, Any]) -> list[Mismatch]:
        return self._attr("role", "role", expected)

    def _k_faction(self, expected: dict[str, Any]) -> list[Mismatch]:
        return self._attr("faction", "faction", expected)

    def _k_aura(self, expected: dict[str, Any]) -> list[Mismatch]:
        return self._attr("aura", "aura", expected)

    def _k_spettro(self, expected: dict[str, Any]) -> list[Mismatch]:
        out: list[Mismatch] = []
        for name, power in expected.items():
            p = self.state.player(name)
            got = p.data.get("spettro")
            power = self._canon({"spettro": power})["spettro"]  # "Spettro della Morte"
            if p.alive or str(got).casefold() != str(power).casefold():
                out += self._m(f"spettro.{name}", power, got if not p.alive else "alive")
        return out

    def _runoff(self) -> Any:
        return next((e for e in self.res.events if e.kind == "runoff"), None)

    def _k_runoff(self, expected: Any) -> list[Mismatch]:
        """lupus-noctis: the two players the morning vote sent to the run-off."""
        event = self._runoff()
        got = list(event.data.get("players", [])) if event else []
        return self._names_eq("runoff", expected, got)

    def _k_votes(self, expected: dict[str, Any]) -> list[Mismatch]:
        # The pyre's tally; on a morning of lupus-noctis, the tally that chose the run-off.
        pyre = self.res.pyre() or self._runoff()
        got = {n: _num(v) for n, v in (pyre.data.get("tally", {}) if pyre else {}).items()
               if _num(v) != 0}
        want = {n: _num(v) for n, v in (expected or {}).items() if _num(v) != 0}
        if got != want:
            return self._m("votes", {k: float(v) for k, v in want.items()},
                           {k: float(v) for k, v in got.items()})
        return []

    def _k_results(self, expected: dict[str, list[Any]]) -> list[Mismatch]:
        out: list[Mismatch] = []
        for name, items in expected.items():
            items = items or []
            kinds = {i if isinstance(i, str) else next(iter(i)) for i in items}
            unknown = kinds - set(RESULT_KINDS)
            if unknown:
                raise ScenarioError(f"unknown result item kind(s) {sorted(unknown)}")
            # "exactly these result items": every item of the format's kinds counts, not
            # only the kinds this expectation names (an answer beside `failed` is a
            # difference); engine-specific extra kinds are left out.
            got = [i for i in self.res.results_for(name)
                   if (i if isinstance(i, str) else next(iter(i))) in RESULT_KINDS]
            items, got = [self._canon(i) for i in items], [self._canon(i) for i in got]
            if _multiset(items) != _multiset(got):
                out += self._m(f"results.{name}", items, got)
        return out

    def _canon(self, item: Any) -> Any:
        """A ruleset may accept several spellings of a value (a ritual written "end story")."""
        norm = getattr(self.ruleset, "canonical_result", None)
        if norm is None or not isinstance(item, dict) or len(item) != 1:
            return item
        ((k, v),) = item.items()
        return {k: norm(k, v)}

    def _k_rejected(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("rejected", expected, sorted(self.rejected))

    def _k_winner(self, expected: Any) -> list[Mismatch]:
        want = None if expected is None or str(expected).casefold() == "none" else str(expected)
        got = self.state.winner
        if (want or "").casefold() != (got or "").casefold():
            return self._m("winner", expected, got or "none")
        return []


def unexpected_refusals(label: str, expect: dict[str, Any], held: list[dict[str, Any]],
                        refusals: dict[str, list[str]], say: str = "rejected: [{name}]") -> list[str]:
    """The refusals of a step its ``expect`` does not say (SCENARIOS.md: "a refusal is
    never silent"), one failure per player, naming the player and what was refused.
    ``held``: the ``one_of`` alternatives that held; a ``rejected`` key in the step's
    ``expect`` or in one of them says the step's refusals (it then checks them exactly).
    ``say``: how the file would say it (Complots: ``rejected: true``)."""
    if "rejected" in expect or any("rejected" in alt for alt in held):
        return []
    return [f"{label}: {name}'s action was refused ({'; '.join(why)}), and the step's "
            f"expect does not say so ({say.format(name=name)})"
            for name, why in sorted(refusals.items())]


def _run_once(data: dict[str, Any], seed: int, seen: dict[int, set[int]]) -> list[str]:
    ruleset = get_ruleset(data["ruleset"])
    # A game whose steps are not phases (Complots: a step is a turn) plays its
    # own section of SCENARIOS.md; it returns failures the same way.
    own_runner = getattr(ruleset, "play_scenario", None)
    if own_runner is not None:
        return own_runner(data, seed, seen)
    players = data.get("players") or {}
    if not players:
        raise ScenarioError("no players")
    seating = [(str(name), str(role)) for name, role in players.items()]
    options = dict(data.get("setup") or {})
    state, _ = ruleset.setup(seating, setup_rng(seed), options)
    failures: list[str] = []
    for index, step in enumerate(data.get("steps") or []):
        kind, number = _parse_phase(step.get("phase", ""))
        label = f"step {index + 1} ({kind}{'' if number is None else ' ' + str(number)})"
        if state.over:
            raise ScenarioError(f"{label}: the game is already over")
        if kind != state.phase.kind or (number is not None and number != state.phase.number):
            raise ScenarioError(f"{label}: the game's next phase is {state.phase}")
        accepted = []
        refusals: dict[str, list[str]] = {}
        for name, submission in (step.get("act") or {}).items():
            name = str(name)
            if not state.has_player(name):
                raise ScenarioError(f"{label}: unknown player {name!r} in act")
            # The service's own reading of a submission (BaseRuleset.submission_actions).
            checked = ruleset.submission_actions(state, name, submission or {})
            accepted += checked.accepted
            if checked.refused:
                refusals[name] = [str(r) for r in checked.refused]
        gm = step.get("gm") or {}
        res = ruleset.resolve(state, accepted, phase_rng(seed, Phase(kind, state.phase.number)), gm)
        state = res.state
        for e in res.events:  # refused as the phase closed: a refusal all the same
            if e.kind == "rejected_at_resolution":
                for name in e.to:
                    refusals.setdefault(name, []).append(
                        str(Rejected(e.data.get("code", ""), **(e.data.get("params") or {}))))
        expect = step.get("expect") or {}
        checker = _Checker(ruleset, state, res, set(refusals), label)
        mismatches = checker.check(expect)
        held: list[dict[str, Any]] = []
        if "one_of" in expect:
            held_at = [i for i, alt in enumerate(expect["one_of"]) if not checker.check(alt)]
            held = [expect["one_of"][i] for i in held_at]
            seen.setdefault(index, set()).update(held_at)
            if not held:
                mismatches.append(Mismatch(label, "one_of", "one alternative to hold",
                                           "none held"))
        failures += [f"seed {seed}: {m}" for m in mismatches]
        failures += [f"seed {seed}: {m}" for m in unexpected_refusals(label, expect, held, refusals)]
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
