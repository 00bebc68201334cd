"""The player's reserved area: role, private results, and the forms of the phase."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import select
from wtforms import HiddenField, IntegerField, SelectField, SelectMultipleField, StringField, widgets

from engine.core import ActionForm, GameState, Rejected
from engine.registry import get_ruleset

from .. import operations, render, texts
from ..models import EventRow, Game, Seat
from . import config, db, game_or_404, my_seat, now
from .forms import ActionFormBase, options

bp = Blueprint("player", __name__)


class CheckboxesField(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


def build_form(spec: ActionForm, formdata: Any = None) -> ActionFormBase:
    """A CSRF-protected form offering only the choices the engine allows."""
    attrs: dict[str, Any] = {"kind": HiddenField(default=spec.kind)}
    for f in spec.fields:
        label = _field_label(f.name)
        if f.type == "player" or f.type == "choice":
            choices = ([("", "—")] if not f.required else []) + [(c, c) for c in f.choices]
            attrs[f.name] = SelectField(label, choices=options(choices))
        elif f.type == "players":
            attrs[f.name] = CheckboxesField(label, choices=options((c, c) for c in f.choices))
        elif f.type == "int":
            attrs[f.name] = IntegerField(label, default=f.min)
        else:
            attrs[f.name] = StringField(label)
    form_class = type(f"{spec.kind.title()}Form", (ActionFormBase,), attrs)
    return form_class(formdata=formdata, prefix=spec.kind)


def _field_label(name: str) -> str:
    labels = {
        "vote": _("Vote for the pyre"), "target": _("Target"), "target2": _("Second target"),
        "power": _("Power"), "ritual": _("Ritual"), "with": _("Together with"), "n": _("n"),
        "appoint": _("Deputy / successor"), "elect": _("Mayor election"),
        "become": _("Role to become"), "question": _("Question for the Masters"),
        "shout": _("Night shout"), "notes": _("Notes"),
    }
    return labels.get(name, name)


def form_title(kind: str) -> str:
    titles = {
        "vote": _("Pyre vote"), "power": _("Your power"), "ritual": _("Ritual"),
        "appoint": _("Deputy mayor"), "elect": _("Elect the mayor"), "become": _("Choose your role"),
        "question": _("Question to the Masters"), "shout": _("Night shout"), "notes": _("Notes"),
    }
    return titles.get(kind, kind)


def submission_from(form: ActionFormBase, spec: ActionForm) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in spec.fields:
        value = getattr(form, f.name).data
        if value in (None, "", []):
            continue
        out[f.name] = value
    return out


def reserved_context(game: Game, seat: Seat) -> dict[str, Any]:
    lang = str(get_locale() or "it")
    tz = operations.game_tz(game)
    session = db()
    phase = operations.current_phase(session, game)
    state = operations.current_state(game)
    me = state.player(seat.name) if state else None
    rows = session.scalars(select(EventRow).where(
        EventRow.game_id == game.id, EventRow.visibility == "private",
        EventRow.published.is_(True)).order_by(EventRow.phase_id, EventRow.seq)).all()
    mine = [r for r in rows if seat.name in (r.recipients or [])]
    results = [{"phase": r.phase_id, "text": render.describe(r.kind, r.data, game.ruleset, lang) or r.kind}
               for r in mine]
    forms, current = [], []
    if phase is not None and phase.status == "open" and now() < phase.ends_at:
        open_state = GameState.from_dict(phase.state_before)
        specs = get_ruleset(game.ruleset).forms(open_state, seat.name)
        forms = [(spec, build_form(spec), form_title(spec.kind)) for spec in specs]
        current = [(r.kind, operations.describe_submission(r.args, lang), r.source, r.submitted_at)
                   for r in operations.latest_actions(session, phase) if r.seat_id == seat.id]
    return {
        "game": game, "seat": seat, "me": me, "state": state, "phase": phase,
        "phase_label": render.phase_label(phase, lang, tz) if phase else None,
        "deadline": render.deadline_text(phase.ends_at, lang, tz) if phase else None,
        "results": results, "forms": forms, "current": current,
        "mayor": state.mayor if state else None,
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
    kind = _kind_from(request.form)
    try:
        phase = operations.open_phase_for(session, game, now())
        state = GameState.from_dict(phase.state_before)
        specs = {s.kind: s for s in get_ruleset(game.ruleset).forms(state, seat.name)}
        spec = specs.get(kind)
        if spec is None:
            raise Rejected("not_now", kind=kind)
        form = build_form(spec, request.form)
        if not form.validate():
            raise Rejected("bad_form", errors="; ".join(
                f"{k}: {', '.join(map(str, v))}" for k, v in form.errors.items()))
        submission = submission_from(form, spec)
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
        flash(_("Not recorded: %(why)s", why=texts.rejection(exc.code, exc.params, game.ruleset, lang)),
              "error")
    return redirect(url_for("player.reserved", slug=game.slug))


def _kind_from(form: Any) -> str | None:
    # Each action form is prefixed with its kind, so "vote-kind" names the form sent.
    for key in form:
        if key.endswith("-kind"):
            return form[key]
    return None
