"""The player's reserved area: role, what the player knows, private results, and the
forms of the phase.

The engine says which forms a player has now and which choices are legal
(engine.core.ActionForm); this module turns them into CSRF-protected forms and
sends what comes back through operations.submit, the one path of every action.
The engine stays the authority: the choices here are a convenience, and a value
outside them reaches the engine, which refuses it with a reason
(pbm.render.rejection), never with a bare "not a valid choice".
"""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import login_required
from sqlalchemy import select
from wtforms import HiddenField, SelectField, SelectMultipleField, StringField, TextAreaField, widgets

from engine.core import NOTES, POWER, PRIVATE, RITUAL, SHOUT, ActionForm, GameState, Rejected
from engine.interface import Viewer
from engine.registry import get_ruleset

from .. import operations, render, visibility
from ..models import EventRow, Game, PhaseStatus, Seat
from . import config, db, game_or_404, my_seat, now
from . import ruleset_panels
from .forms import ActionFormBase, options

bp = Blueprint("player", __name__)

# Free text that rides along with the night's main form (§1.4.2: the power or ritual
# form has "una casella di testo per le note ed una per un eventuale urlo notturno").
RIDERS = (SHOUT, NOTES)


class CheckboxesField(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


# --------------------------------------------------------------------------- grouping

def page_groups(specs: list[ActionForm]) -> list[list[ActionForm]]:
    """The engine's forms as the page shows them: notes and shout join the ritual
    form (or the power form, or stand alone), every other form is on its own."""
    riders = [s for s in specs if s.kind in RIDERS]
    main = [s for s in specs if s.kind not in RIDERS]
    host = (next((s for s in main if s.kind == RITUAL), None)
            or next((s for s in main if s.kind == POWER), None))
    groups = [[s, *riders] if s is host else [s] for s in main]
    if host is None and riders:
        groups.append(riders)
    return groups


def group_key(group: list[ActionForm]) -> str:
    return "+".join(s.kind for s in group)


# --------------------------------------------------------------------------- building

def build_form(specs: ActionForm | list[ActionForm], formdata: Any = None, *,
               ruleset: str = "", state: GameState | None = None,
               current: dict[str, dict[str, Any]] | None = None) -> ActionFormBase:
    """A CSRF-protected form with the fields of one page group, choices as the engine offers,
    filled with what the player already submitted this phase (``current``: kind -> args)."""
    group = [specs] if isinstance(specs, ActionForm) else list(specs)
    prefix = group[0].kind
    attrs: dict[str, Any] = {"kind": HiddenField(default=group_key(group))}
    data: dict[str, Any] = {}
    for spec in group:
        names = {f.name for f in spec.fields}
        for key, value in _as_fields(spec, (current or {}).get(spec.kind), state).items():
            if key in names and value not in (None, "", []):
                data[key] = value
        for f in spec.fields:
            attrs[f.name] = _field(spec, f, prefix, ruleset, state)
    form_class = type(f"{prefix.title()}Form", (ActionFormBase,), attrs)
    return form_class(formdata=formdata, prefix=prefix, data=data)


def _as_fields(spec: ActionForm, args: dict[str, Any] | None, state: GameState | None) -> dict[str, Any]:
    """A stored submission as the form's fields: the one living player among a ghost's
    collaborators goes back to the Satanista drop-down."""
    if not args:
        return {}
    out = dict(args)
    if "n" in out and out["n"] is not None:
        out["n"] = str(out["n"])
    if spec.kind == RITUAL and state is not None and "satanista" in {f.name for f in spec.fields}:
        together = list(out.get("with") or [])
        living = [n for n in together if state.has_player(n) and state.player(n).alive]
        out["with"] = [n for n in together if n not in living]
        out["satanista"] = living[0] if living else None
    return out


def _field(spec: ActionForm, f: Any, prefix: str, ruleset: str, state: GameState | None):
    label = ruleset_panels.power_field_label(spec, f.name) or _field_label(f.name)
    description = _field_help(spec, f.name)
    render_kw: dict[str, Any] = {}

    def shown(value: str) -> str:
        if state is None:
            return value
        return ruleset_panels.choice_label(ruleset, state, spec, f.name, value)

    if f.depends:
        # The choices narrowed by another field of the same form (the ritual's target):
        # forms.js shows only those; without JS every name is offered and the engine judges.
        (controller, table), = f.depends.items()
        render_kw["data-depends-on"] = f"{prefix}-{controller}"
        render_kw["data-depends"] = json.dumps(table, ensure_ascii=False)
    if f.name == "n" and spec.kind == RITUAL:
        parametric = ruleset_panels.parametric_rituals(ruleset)
        if parametric:
            render_kw["data-show-when"] = json.dumps({f"{prefix}-ritual": parametric},
                                                     ensure_ascii=False)
    if f.type in ("player", "choice"):
        # Always a blank first: a pre-selected name would be submitted by a careless tap.
        choices = [("", "—")] + [(c, shown(c)) for c in f.choices]
        return SelectField(label, choices=options(choices), validate_choice=False,
                           description=description, render_kw=render_kw)
    if f.type == "players":
        return CheckboxesField(label, choices=options((c, shown(c)) for c in f.choices),
                               validate_choice=False, description=description, render_kw=render_kw)
    if f.type == "int":
        # Text, not IntegerField: a bad number is the engine's to refuse, with its reason.
        render_kw.update({"type": "number", "inputmode": "numeric"})
        if f.min is not None:
            render_kw["min"] = f.min
        if f.max is not None:
            render_kw["max"] = f.max
        return StringField(label, description=description, render_kw=render_kw)
    if f.name in ("notes", "question"):
        return TextAreaField(label, description=description, render_kw={"rows": 2, **render_kw})
    return StringField(label, description=description, render_kw=render_kw)


def _field_label(name: str) -> str:
    labels = {
        "vote": _("Vote for the pyre"), "target": _("Target"), "target2": _("Second target"),
        "power": _("Power"), "ritual": _("Ritual"), "with": _("Together with"), "n": _("n"),
        "satanista": _("With the Satanista"),
        "appoint": _("Deputy / successor"), "elect": _("Mayor election"),
        "become": _("Role to become"), "question": _("Question for the Masters"),
        "shout": _("Night shout"), "notes": _("Notes"),
    }
    return labels.get(name, name)


def _field_help(spec: ActionForm, name: str) -> str:
    satanista = spec.label == "form.ritual.satanista"
    if spec.kind == RITUAL and name == "with":
        if satanista:
            return _("The ghosts you perform it with: you take the place of two participants.")
        return _("The other ghosts taking part.")
    if spec.kind == RITUAL and name == "satanista":
        return _("Only if a Satanista takes part: he takes the place of two ghosts. If the "
                 "player you name is not the Satanista, the ritual fails.")
    if spec.kind == RITUAL and name == "n":
        return _("Only for the rituals marked (n). Left empty, it is counted from the group.")
    if spec.kind == RITUAL and name == "target":
        return _("The legal targets depend on the ritual.")
    if name == "shout":
        return _("Anonymous: published with the next bulletin.")
    if name == "question":
        return _("One yes/no question in the whole game; the Masters answer it.")
    return ""


def form_title(spec: ActionForm) -> str:
    if spec.label == "form.ritual.satanista":
        return _("Ritual (Satanista)")
    if spec.kind == POWER and spec.label.startswith("form.power."):
        return _("Your power: %(name)s", name=spec.label.removeprefix("form.power."))
    titles = {
        "vote": _("Pyre vote"), "power": _("Your power"), "ritual": _("Ritual"),
        "appoint": _("Deputy mayor"), "elect": _("Elect the mayor"), "become": _("Choose your role"),
        "question": _("Question to the Masters"), "shout": _("Night shout"), "notes": _("Notes"),
    }
    return titles.get(spec.kind, spec.kind)


def submission_from(form: ActionFormBase, group: ActionForm | list[ActionForm]) -> dict[str, Any]:
    """The vocabulary of SCENARIOS.md, only the keys the player filled in."""
    specs = [group] if isinstance(group, ActionForm) else group
    out: dict[str, Any] = {}
    for spec in specs:
        for f in spec.fields:
            value = getattr(form, f.name).data
            if isinstance(value, str):
                value = value.strip()
            if value in (None, "", []):
                continue
            out[f.name] = value
    return out


# --------------------------------------------------------------------------- the page

def reserved_context(game: Game, seat: Seat) -> dict[str, Any]:
    lang = str(get_locale() or "it")
    tz = operations.game_tz(game)
    session = db()
    phase = operations.current_phase(session, game)
    state = operations.current_state(game)
    me = state.player(seat.name) if state else None
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game.id)
                           .order_by(EventRow.phase_id, EventRow.seq)).all()
    known, results = [], []
    # What was told to this player alone; the public events are the bulletin's.
    for seen in visibility.seen(rows, Viewer(player=seat.name), game.ruleset, lang):
        if seen.visibility == PRIVATE:
            (known if seen.phase_id is None else results).append(
                {"phase": seen.phase_id, "text": seen.text or seen.event.kind})
    forms, current = [], []
    if phase is not None and phase.status == PhaseStatus.OPEN and now() < phase.ends_at:
        open_state = GameState.from_dict(phase.state_before)
        specs = get_ruleset(game.ruleset).forms(open_state, seat.name)
        latest = [r for r in operations.latest_actions(session, phase) if r.seat_id == seat.id]
        submitted = {r.kind: dict(r.args) for r in latest}
        for group in page_groups(specs):
            form = build_form(group, ruleset=game.ruleset, state=open_state, current=submitted)
            forms.append((group[0], form, " · ".join(form_title(s) for s in group)))
        current = [(r.kind, operations.describe_submission(r.args, lang), r.source, r.submitted_at)
                   for r in latest]
    # What the rules show this player of their own state at a glance (a power they hold...).
    table = get_ruleset(game.ruleset).public_table(state, Viewer(player=seat.name), lang) if state else []
    return {
        "game": game, "seat": seat, "me": me, "state": state, "phase": phase,
        "phase_label": render.phase_label(phase, lang, tz) if phase else None,
        "deadline": render.deadline_text(phase.ends_at, lang, tz) if phase else None,
        "known": known, "results": results, "forms": forms, "current": current,
        "mayor": state.mayor if state else None, "table": table,
    }


@bp.route("/g/<slug>/me")
@login_required
def reserved(slug: str):
    game = game_or_404(slug)
    seat = my_seat(game)
    if seat is None:
        abort(403)
    return render_template("reserved.html", **reserved_context(game, seat))


@bp.route("/g/<slug>/act", methods=["POST"])
@login_required
def act(slug: str):
    game = game_or_404(slug)
    seat = my_seat(game)
    if seat is None:
        abort(403)
    session = db()
    lang = str(get_locale() or "it")
    kind = _kind_from(request.form) or ""
    try:
        phase = operations.open_phase_for(session, game, now())
        state = GameState.from_dict(phase.state_before)
        groups = {group_key(g): g for g in page_groups(get_ruleset(game.ruleset).forms(state, seat.name))}
        group = groups.get(kind)
        if group is None:
            raise Rejected("not_now", kind=kind)
        form = build_form(group, request.form, ruleset=game.ruleset, state=state)
        if not form.validate():
            raise Rejected("bad_form", errors="; ".join(
                f"{k}: {', '.join(map(str, v))}" for k, v in form.errors.items()))
        submission = submission_from(form, group)
        if not submission:
            raise Rejected("empty_submission")
        operations.submit(session, config(), game, seat, submission, source="web", now=now())
        session.commit()
        flash(_("Recorded: %(what)s. You can change it until %(deadline)s.",
                what="; ".join(operations.describe_submission(submission, lang)),
                deadline=render.deadline_text(phase.ends_at, lang, operations.game_tz(game))),
              "receipt")
    except Rejected as exc:
        session.rollback()
        flash(_("Not recorded: %(why)s", why=render.rejection(exc.code, exc.params, game.ruleset, lang)),
              "error")
    return redirect(url_for("player.reserved", slug=game.slug))


def _kind_from(form: Any) -> str | None:
    # Each page form is prefixed with its first kind, so "ritual-kind" names the form sent.
    for key in form:
        if key.endswith("-kind"):
            return form[key]
    return None
