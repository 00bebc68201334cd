"""What a player may submit now: the legal choices (forms) and the check made at
submission (validate). Everything refused here is what §3.9 calls "a priori non
consentito": it never even appears among the choices."""
from __future__ import annotations

from typing import Any

from ..core import Action, ActionForm, FormField, GameState, Player, Rejected, acting_player
from ..lupus_common.actions import APPOINT, ELECT, POWER, VOTE
from .deaths import assigned_powers, in_play, is_active
from .roles import ALIVE, DEAD, EVERY_OTHER, ONCE, POWERS, ROLES, canonical_power


def _power_spec(p: Player):
    """(name, target kind, frequency, target2 kind, kills, is_spectre) of p's power, or None."""
    if p.data.get("exiled"):
        return None
    if p.alive:
        role = ROLES.get(p.role)
        if role is None or role.target is None:
            return None
        return (role.name, role.target, role.frequency, None, role.kills, False)
    power = p.data.get("spettro")
    if not power:
        return None
    spec = POWERS[power]
    return (spec.name, spec.target, spec.frequency, spec.target2, spec.kills, True)


def _usage_problem(state: GameState, p: Player, spec) -> Rejected | None:
    name, _, freq, _, kills, spectre = spec
    n = state.phase.number
    if spectre and p.data.get("spettro_from", 0) > n:
        return Rejected("spettro_not_yet", power=name)
    if kills and n == 1:
        return Rejected("first_night_kill")
    if freq == ONCE and p.data.get("used_once"):
        return Rejected("already_used", power=name)
    if freq == EVERY_OTHER and p.data.get("last_used") == n - 1:
        return Rejected("used_last_night", power=name)
    return None


def _pool(state: GameState, kind: str) -> list[Player]:
    if kind == ALIVE:
        return [q for q in state.players if is_active(q)]
    if kind == DEAD:
        return [q for q in state.players if not q.alive and in_play(q)]
    return [q for q in state.players if in_play(q)]


def target_choices(state: GameState, p: Player, kind: str) -> list[str]:
    # §3.4: nobody acts on themselves; ruling R5 extends it to the Spettri.
    return [q.name for q in _pool(state, kind) if q.name != p.name]


def free_powers(state: GameState) -> list[str]:
    taken = assigned_powers(state)
    return [name for name in POWERS if name not in taken]


def power_form(state: GameState, p: Player) -> ActionForm | None:
    if state.phase.kind != "night":
        return None
    spec = _power_spec(p)
    if spec is None or _usage_problem(state, p, spec):
        return None
    name, kind, _, kind2, _, spectre = spec
    choices = target_choices(state, p, kind)
    if not choices:
        return None
    fields = [FormField("target", "player", choices)]
    if kind2:
        fields.append(FormField("target2", "player", target_choices(state, p, kind2)))
    if name == "Negromante":
        powers = free_powers(state)
        if not powers:
            return None
        fields.append(FormField("power", "choice", powers))
    return ActionForm(POWER, fields, f"form.power.{name}")


def check_power(state: GameState, p: Player, action: Action) -> Action:
    if state.phase.kind != "night":
        raise Rejected("not_now", kind=POWER)
    spec = _power_spec(p)
    if spec is None:
        if not p.alive:
            raise Rejected("dead_no_power")
        raise Rejected("no_power", role=p.role)
    problem = _usage_problem(state, p, spec)
    if problem:
        raise problem
    name, kind, _, kind2, _, spectre = spec
    args = dict(action.args)
    _check_target(state, p, args.get("target"), kind)
    if kind2:
        if args.get("target2") is None:
            raise Rejected("target2_required", power=name)
        _check_target(state, p, args.get("target2"), kind2)
    else:
        args.pop("target2", None)
    if name == "Negromante":
        raw = args.get("power")
        if raw is None:
            raise Rejected("power_required")
        try:
            args["power"] = canonical_power(str(raw))
        except KeyError:
            raise Rejected("unknown_power", power=raw) from None
        if args["power"] not in free_powers(state):
            raise Rejected("power_taken", power=args["power"])
    else:
        args.pop("power", None)
    return Action(action.player, POWER, args)


def _check_target(state: GameState, p: Player, target: Any, kind: str) -> None:
    if not isinstance(target, str) or not state.has_player(target):
        raise Rejected("unknown_player", target=target)
    t = state.player(target)
    if target == p.name:
        raise Rejected("self_target")
    if t.data.get("exiled"):
        raise Rejected("target_exiled", target=target)
    if kind == ALIVE and not t.alive:
        raise Rejected("target_not_alive", target=target)
    if kind == DEAD and t.alive:
        raise Rejected("target_not_dead", target=target)


def check_living_target(state: GameState, target: Any) -> None:
    if not isinstance(target, str) or not state.has_player(target):
        raise Rejected("unknown_player", target=target)
    if not is_active(state.player(target)):
        raise Rejected("target_not_alive", target=target)


def validate(state: GameState, action: Action) -> Action:
    p = acting_player(state, action)
    if p.data.get("exiled"):
        raise Rejected("exiled")
    kind = action.kind
    if kind == APPOINT:
        if state.mayor != p.name or not p.alive:
            raise Rejected("not_mayor")
        target = action.args.get("appoint")
        check_living_target(state, target)
        if target == p.name:
            raise Rejected("self_successor")
        return action
    if kind in (VOTE, ELECT):
        if state.phase.kind != "day":
            raise Rejected("not_now", kind=kind)
        if not p.alive:
            raise Rejected("dead_cannot_vote")
        check_living_target(state, action.args.get(kind))  # FAQ 7: oneself is fine
        return action
    if kind == POWER:
        return check_power(state, p, action)
    raise Rejected("not_in_ruleset", kind=kind)


def forms(state: GameState, player: str) -> list[ActionForm]:
    if state.over or not state.has_player(player):
        return []
    p = state.player(player)
    if p.data.get("exiled"):
        return []
    out: list[ActionForm] = []
    living = [q.name for q in state.players if is_active(q)]
    if state.mayor == player and p.alive:
        out.append(ActionForm(APPOINT, [FormField("appoint", "player",
                                                  [n for n in living if n != player])],
                              "form.appoint"))
    if state.phase.kind == "day":
        if p.alive:
            out.append(ActionForm(VOTE, [FormField("vote", "player", living)], "form.vote"))
            out.append(ActionForm(ELECT, [FormField("elect", "player", living)], "form.elect"))
        return out
    form = power_form(state, p)
    if form:
        out.append(form)
    return out
