"""The page of a game played in answer windows (WINDOW timing), phone first.

At a glance: the table (the ruleset's ``public_table`` as this viewer may see it:
the viewer's own hand only), the open window (who still has to answer, until when),
the legal answers as big buttons, more time and standing answers, and the log of
every round. The same page, without a hand or buttons, is the game's public page.

Every button is a small form carrying the window it answers (``phase``): an answer
that reaches the server after that window closed is refused ("too late: that moment
has passed"), never applied to the window open now. The answer that completes a
window settles it in the request (``operations.settle``).
"""
from __future__ import annotations

import itertools
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import login_required
from sqlalchemy import select

from engine.core import ActionForm, GameState, Rejected
from engine.interface import Viewer
from engine.registry import get_ruleset

from ..i18n import request_lang
from .. import operations, render, role_cards
from ..models import EventRow, Game, PhaseRow, PhaseStatus, Seat
from ..operations import windows
from ..views import window as window_view
from . import config, db, game_or_404, my_seat, now
from .forms import CsrfForm
from .refusals import attempt, not_recorded

bp = Blueprint("window_page", __name__)

# Beyond this many combinations a form is offered as drop-downs, not buttons.
MAX_BUTTONS = 24


def buttons(ruleset: Any, form: ActionForm, lang: str,
            state: GameState | None = None) -> list[dict[str, Any]] | None:
    """Every legal answer of a form as one button ({label, values}), or None when the
    form needs more than a tap (several cards to pick, too many combinations).

    A field that depends on the first one takes, for each of its values, only the
    choices listed for it: nothing at all for a value not listed (a pass names no
    card; only a block names the characters that may block). Each button says the
    whole answer it gives, as the game words it (``describe_submission``)."""
    fields = list(form.fields)
    if any(f.type not in ("choice", "player") for f in fields):
        return None
    first, rest = fields[0], fields[1:]
    combos: list[dict[str, str]] = []
    for value in first.choices:
        options: list[list[tuple[str, str | None]]] = []
        for f in rest:
            if f.depends and first.name in f.depends:
                narrowed = list(f.depends[first.name].get(value) or [])
            else:
                narrowed = list(f.choices)
            options.append([(f.name, c) for c in narrowed] or [(f.name, None)])
        for picked in itertools.product(*options) if options else [()]:
            combo = {first.name: value, **{k: v for k, v in picked if v is not None}}
            combos.append(combo)
    if len(combos) > MAX_BUTTONS:
        return None
    out = []
    for combo in combos:
        words = ruleset.describe_submission(ruleset.form_submission(form, combo), lang, state)
        out.append({"label": "; ".join(words), "values": combo,
                    "confirm": ruleset.confirms(form, combo)})
    return out


def _log(session: Any, game: Game, ruleset: Any, viewer: Viewer, lang: str) -> list[list[str]]:
    """Every published round, newest first, each newest event first: one order for the
    whole history (issue 31: the turns read newest first and their events oldest first)."""
    phases = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id)
                             .order_by(PhaseRow.index)).all()
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game.id,
                                                  EventRow.published.is_(True))
                           .order_by(EventRow.phase_id, EventRow.seq)).all()
    by_phase: dict[int | None, list[EventRow]] = {}
    for r in rows:
        by_phase.setdefault(r.phase_id, []).append(r)
    rounds: list[list[str]] = [window_view.lines_for(by_phase.get(None, []), game.ruleset, viewer, lang)]
    for ph in phases:
        if ruleset.reports_to_all(GameState.from_dict(ph.state_before)) and rounds[-1]:
            rounds.append([])
        rounds[-1] += window_view.lines_for(by_phase.get(ph.id, []), game.ruleset, viewer, lang)
    return [list(reversed(r)) for r in reversed(rounds) if r]


def page_context(game: Game, seat: Seat | None) -> dict[str, Any]:
    session, lang = db(), request_lang()
    ruleset = get_ruleset(game.ruleset)
    phase = operations.current_phase(session, game)
    ctx = window_view.window_context(session, game, phase, seat, lang, now())
    ctx["choices"] = []
    state = ctx["open_state"]
    for form in ctx["forms"]:
        ctx["choices"].append({"form": form, "title": ruleset.form_title(form, lang) or form.kind,
                               "buttons": buttons(ruleset, form, lang, state),
                               "fields": [{"name": f.name, "type": f.type, "min": f.min, "max": f.max,
                                           "choices": [(c, ruleset.describe_choice(f.name, c, lang))
                                                       for c in f.choices]} for f in form.fields]})
    if seat is not None and phase is not None and ctx["phase_id"]:
        mine = [r for r in operations.latest_actions(session, phase) if r.seat_id == seat.id]
        ctx["my_answer"] = [("; ".join(render.describe_submission(r.args, lang, game.ruleset, state)),
                             render.how_it_came(r.source, lang)) for r in mine]
    offered = ruleset.standing_answers(GameState.from_dict(game.state) if game.state else None)
    return {**ctx, "game": game, "seat": seat, "phase": phase,
            "log": _log(session, game, ruleset, Viewer(player=seat.name if seat else None), lang),
            "standing": [(k, label.get(lang) or label.get("it"), seat is not None and k in seat.standing)
                         for k, label in offered],
            "extensions_left": (windows.extensions_allowed(game) - seat.extensions_used) if seat else 0,
            # The cards of the characters the player holds (engine/cards.py).
            "cards": (role_cards.player_cards(game, operations.current_state(game), seat.name, lang)
                      if seat is not None else []),
            "csrf_form": CsrfForm()}


def render_page(game: Game, seat: Seat | None):
    return render_template("window_game.html", **page_context(game, seat))


def _seat_or_403(game: Game) -> Seat:
    seat = my_seat(game)
    if seat is None:
        abort(403)
    return seat


def _phase_id() -> int | None:
    value = request.form.get("phase", "")
    return int(value) if value.isdigit() else None


@bp.route("/g/<slug>/answer", methods=["POST"])
@login_required
def answer(slug: str):
    game = game_or_404(slug)
    seat = _seat_or_403(game)
    if not CsrfForm().validate_on_submit():
        abort(400)
    session, lang = db(), request_lang()
    ruleset = get_ruleset(game.ruleset)
    kind = request.form.get("kind", "")

    def record() -> tuple[dict[str, Any], GameState]:
        phase = session.get(PhaseRow, _phase_id() or 0)
        if phase is None or phase.game_id != game.id:
            raise Rejected("moment_passed")
        state = GameState.from_dict(phase.state_before)
        form = next((f for f in ruleset.forms(state, seat.name) if f.kind == kind), None)
        if phase.status != PhaseStatus.OPEN or phase.ends_at <= now():
            raise operations.too_late(session, game, phase, seat)
        if form is None:
            raise Rejected("not_now")
        values: dict[str, Any] = {}
        for f in form.fields:
            if f.type in ("cards", "players"):
                picked = request.form.getlist(f.name)
                # Cards are offered one checkbox each ("2|Duchessa"): the same card twice is two.
                values[f.name] = [p.split("|", 1)[-1] for p in picked]
            elif request.form.get(f.name):
                values[f.name] = request.form[f.name].strip()
        submission = ruleset.form_submission(form, {k: v for k, v in values.items() if v})
        operations.submit(session, config(), game, seat, submission, source="web", now=now(),
                          expected_phase_id=phase.id)
        return submission, state

    def receipt(recorded: tuple[dict[str, Any], GameState]) -> str:
        submission, state = recorded
        return _("Recorded: %(what)s.", what="; ".join(
            render.describe_submission(submission, lang, game.ruleset, state)))

    back = attempt(game, record, back=url_for("player.reserved", slug=game.slug), success=receipt,
                   refused=not_recorded, lock=False)
    operations.settle(_factory(), config(), game.id, now())
    return back


def _player_post(slug: str, change, done: str, settle: bool = False):
    """A player's change to their own seat (more time, standing answers): checked,
    committed, and said in the reader's language either way."""
    game = game_or_404(slug)
    seat = _seat_or_403(game)
    if not CsrfForm().validate_on_submit():
        abort(400)
    back = attempt(game, lambda: change(db(), game, seat), back=url_for("player.reserved", slug=game.slug),
                   success=done, lock=False)
    if settle:  # a standing answer may complete the open window
        operations.settle(_factory(), config(), game.id, now())
    return back


@bp.route("/g/<slug>/more-time", methods=["POST"])
@login_required
def more_time(slug: str):
    def extend(session, game, seat):
        operations.lock_game(session, game)
        operations.windows.extend(session, config(), game, seat, now(), expected_phase_id=_phase_id())
    return _player_post(slug, extend, _("You have one more answer window."))


@bp.route("/g/<slug>/standing", methods=["POST"])
@login_required
def standing(slug: str):
    def store(session, game, seat):
        operations.windows.set_standing(session, config(), game, seat,
                                        request.form.getlist("standing"), now())
    return _player_post(slug, store, _("Standing answers saved."), settle=True)


def _factory():
    from flask import current_app
    return current_app.extensions["pbm_sessions"]
