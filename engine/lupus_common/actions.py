"""What a player of a Lupus game submits: the submission kinds, and a submission in the
vocabulary of docs/scenarios.md ({vote: X, shout: ...}) split into them."""
from __future__ import annotations

from typing import Any, Iterable

from ..core import Action

# The submission kinds: each is queued separately, the last per player and kind wins
# (``core.keep_last``).
VOTE, POWER, RITUAL, ELECT, APPOINT, BECOME, QUESTION, SHOUT, NOTES = (
    "vote", "power", "ritual", "elect", "appoint", "become", "question", "shout", "notes",
)

_KEY_TO_KIND = {
    "vote": VOTE,
    "elect": ELECT,
    "appoint": APPOINT,
    "become": BECOME,
    "question": QUESTION,
    "shout": SHOUT,
    "notes": NOTES,
}
RITUAL_KEYS = ("ritual", "with", "n")
_POWER_KEYS = ("target", "target2", "power")


def actions_from_submission(player: str, submission: dict[str, Any],
                            ritual_keys: Iterable[str] = RITUAL_KEYS) -> list[Action]:
    """Split a scenario/mail style submission ({vote: X, shout: ...}) into actions.

    A ritual's target belongs to the ritual; otherwise target/target2/power
    form the power action. ``ritual_keys`` are the keys that belong to a ritual:
    a game adds its own through ``LupusRuleset.RITUAL_KEYS``.
    """
    ritual_keys = tuple(ritual_keys)
    actions: list[Action] = []
    sub = dict(submission)
    if "ritual" in sub:
        args = {k: sub.pop(k) for k in ritual_keys if k in sub}
        if "target" in sub:
            args["target"] = sub.pop("target")
        args.setdefault("with", [])
        actions.append(Action(player, RITUAL, args))
    power_args = {k: sub.pop(k) for k in _POWER_KEYS if k in sub}
    if power_args:
        actions.append(Action(player, POWER, power_args))
    for key, value in sub.items():
        kind = _KEY_TO_KIND.get(key)
        if kind is None:
            raise ValueError(f"unknown action key {key!r}")
        actions.append(Action(player, kind, {key: value}))
    return actions
