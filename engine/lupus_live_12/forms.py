"""The forms of the reserved area (§1.4): only the choices the rules allow now."""
from __future__ import annotations

from ..core import ActionForm, FormField, GameState
from ..lupus_common.actions import APPOINT, BECOME, NOTES, POWER, QUESTION, RITUAL, SHOUT, VOTE
from .rituals import RITUALS, target_choices
from .validation import become_choices, can_ask, power_targets


def _ritual_form(state: GameState, player: str, satanista: bool) -> ActionForm | None:
    names = [r.name for r in RITUALS.values()
             if not satanista or r.parametric or r.base >= 3]
    partners = [p.name for p in state.dead() if p.name != player]
    depends = {"ritual": {name: target_choices(state, RITUALS[name]) for name in names}}
    everyone = [p.name for p in state.players]
    fields = [
        FormField("ritual", "choice", names),
        FormField("with", "players", partners, min=1, max=len(partners) or None),
    ]
    if not satanista:
        # §2.6: "un giocatore vivo, scelto da un'apposita casella a discesa, che deve
        # corrispondere al Satanista": every living player is offered, so the form
        # never tells a ghost who the Satanista is.
        fields.append(FormField("satanista", "player", [p.name for p in state.alive()],
                                required=False))
    return ActionForm(RITUAL, [
        *fields,
        FormField("target", "player", everyone, required=False, depends=depends),
        # n only for the parametric rituals (listed in the label's data); a Satanista needs 1+n >= 3.
        FormField("n", "int", required=False, min=2 if satanista else 1,
                  max=max(len(state.players), 1)),
    ], "form.ritual.satanista" if satanista else "form.ritual")


def forms(state: GameState, player: str) -> list[ActionForm]:
    if state.over:
        return []
    p = state.player(player)
    out: list[ActionForm] = []
    living = [q.name for q in state.alive()]
    if state.mayor == player and p.alive:
        out.append(ActionForm(APPOINT, [FormField("appoint", "player",
                                                  [n for n in living if n != player])],
                              "form.appoint"))
    choices = become_choices(state, p)
    if choices:
        out.append(ActionForm(BECOME, [FormField("become", "choice", choices)], "form.become"))
    if state.phase.kind == "day":
        if p.alive:
            out.append(ActionForm(VOTE, [FormField("vote", "player", living)], "form.vote"))
        return out
    targets = power_targets(state, p)
    if targets is not None:
        out.append(ActionForm(POWER, [FormField("target", "player", targets)],
                              f"form.power.{p.role}"))
    if can_ask(state, p):
        out.append(ActionForm(QUESTION, [FormField("question", "text")], "form.question"))
    if not p.alive:
        form = _ritual_form(state, player, satanista=False)
        if form:
            out.append(form)
    elif p.role == "Satanista" and state.dead():
        form = _ritual_form(state, player, satanista=True)
        if form:
            out.append(form)
    # §1.4.2: living and dead alike have the notes and the night shout.
    out.append(ActionForm(SHOUT, [FormField("shout", "text", required=False)], "form.shout"))
    out.append(ActionForm(NOTES, [FormField("notes", "text", required=False)], "form.notes"))
    return out
