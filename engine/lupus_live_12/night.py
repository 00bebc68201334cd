"""The night of Lupus LIVE!, step by step in the order of §1.9."""
from __future__ import annotations

import random
from typing import Any

from ..core import Action, Event, GameState, Pending, master, private
from .death import revive
from .ritual_night import resolve_rituals
from .roles import ANY, MISSILE_NIGHTS, NERA, ROLES, VILLAGGIO
from .tonight import Tonight


def yesno(value: Any) -> str | None:
    """The Masters' answer as "yes"/"no" (YAML reads unquoted yes/no as booleans)."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return None
    text = str(value).strip().casefold()
    if text in ("yes", "y", "sì", "si", "s", "true", "1"):
        return "yes"
    if text in ("no", "n", "false", "0"):
        return "no"
    return None


class Night(Tonight):
    """The steps of §1.9, in order."""

    # -- the steps of §1.9 -------------------------------------------------------
    def run(self) -> None:
        self.step2_kidnappers()
        self.step3_messia_guard_hunter()
        self.step4_wolves()
        self.step5_hunter()
        self.step6_profeta()
        self.step7_fattucchiera()
        self.step8_others()
        resolve_rituals(self)  # step 9
        self.step10_deaths()
        self.step11_resurrections()
        self.deliver_answers()

    def step2_kidnappers(self) -> None:
        impeded = {p.name for p in self.state.players if p.data.get("impeded_night") == self.n}
        self.blocked = set(impeded)
        kidnapped: set[str] = set()
        # Ruling "Sequestratori at step 2": they act at once, so a kidnapped
        # Sequestratore still kidnaps (two who take each other are both blocked).
        for s, target in self.users("Sequestratore"):
            if s in impeded:
                self.fail(s)
                continue
            kidnapped.add(target)
        self.blocked |= kidnapped
        if kidnapped:
            self.events.append(master("kidnapped", players=sorted(kidnapped)))

    def step3_messia_guard_hunter(self) -> None:
        self.pointing: dict[str, str] = {}
        for m, target in self.users("Messia"):
            if not self.prevented(m):
                self.state.data.setdefault("messia", []).append(
                    {"messia": m, "target": target, "until_day": self.n})
        for g, target in self.users("Guardia del corpo"):
            if not self.prevented(g):
                self.protected.add(target)
        for c, target in self.users("Cacciatore"):
            if not self.prevented(c):
                self.pointing[c] = target

    def step4_wolves(self) -> None:
        active = [(w, t) for w, t in self.users("Lupo Mannaro") if not self.prevented(w)]
        if not active:
            return
        targets = {t for _, t in active}
        victim = next(iter(targets)) if len(targets) == 1 else None
        if (victim is not None and self.state.player(victim).alive
                and victim not in self.protected):
            self.kill(victim, "wolves")
            self.wolf_victims.add(victim)
        else:
            for w, _ in active:
                self.fail(w)

    def step5_hunter(self) -> None:
        # The Cacciatore's shot needs his death by the wolves: §1.2 says so
        # explicitly, so §1.9's automatic failure does not apply to it.
        for c, target in self.pointing.items():
            if c in self.wolf_victims:
                self.kill(target, "cacciatore")

    def step6_profeta(self) -> None:
        answers = self.gm.get("answers") or {}
        for name, question in self.questions.items():
            p = self.state.player(name)
            # §1.11: once in the game; a prevented use is wasted.
            p.data["question_used"] = True
            if self.prevented(name) or self.auto_failed(name, None, None):
                continue
            value = yesno(answers.get(name))
            if value is None:
                self.pending.append(Pending("profeta_question",
                                            {"player": name, "question": question}, True))
                self.events.append(master("profeta_question", player=name, question=question))
                continue
            # The true answer: no Fattucchiera or Confusione touches it.
            self.events.append(private(name, "answer", answer=value, question="profeta",
                                       target=question))

    def step7_fattucchiera(self) -> None:
        for f, target in self.users("Fattucchiera"):
            if self.prevented(f) or self.auto_failed(f, target, ANY):
                continue
            self.bewitched[target] = self.bewitched.get(target, 0) + 1

    def step8_others(self) -> None:
        for name, target in self.powers.items():
            p = self.state.player(name)
            role = ROLES[p.role]
            if role.step != 8:
                continue
            if p.role == "Usurpatore":
                # "Se decide di scegliere un bersaglio una notte, non può rifarlo la
                # notte successiva": the choice counts even if it is prevented.
                p.data["cooldown"] = self.n + 1
            if p.role == "Missile":
                self.missile_choice(p, target)
                continue
            if self.prevented(name) or self.auto_failed(name, target, role.target):
                continue
            if role.cooldown:
                p.data["cooldown"] = self.n + 1  # a successful use
            if role.asks:
                snap = self.snapshot[target]
                if role.asks == "magic":
                    value = ROLES[snap["role"]].magic
                elif role.asks == "aura_nera":
                    value = snap["aura"] == NERA
                else:
                    value = snap["corrupt"]
                if self.bewitched.get(target, 0) % 2:
                    value = not value
                self.answer(name, target, role.asks, value)
            elif p.role == "Espansivo":
                self.events.append(private(target, "visited_by", visited_by=name))
            elif p.role == "Avvocato":
                self.state.data.setdefault("avvocato", {}).setdefault(str(self.n), []).append(target)
            elif p.role == "Usurpatore":
                t = self.state.player(target)
                if t.alive and t.role == "Erede":
                    self.kill(target, "usurpatore")
                    p.data["usurped"] = True
                else:
                    self.fail(name)

    def missile_choice(self, p: Any, target: str) -> None:
        if self.n not in MISSILE_NIGHTS:
            return
        villaggio: bool | None = self.snapshot[target]["faction"] == VILLAGGIO
        if self.prevented(p.name):
            villaggio = None  # Ruling: a prevented choice does not count as a Villaggio pick
        p.data.setdefault("missile", []).append({"night": self.n, "target": target,
                                                 "villaggio": villaggio})

    def step10_deaths(self) -> None:
        for name, cause in self.to_kill:
            self.kill(name, cause)
        if self.n not in MISSILE_NIGHTS:
            return
        for name in sorted(self.alive_start):
            p = self.state.player(name)
            if p.role != "Missile" or not p.alive:
                continue
            if name not in self.powers:
                self.kill(name, "missile")  # "Se in una di queste notti non effettua la scelta"
                continue
            choices = p.data.get("missile", [])
            if self.n == 4 and len(choices) == 3 and all(c["villaggio"] for c in choices):
                self.kill(name, "missile")

    def step11_resurrections(self) -> None:
        for name, cause in self.to_revive:
            revive(self.state, name, cause, self.events)
        for entry in list(self.state.data.get("messia", [])):
            if entry["until_day"] == self.n and self.died_tonight(entry["messia"]):
                revive(self.state, entry["target"], "messia", self.events)
                self.state.data["messia"].remove(entry)

    def deliver_answers(self) -> None:
        for a in self.answers:
            value = a["value"]
            if a["confusable"] and self.confused.get(a["to"], 0) % 2:
                value = not value
            self.events.append(private(a["to"], "answer", answer="yes" if value else "no",
                                       target=a["target"], question=a["question"]))


def resolve_night(state: GameState, actions: list[Action], rng: random.Random,
                  gm: dict[str, Any], events: list[Event], pending: list[Pending]) -> Night:
    night = Night(state, actions, rng, gm, events, pending)
    night.run()
    return night

