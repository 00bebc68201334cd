"""What a player may submit now (forms: only legal choices) and the check made when it
is submitted (validate). Votes are taken as given: that a recorded vote cannot be
changed ("una volta registrato il voto non sarà possibile cambiarlo") is the service's
to enforce."""
from __future__ import annotations

from typing import Any

from ..core import Action, ActionForm, FormField, GameState, Player, Rejected, acting_player
from ..lupus_common.actions import POWER, VOTE
from .phases import AFTERNOON, MORNING, NIGHT
from .roles import ALIVE, DEAD, LICANTROPO, ROLES


def runoff(state: GameState) -> list[str]:
    return list(state.data.get("runoff") or [])


def target_choices(state: GameState, p: Player) -> list[str]:
    """The players ``p``'s night power may point at tonight (none: no power now)."""
    role = ROLES.get(p.role)
    if (role is None or state.phase.kind != NIGHT or state.phase.number == 1 or not p.alive
            or role.target is None or (role.once and p.data.get("used"))):
        return []
    out = []
    for q in state.players:
        if q.name == p.name:
            continue
        if role.target == ALIVE and q.alive and not (role.kills and q.role == LICANTROPO):
            out.append(q.name)
        elif role.target == DEAD and not q.alive:
            out.append(q.name)
    return out


def vote_choices(state: GameState, p: Player) -> list[str]:
    if not p.alive:
        return []
    if state.phase.kind == MORNING:
        return [q.name for q in state.alive()]
    if state.phase.kind == AFTERNOON and p.name not in runoff(state):
        return runoff(state)
    return []


def forms(state: GameState, player: str) -> list[ActionForm]:
    if state.over or not state.has_player(player):
        return []
    p = state.player(player)
    votes = vote_choices(state, p)
    if votes:
        return [ActionForm(VOTE, [FormField("vote", "player", votes)], f"form.vote.{state.phase.kind}")]
    targets = target_choices(state, p)
    if targets:
        optional = ROLES[p.role].once  # the Apprendista may let the night pass
        return [ActionForm(POWER, [FormField("target", "player", targets, required=not optional)],
                           f"form.power.{p.role}")]
    return []


def _named_player(state: GameState, target: Any) -> Player:
    if not isinstance(target, str) or not state.has_player(target):
        raise Rejected("unknown_player", target=target)
    return state.player(target)


def check_vote(state: GameState, p: Player, action: Action) -> Action:
    if state.phase.kind not in (MORNING, AFTERNOON):
        raise Rejected("not_now", kind=VOTE)
    if not p.alive:
        raise Rejected("dead_cannot_vote")
    if state.phase.kind == AFTERNOON and p.name in runoff(state):
        raise Rejected("in_runoff")
    target = _named_player(state, action.args.get("vote"))
    if not target.alive:
        raise Rejected("target_not_alive", target=target.name)
    if state.phase.kind == AFTERNOON and target.name not in runoff(state):
        raise Rejected("not_in_runoff", target=target.name)
    return Action(p.name, VOTE, {"vote": target.name})


def check_power(state: GameState, p: Player, action: Action) -> Action:
    if state.phase.kind != NIGHT:
        raise Rejected("not_now", kind=POWER)
    if not p.alive:
        raise Rejected("dead_no_power")
    role = ROLES.get(p.role)  # None: the narrator has not identified the roles yet
    if role is None or role.target is None:
        raise Rejected("no_power", role=p.role)
    if state.phase.number == 1:
        raise Rejected("first_night")
    if role.once and p.data.get("used"):
        raise Rejected("already_used")
    target = _named_player(state, action.args.get("target"))
    if target.name == p.name:
        raise Rejected("self_target")
    if role.target == ALIVE and not target.alive:
        raise Rejected("target_not_alive", target=target.name)
    if role.target == DEAD and target.alive:
        raise Rejected("target_not_dead", target=target.name)
    if role.kills and target.role == LICANTROPO:
        raise Rejected("target_is_licantropo", target=target.name)
    return Action(p.name, POWER, {"target": target.name})


def validate(state: GameState, action: Action) -> Action:
    p = acting_player(state, action)
    if action.kind == VOTE:
        return check_vote(state, p, action)
    if action.kind == POWER:
        return check_power(state, p, action)
    raise Rejected("not_in_ruleset", kind=action.kind)
