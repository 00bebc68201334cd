"""One night of Lupus LIVE! as its steps share it (§1.9): what earlier steps established,
and the helpers every step uses. The steps are ``night.Night`` (1-8, 10-11), which
calls ``ritual_night`` for step 9: both read this, so step 9 needs nothing of ``night``."""
from __future__ import annotations

import random
from typing import Any

from ..core import Action, Event, GameState, Pending, private
from ..lupus_common.actions import POWER, QUESTION, RITUAL
from .death import kill
from .roles import ALIVE, ANY, DEAD


class Tonight:
    """One night's resolution. Steps share what earlier steps established (§1.9:
    an earlier action may change the outcome of a later one, never the reverse)."""

    def __init__(self, state: GameState, actions: list[Action], rng: random.Random,
                 gm: dict[str, Any], events: list[Event], pending: list[Pending]) -> None:
        self.state = state
        self.rng = rng
        self.gm = gm or {}
        self.events = events
        self.pending = pending
        self.n = state.phase.number
        self.alive_start = {p.name for p in state.players if p.alive}
        # Step 1: what the knowledge powers will be answered from.
        self.snapshot: dict[str, dict[str, Any]] = {p.name: {"faction": p.faction, "aura": p.aura, "role": p.role,
                                  "corrupt": bool(p.data.get("corrupt"))}
                         for p in state.players}
        self.powers = {a.player: a.args["target"] for a in actions if a.kind == POWER}
        self.questions = {a.player: a.args["question"] for a in actions if a.kind == QUESTION}
        self.rituals = {a.player: a.args for a in actions if a.kind == RITUAL}
        self.blocked: set[str] = set()
        self.failed: set[str] = set()
        self.protected: set[str] = set()
        self.wolf_victims: set[str] = set()
        self.bewitched: dict[str, int] = {}
        self.confused: dict[str, int] = {}
        # Yes/no answers are delivered at the end, once Confusione (step 9) is known.
        self.answers: list[dict[str, Any]] = []
        self.to_kill: list[tuple[str, str]] = []  # step 10
        self.to_revive: list[tuple[str, str]] = []  # step 11

    # -- helpers -------------------------------------------------------------
    def users(self, role: str) -> list[tuple[str, str]]:
        return [(name, target) for name, target in self.powers.items()
                if self.state.player(name).role == role]

    def fail(self, name: str) -> None:
        if name not in self.failed:
            self.failed.add(name)
            self.events.append(private(name, "failed"))

    def prevented(self, name: str) -> bool:
        """Kidnapped (step 2) or under an Impedimento: the power is not used, and fails."""
        if name in self.blocked:
            self.fail(name)
            return True
        return False

    def died_tonight(self, name: str) -> bool:
        return name in self.alive_start and not self.state.player(name).alive

    def auto_failed(self, name: str, target: str | None, aim: str | None) -> bool:
        """§1.9: a power fails if its user dies that night, except when it applies to a
        living (dead) player who was alive (dead) at the start of the night."""
        if not self.died_tonight(name):
            return False
        if target is not None:
            was_alive = target in self.alive_start
            if aim == ANY or (aim == ALIVE and was_alive) or (aim == DEAD and not was_alive):
                return False
        self.fail(name)
        return True

    def kill(self, name: str, cause: str) -> bool:
        return kill(self.state, name, cause, self.rng, self.events)

    def answer(self, to: str, target: str, question: str, value: bool,
               confusable: bool = True) -> None:
        self.answers.append({"to": to, "target": target, "question": question,
                             "value": value, "confusable": confusable})
