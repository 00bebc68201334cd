"""The ghosts' rituals (personaggi §4, principale §1.10) as data, and their submission rules."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core import Action, GameState, Player, Rejected
from .roles import ALIVE, ANY, DEAD

NONE = None


@dataclass(frozen=True)
class Ritual:
    name: str  # as the rulebook writes it
    base: int  # participants: base, or base + n for the parametric ones
    target: str | None  # ALIVE, DEAD, ANY or None (no target)
    parametric: bool = False

    def participants(self, n: int | None) -> int:
        return self.base + (n or 0) if self.parametric else self.base


CONFUSIONE = "Confusione"
END_STORY = "\\end{story}"
IMPEDIMENTO = "Impedimento"
MALEDIZIONE = "Maledizione"
MENO_DELEGATO = "Meno voto delegato"
MENO_DIRETTO = "Meno voto diretto"
OMICIDIO = "Omicidio"
REPLAY = "Replay"
RESURREZIONE = "Resurrezione"
SPIONAGGIO = "Spionaggio"
VOTO_DELEGATO = "Voto delegato"
VOTO_DIRETTO = "Voto diretto"

RITUALS: dict[str, Ritual] = {r.name: r for r in [
    Ritual(CONFUSIONE, 4, ALIVE),
    Ritual(END_STORY, 5, NONE, parametric=True),
    Ritual(IMPEDIMENTO, 4, ALIVE),
    Ritual(MALEDIZIONE, 5, DEAD),
    Ritual(MENO_DELEGATO, 1, ALIVE, parametric=True),
    Ritual(MENO_DIRETTO, 1, ALIVE, parametric=True),
    Ritual(OMICIDIO, 5, ALIVE),
    Ritual(REPLAY, 4, DEAD),
    Ritual(RESURREZIONE, 5, DEAD),
    Ritual(SPIONAGGIO, 4, ANY),
    Ritual(VOTO_DELEGATO, 1, ALIVE, parametric=True),
    Ritual(VOTO_DIRETTO, 1, ALIVE, parametric=True),
]}


def _key(text: str) -> str:
    text = re.sub(r"\(\s*n\s*\)", "", str(text).casefold())
    return re.sub(r"[^a-z0-9àèéìòù]", "", text)


_BY_KEY = {_key(name): name for name in RITUALS}
_BY_KEY.update({"endstory": END_STORY, "end": END_STORY})


def canonical_ritual(name: Any) -> str:
    """The rulebook's name of a ritual: case-insensitive, "end story"/"endstory" for \\end{story}."""
    try:
        return _BY_KEY[_key(name)]
    except KeyError:
        raise Rejected("unknown_ritual", ritual=name) from None


def target_ok(state: GameState, kind: str | None, name: str) -> bool:
    if kind is None:
        return True
    p = state.player(name)
    return kind == ANY or (kind == ALIVE) == p.alive


def target_choices(state: GameState, ritual: Ritual) -> list[str]:
    if ritual.target is None:
        return []
    return [p.name for p in state.players if target_ok(state, ritual.target, p.name)]


def _n(value: Any) -> int | None:
    if value is None:
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise Rejected("ritual_bad_n", n=value) from None
    if n < 1 or str(n) != str(value).strip():
        raise Rejected("ritual_bad_n", n=value)
    return n


def validate_ritual(state: GameState, p: Player, action: Action) -> Action:
    """Check a ritual submission and return it normalised (canonical name, n, with).

    What the web form cannot offer is refused (an unknown ritual or player, two
    living collaborators, a living one named by the Satanista, a target of the
    wrong kind). A group that does not add up (wrong count, mismatched choices, a
    living player named as the Satanista who is not one) is accepted and fails at
    resolution, as §1.10.2-1.10.3 prescribe: nobody can know what the others will
    submit, and a refusal would tell a ghost who the Satanista is.
    """
    if state.phase.kind != "night":
        raise Rejected("not_now", kind="ritual")
    satanista = p.alive and p.role == "Satanista"
    if p.alive and not satanista:
        raise Rejected("alive_no_ritual")
    name = canonical_ritual(action.args.get("ritual"))
    ritual = RITUALS[name]
    raw_with = action.args.get("with") or []
    if isinstance(raw_with, str):
        raw_with = [raw_with]
    # The ghost's form has the Satanista in a drop-down of the living (personaggi §2.6).
    if action.args.get("satanista"):
        raw_with = [*raw_with, action.args["satanista"]]
    others: list[str] = []
    for other in raw_with:
        other = str(other)
        if not state.has_player(other):
            raise Rejected("unknown_player", target=other)
        if other == p.name:
            continue  # the form lists only the others; naming oneself adds nothing
        if other in others:
            continue
        if satanista and state.player(other).alive:
            raise Rejected("ritual_with_alive", target=other)
        others.append(other)
    living = [o for o in others if state.player(o).alive]
    if len(living) > 1:
        raise Rejected("ritual_one_living")
    n = _n(action.args.get("n")) if ritual.parametric else None
    if ritual.parametric and n is None:
        # The form asks for n; a submission without it declares the n its group size implies.
        size = len(others) + (2 if satanista or living else 1)
        n = size - ritual.base
        if n < 1:
            raise Rejected("ritual_bad_n", n=None)
    if satanista and ritual.participants(n) < 3:
        raise Rejected("satanista_small_ritual", ritual=name)
    target = action.args.get("target")
    if ritual.target is None:
        target = None
    else:
        if target is None:
            raise Rejected("ritual_target_required", ritual=name)
        target = str(target)
        if not state.has_player(target):
            raise Rejected("unknown_player", target=target)
        if not target_ok(state, ritual.target, target):
            raise Rejected("ritual_target_not_alive" if ritual.target == ALIVE
                           else "ritual_target_not_dead", target=target, ritual=name)
    args: dict[str, Any] = {"ritual": name, "with": others, "target": target}
    if ritual.parametric:
        args["n"] = n
    return Action(action.player, action.kind, args)
