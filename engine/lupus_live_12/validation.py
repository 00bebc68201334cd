"""What a player may submit, checked when it is submitted (§1.4, §1.9, the roles' limits)."""
from __future__ import annotations

from typing import Any, Callable

from ..core import Action, GameState, Player, acting_player, Rejected
from ..lupus_common.actions import APPOINT, BECOME, NOTES, POWER, QUESTION, RITUAL, SHOUT, VOTE
from .rituals import validate_ritual
from .roles import ALIVE, DEAD, EREDE_CHOICES, MISSILE_NIGHTS, ROLES, USURPATORE_CHOICES, canonical


def erede_day(state: GameState) -> int:
    """§1.3 Erede: day ⌊n/4⌋+1, n the number of players at the start of the game."""
    n = int(state.data.get("initial_count", len(state.players)))
    return n // 4 + 1


def acts_tonight(state: GameState, p: Player) -> bool:
    """A living player, or a ghost granted tonight's power by a Replay (§4.8)."""
    if state.phase.kind != "night":
        return False
    return p.alive or p.data.get("replay_night") == state.phase.number


def power_targets(state: GameState, p: Player) -> list[str] | None:
    """The legal targets of p's targeted power tonight, or None if p cannot use one now."""
    if not acts_tonight(state, p):
        return None
    role = ROLES[p.role]
    night = state.phase.number
    if role.target is None:
        return None
    if p.role == "Lupo Mannaro" and night == 1:
        return None
    if p.role == "Missile" and night not in MISSILE_NIGHTS:
        return None
    if p.data.get("cooldown") == night:  # Espansivo, Avvocato, Rasputin, Usurpatore
        return None
    chosen = {c["target"] for c in p.data.get("missile", [])} if p.role == "Missile" else set()
    out = []
    for q in state.players:
        if q.name == p.name and not role.self_target:
            continue
        if role.target == ALIVE and not q.alive or role.target == DEAD and q.alive:
            continue
        if q.name in chosen:
            continue
        out.append(q.name)
    return out


def _validate_power(state: GameState, p: Player, action: Action) -> Action:
    if state.phase.kind != "night":
        raise Rejected("not_now", kind=action.kind)
    if not acts_tonight(state, p):
        raise Rejected("dead_no_power")
    role = ROLES[p.role]
    night = state.phase.number
    if role.target is None:
        raise Rejected("no_power", role=p.role)
    if p.role == "Lupo Mannaro" and night == 1:
        raise Rejected("first_night_kill")
    if p.role == "Missile" and night not in MISSILE_NIGHTS:
        raise Rejected("missile_not_tonight")
    if p.data.get("cooldown") == night:
        raise Rejected("cooldown", role=p.role)
    target = action.args.get("target")
    if target is None:
        raise Rejected("target_required")
    target = str(target)
    if not state.has_player(target):
        raise Rejected("unknown_player", target=target)
    if target == p.name and not role.self_target:
        raise Rejected("self_target")
    t = state.player(target)
    if role.target == ALIVE and not t.alive:
        raise Rejected("target_not_alive", target=target)
    if role.target == DEAD and t.alive:
        raise Rejected("target_not_dead", target=target)
    if p.role == "Missile" and target in {c["target"] for c in p.data.get("missile", [])}:
        raise Rejected("missile_repeat", target=target)
    return Action(action.player, POWER, {"target": target})


def can_ask(state: GameState, p: Player) -> bool:
    return (acts_tonight(state, p) and p.role == "Profeta"
            and not p.data.get("question_used"))


def _validate_question(state: GameState, p: Player, action: Action) -> Action:
    if state.phase.kind != "night":
        raise Rejected("not_now", kind=action.kind)
    if p.role != "Profeta":
        raise Rejected("no_question")
    if not acts_tonight(state, p):
        raise Rejected("dead_no_power")
    if p.data.get("question_used"):
        raise Rejected("question_used")
    text = action.args.get("question")
    if text is None or not str(text).strip():
        raise Rejected("question_empty")
    return Action(action.player, QUESTION, {"question": str(text)})


def erede_may_become(state: GameState, p: Player) -> bool:
    if not p.alive or p.role != "Erede":
        return False
    day = erede_day(state)
    ph = state.phase
    return (ph.kind == "day" and ph.number >= day) or (ph.kind == "night" and ph.number > day)


def usurpatore_may_become(state: GameState, p: Player) -> bool:
    """Earned by killing an Erede; at night it may be submitted with the attempt itself."""
    if not p.alive or p.role != "Usurpatore":
        return False
    return bool(p.data.get("usurped")) or state.phase.kind == "night"


def become_choices(state: GameState, p: Player) -> list[str]:
    if erede_may_become(state, p):
        return list(EREDE_CHOICES)
    if usurpatore_may_become(state, p):
        return list(USURPATORE_CHOICES)
    return []


def _validate_become(state: GameState, p: Player, action: Action) -> Action:
    if not p.alive:
        raise Rejected("dead_no_power")
    try:
        wanted = canonical(str(action.args.get("become")))
    except KeyError:
        raise Rejected("unknown_role", role=action.args.get("become")) from None
    if p.role == "Erede":
        if not erede_may_become(state, p):
            raise Rejected("become_too_early", day=erede_day(state))
        if wanted not in EREDE_CHOICES:
            raise Rejected("become_not_allowed", role=wanted)
    elif p.role == "Usurpatore":
        if not usurpatore_may_become(state, p):
            raise Rejected("become_not_earned")
        if wanted not in USURPATORE_CHOICES:
            raise Rejected("become_not_allowed", role=wanted)
    else:
        raise Rejected("no_become", role=p.role)
    return Action(action.player, BECOME, {"become": wanted})


def _living_other(state: GameState, p: Player, target: Any) -> str:
    if target is None or not state.has_player(str(target)):
        raise Rejected("unknown_player", target=target)
    target = str(target)
    if target == p.name:
        raise Rejected("appoint_self")
    if not state.player(target).alive:
        raise Rejected("target_not_alive", target=target)
    return target


def validate(state: GameState, action: Action) -> Action:
    p = acting_player(state, action)
    kind = action.kind
    if kind == APPOINT:
        # §3: "quando ancora vivo ... in qualunque momento", so in any phase.
        if state.mayor != p.name or not p.alive:
            raise Rejected("not_mayor")
        return Action(p.name, APPOINT, {"appoint": _living_other(state, p, action.args.get("appoint"))})
    if kind in (SHOUT, NOTES):
        if kind == SHOUT and state.phase.kind != "night":
            raise Rejected("not_now", kind=kind)  # §1.4.2: the shout is a night form's box
        return action
    if kind == BECOME:
        return _validate_become(state, p, action)
    if kind == VOTE:
        if state.phase.kind != "day":
            raise Rejected("not_now", kind=kind)
        if not p.alive:
            raise Rejected("dead_cannot_vote")
        target = action.args.get("vote")
        if target is None or not state.has_player(str(target)):
            raise Rejected("unknown_player", target=target)
        if not state.player(str(target)).alive:
            raise Rejected("target_not_alive", target=target)
        return Action(p.name, VOTE, {"vote": str(target)})
    if kind == POWER:
        return _validate_power(state, p, action)
    if kind == QUESTION:
        return _validate_question(state, p, action)
    if kind == RITUAL:
        return validate_ritual(state, p, action)
    raise Rejected("not_now", kind=kind)


def power_beside_ritual(state: GameState, player: str, submission: dict[str, Any],
                        asked: list[Action], made: Callable[[], list[Action]]) -> list[Action]:
    """The power a ritual's submission also uses (``LupusLive12.submission_actions``): on
    the ritual's target, when the submission names a ritual and a target but no power
    of its own (``asked``: its actions), the player may use a power now (a ghost after
    a Replay), and the power she already chose this night (``made``), if any, went to
    her ritual's target too (so it was this rule's, not a choice of her own).
    ``made`` is asked only then: every other submission (a vote) reads nothing more."""
    if "ritual" not in submission or "target" not in submission:
        return []
    if any(a.kind == POWER for a in asked):
        return []
    standing = made()
    chosen = [a for a in standing if a.kind == POWER]
    rituals = [a for a in standing if a.kind == RITUAL]
    if chosen and (not rituals or chosen[-1].args.get("target") != rituals[-1].args.get("target")):
        return []
    try:
        return [validate(state, Action(player, POWER, {"target": submission["target"]}))]
    except Rejected:
        return []
