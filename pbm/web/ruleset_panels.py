"""What each ruleset adds to the pages: the player's knowledge from the start, and
the labels that make the engine's form choices readable. (The Masters' panels are
the rulesets' own: ``BaseRuleset.panels``, shown by ``desk_view.panels``.)

Pure presentation over the engine's state and events: nothing here decides a rule.
``player_line`` words what one player was told and never reads the state of anyone else.
"""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from engine.core import ActionForm, GameState

LUPUS_LIVE_12 = "lupus-live-12"


# --------------------------------------------------------------------------- events

def _get(row: Any, key: str, default: Any = None) -> Any:
    if isinstance(row, dict):
        return row.get(key, default)
    return getattr(row, key, default)


def _names(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} ({v})" for k, v in value.items()) or "—"
    if isinstance(value, (list, tuple, set)):
        return ", ".join(map(str, value)) or "—"
    return "—" if value in (None, "") else str(value)


def _truth(value: bool) -> str:
    return _("true") if value else _("false")


def _propositions(props: list[dict[str, Any]], with_truth: bool) -> list[str]:
    out = []
    for p in props:
        line = _("%(player)s has the role %(role)s", player=p.get("player"), role=p.get("role"))
        if with_truth and "true" in p:
            line += f" ({_truth(bool(p['true']))})"
        out.append(line)
    return out


# --------------------------------------------------------------------------- the player

def player_line(kind: str, data: dict[str, Any], ruleset: str) -> str | None:
    """Our wording of the private setup facts whose data the catalog cannot format
    (dicts and lists of dicts); None for anything else (the caller words it)."""
    if kind == "role_letter":
        line = _("Your role: %(role)s (faction %(faction)s, aura %(aura)s).",
                 role=data.get("role"), faction=data.get("faction"), aura=data.get("aura"))
        if "mystic" in data:
            line += " " + (_("You are a mystic.") if data["mystic"] else _("You are not a mystic."))
        return line
    if kind == "pack":
        return _("Your pack (the Lupi, who know each other): %(members)s.",
                 members=_names(data.get("members")))
    if kind == "knows":
        return _("You know from the start: %(players)s.", players=_names(data.get("players")))
    if kind == "propositions":
        return _("Your four propositions (exactly two true, two false): %(list)s.",
                 list="; ".join(_propositions(data.get("propositions") or [], with_truth=False)))
    if kind == "necromancers":
        return _("The Negromanti who woke you: %(players)s.", players=_names(data.get("players")))
    return None


# --------------------------------------------------------------------------- forms

def ritual_facts(ruleset: str) -> dict[str, tuple[int, bool, bool]]:
    """ritual -> (participants or base, parametric, has target), for labels and the n field."""
    if ruleset != LUPUS_LIVE_12:
        return {}
    from engine.lupus_live_12.rituals import RITUALS
    return {r.name: (r.base, r.parametric, r.target is not None) for r in RITUALS.values()}


def choice_label(ruleset: str, state: GameState, spec: ActionForm, field: str, value: str) -> str:
    """How one choice reads in a form: each ritual with how many take part. Players read
    as their names only: a label must never tell a role (the Satanista least of all)."""
    if spec.kind == "ritual" and field == "ritual":
        facts = ritual_facts(ruleset).get(value)
        if facts:
            base, parametric, _target = facts
            if parametric:
                return _("%(ritual)s (n): %(base)s+n participants", ritual=value, base=base)
            return _("%(ritual)s: %(count)s participants", ritual=value, count=base)
    return value


def parametric_rituals(ruleset: str) -> list[str]:
    return [name for name, (_b, parametric, _t) in ritual_facts(ruleset).items() if parametric]


# Two-target powers read better with what each chooser means (tempo-reale-7 §3.7).
_TWO_TARGETS = {
    "Confusione": (lambda: _("Who is surrounded by confusion"),
                   lambda: _("Whose information is given instead")),
    "Illusione": (lambda: _("Where the illusion appears"),
                  lambda: _("Whose illusion (a living player)")),
    "Ipnosi": (lambda: _("Whose vote you control"),
               lambda: _("Against whom that vote goes")),
    "Negromante": (lambda: _("The dead player to wake as a Spettro"), None),
}


def power_field_label(spec: ActionForm, field: str) -> str | None:
    if spec.kind != "power" or not spec.label.startswith("form.power."):
        return None
    labels = _TWO_TARGETS.get(spec.label.removeprefix("form.power."))
    if not labels:
        return None
    pick = {"target": labels[0], "target2": labels[1]}.get(field)
    return pick() if pick else None
