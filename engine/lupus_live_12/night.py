"""The night of Lupus LIVE! in the order of §1.9."""
from __future__ import annotations

import random

from ..core import POWER, Action, Event, GameState, Player, Rejected, private
from .death import kill
from .roles import NERA, ROLES, IMPLEMENTED_POWERS


def power_choices(state: GameState, p: Player) -> list[str] | None:
    """The legal targets of p's power tonight, or None if p has no power to use."""
    role = ROLES[p.role]
    if role.target is None or p.role not in IMPLEMENTED_POWERS:
        return None
    if p.role == "Lupo Mannaro" and state.phase.number == 1:
        return None  # "tranne la prima" notte
    pool = {"alive": state.alive(), "dead": state.dead(), "any": state.players}[role.target]
    return [q.name for q in pool if role.self_target or q.name != p.name]


def validate_power(state: GameState, p: Player, action: Action) -> None:
    role = ROLES[p.role]
    if role.target is None or p.role not in IMPLEMENTED_POWERS:
        raise Rejected("no_power", role=p.role)
    if p.role == "Lupo Mannaro" and state.phase.number == 1:
        raise Rejected("first_night_kill")
    target = action.args.get("target")
    if not isinstance(target, str) or not state.has_player(target):
        raise Rejected("unknown_player", target=target)
    if target == p.name and not role.self_target:
        raise Rejected("self_target")
    t = state.player(target)
    if role.target == "alive" and not t.alive:
        raise Rejected("target_not_alive", target=target)
    if role.target == "dead" and t.alive:
        raise Rejected("target_not_dead", target=target)


def resolve_night(state: GameState, actions: list[Action], rng: random.Random,
                  events: list[Event]) -> None:
    powers = {a.player: a.args for a in actions if a.kind == POWER}

    def users(role: str) -> list[tuple[str, str]]:
        return [(name, args["target"]) for name, args in powers.items()
                if state.player(name).role == role]

    # 3. Guardie del corpo
    protected = {target for _, target in users("Guardia del corpo")}

    # 4. Lupi Mannari: all who act must name the same player.
    attacks = users("Lupo Mannaro")
    if attacks:
        targets = {t for _, t in attacks}
        wolves = [w for w, _ in attacks]
        if len(targets) == 1 and (victim := targets.pop()) not in protected:
            kill(state, victim, "wolves", rng, events)
        else:
            for w in wolves:
                events.append(private(w, "failed"))

    # 8. Everyone else: Veggente.
    for seer, target in users("Veggente"):
        answer = "yes" if state.player(target).aura == NERA else "no"
        events.append(private(seer, "answer", answer=answer, target=target, question="aura_nera"))
