"""The Lupus games' scenario files (docs/scenarios.md, before its Complots section): a step
is one phase.

Each act is read exactly as the service reads a submission
(``ruleset.submission_actions``: split into actions, each validated, plus what the
ruleset adds, such as lupus-live-12's power beside a ritual), so scenarios and the
service cannot disagree. A step's act stands for what a player sends in a phase, a
command a line as a mail is read (the service submits each command of a mail on its
own): a refused action is left out and the others of the act stand, then the phase is
resolved with the phase's seeded random generator (``phase_rng``). A refusal when the
phase closes (``rejected_at_resolution``) is a refusal of the step all the same.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from ..core import GameState, Phase, Rejected, Resolution, phase_rng, setup_rng
from ..interface import BaseRuleset
from ..scenario_format import Mismatch, Played, ScenarioError, Scenarios, name_set
from .results import RESULT_KINDS, deaths, pyre_of, results_for, revivals


class PhaseScenarios(Scenarios):
    """A Lupus game's scenario files. ``canonical``: the rulebook's spelling of a result
    value (kind, value -> value), when the game accepts several (a ritual written
    "end story", "Morte" for "Spettro della Morte")."""

    def __init__(self, canonical: Callable[[str, Any], Any] = lambda kind, value: value) -> None:
        self.canonical = canonical

    def start(self, ruleset: BaseRuleset, data: dict[str, Any], seed: int) -> GameState:
        players = data.get("players") or {}
        if not players:
            raise ScenarioError("no players")
        seating = [(str(name), str(role)) for name, role in players.items()]
        state, _ = ruleset.setup(seating, setup_rng(seed), dict(data.get("setup") or {}))
        return state

    def label(self, step: Any, index: int) -> str:
        kind, number = _parse_phase(step.get("phase", "") if isinstance(step, dict) else "")
        return f"step {index + 1} ({kind}{'' if number is None else ' ' + str(number)})"

    def play(self, ruleset: BaseRuleset, state: GameState, step: dict[str, Any],
             label: str, seed: int) -> Played:
        kind, number = _parse_phase(step.get("phase", ""))
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
        res = ruleset.resolve(state, accepted, phase_rng(seed, Phase(kind, state.phase.number)),
                              step.get("gm") or {})
        for e in res.events:  # refused as the phase closed: a refusal all the same
            if e.kind == "rejected_at_resolution":
                for name in e.to:
                    refusals.setdefault(name, []).append(
                        str(Rejected(e.data.get("code", ""), **(e.data.get("params") or {}))))
        checker = _Checker(ruleset, self.canonical, res.state, res, set(refusals), label)
        return Played(res.state, checker.check, refusals)


def _yesno(value: Any) -> Any:
    # YAML 1.1 reads unquoted yes/no as booleans; the format allows them unquoted.
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return value


def _norm_item(item: Any) -> Any:
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and len(item) == 1:
        ((k, v),) = item.items()
        v = _yesno(v)
        if isinstance(v, (list, tuple, set, frozenset)):
            return (k, name_set(v))
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
    def __init__(self, ruleset: BaseRuleset, canonical: Callable[[str, Any], Any],
                 state: GameState, res: Resolution, rejected: set[str], step: str) -> None:
        self.ruleset = ruleset
        self.canonical = canonical
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
        if name_set(expected) != frozenset(got):
            return self._m(key, sorted(name_set(expected)), sorted(got))
        return []

    def _k_dead(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("dead", expected, deaths(self.res))

    def _k_revived(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("revived", expected, revivals(self.res))

    def _k_alive(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("alive", expected, [p.name for p in self.state.alive()])

    def _k_burned(self, expected: Any) -> list[Mismatch]:
        pyre = pyre_of(self.res)
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
        pyre = pyre_of(self.res) or self._runoff()
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
            got = [i for i in results_for(self.res, name)
                   if (i if isinstance(i, str) else next(iter(i))) in RESULT_KINDS]
            items, got = [self._canon(i) for i in items], [self._canon(i) for i in got]
            if _multiset(items) != _multiset(got):
                out += self._m(f"results.{name}", items, got)
        return out

    def _canon(self, item: Any) -> Any:
        """A game may accept several spellings of a value (a ritual written "end story")."""
        if not isinstance(item, dict) or len(item) != 1:
            return item
        ((k, v),) = item.items()
        return {k: self.canonical(k, v)}

    def _k_rejected(self, expected: Any) -> list[Mismatch]:
        return self._names_eq("rejected", expected, sorted(self.rejected))

    def _k_winner(self, expected: Any) -> list[Mismatch]:
        want = None if expected is None or str(expected).casefold() == "none" else str(expected)
        got = self.state.winner
        if (want or "").casefold() != (got or "").casefold():
            return self._m("winner", expected, got or "none")
        return []
