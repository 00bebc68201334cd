"""What each ruleset adds to the pages: the labels that make the engine's form
choices readable. (The Masters' panels are the rulesets' own, ``BaseRuleset.panels``,
shown by ``desk_view.panels``; what a player was told is worded by the ruleset,
through ``pbm.visibility``.)

Pure presentation over the engine's state and events: nothing here decides a rule.
"""
from __future__ import annotations


from flask_babel import gettext as _

from engine.core import ActionForm, GameState

LUPUS_LIVE_12 = "lupus-live-12"


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
