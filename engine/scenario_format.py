"""What a game's scenario files say, as the one runner (``engine/scenario.py``) asks it.

docs/scenarios.md has a section per kind of game: the Lupus games play a file phase by phase
(``engine/lupus_common/scenario.py``), Complots turn by turn (``engine/complots/scenario.py``).
Each is a ``Scenarios`` ability its rulesets declare: it sets the game up from the file
and plays one step; the runner does the rest for all of them alike (seeds, the order of
steps, ``one_of`` and ``all_seen``, refusals that a step does not say).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from .core import GameState
from .interface import Ability

if TYPE_CHECKING:
    from .interface import BaseRuleset


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
class Played:
    """One step played: the state after it, the refusals it met ({player: [refusal]}),
    and how its ``expect`` (or one of its ``one_of`` alternatives) is checked."""

    state: GameState
    check: Callable[[dict[str, Any]], list[Mismatch]]
    refusals: dict[str, list[str]] = field(default_factory=dict)


def name_set(values: Any) -> frozenset[str]:
    """A name or a list of names, compared as a set."""
    if values is None:
        return frozenset()
    if isinstance(values, str):
        return frozenset([values])
    return frozenset(str(v) for v in values)


class Scenarios(Ability):
    """How a game reads its section of docs/scenarios.md."""

    # How a file says a step's refusal (``expect``), in the failure that asks for it.
    says_rejected = "rejected: [{name}]"

    def start(self, ruleset: "BaseRuleset", data: dict[str, Any], seed: int) -> GameState:
        """The game the file's ``players`` and ``setup`` set up with ``seed``."""
        raise NotImplementedError

    def label(self, step: Any, index: int) -> str:
        """How a failure names the step (``step 2 (day 1)``); ScenarioError on a step
        that is no step of this kind of file."""
        raise NotImplementedError

    def play(self, ruleset: "BaseRuleset", state: GameState, step: dict[str, Any],
             label: str, seed: int) -> Played:
        """The step played from ``state``; ScenarioError when the file is wrong."""
        raise NotImplementedError
