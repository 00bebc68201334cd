"""The night's submitted powers as plain records, and who blocks whom (§3.7, §3.9)."""
from __future__ import annotations

from dataclasses import dataclass

from .roles import BLOCKERS


@dataclass
class Act:
    actor: str
    kind: str  # the role's name, or the supernatural power's name for a Spettro
    target: str
    target2: str | None = None
    power: str | None = None  # the Negromante's chosen power
    spectre: bool = False  # a Spettro's supernatural power (the actor is dead)

    @property
    def living(self) -> bool:
        return not self.spectre


def blocking_edges(acts: dict[str, Act]) -> dict[str, list[str]]:
    """blocker -> the actors whose power it makes fail, if the blocker itself works.

    "Acting on" a player means aiming one's first target at them (Illusione acts
    on the house where the illusion appears, FAQ 15; ruling for Confusione and
    Ipnosi, docs/rulings-tempo-reale-7.md).
    """
    on: dict[str, list[Act]] = {}
    for a in acts.values():
        on.setdefault(a.target, []).append(a)
    edges: dict[str, list[str]] = {}
    for b in acts.values():
        if b.kind not in BLOCKERS:
            continue
        hit: list[str] = []
        here = [a for a in on.get(b.target, []) if a.actor != b.actor]
        if b.kind == "Sequestratore":
            if b.target in acts:
                hit.append(b.target)
        elif b.kind == "Stregone":
            hit += [a.actor for a in here if a.living]
        elif b.kind == "Esorcista":
            hit += [a.actor for a in here if a.spectre]
        elif b.kind == "Sciamano":
            t = acts.get(b.target)
            if t is not None and t.spectre:
                hit.append(t.actor)
        elif b.kind == "Occultamento":
            hit += [a.actor for a in here if a.kind != "Esorcista"]
        if hit:
            edges[b.actor] = hit
    return edges
