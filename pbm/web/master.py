"""The Masters' pages: create a game, add players, start it, publish, act on behalf."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask import session as flask_session
from flask_babel import gettext as _
from flask_login import current_user, login_required

from engine.registry import available, get_ruleset

from ..i18n import request_lang
from .. import operations
from ..mail import outbound as mailer
from ..operations.carry_out import Origin, carry_out
from ..mail.reading.commands import parse_commands
from ..mail.reading.wording import describe_error
from ..models import InboundRow, PhaseRow, PhaseStatus
from ..operations import desk as desk_ops
from ..operations import seasons
from . import config, db, desk_view, game_or_404, now, require_master, reserved_page, stats
from .forms import AddPlayerForm, CsrfForm, NewGameForm, OnBehalfForm, options
from .public import ruleset_name
from .refusals import attempt, attempted

bp = Blueprint("master", __name__)



@bp.route("/master/new", methods=["GET", "POST"])
@login_required
def new_game():
    if not current_user.is_admin:
        abort(403)
    form = NewGameForm()
    form.ruleset.choices = options((k, ruleset_name(k)) for k in available())
    # Each setting shown only for the rulesets that read it (forms.js, data-show-when).
    for setting in ("auto_publish", "review_contradictions", "answer_window", "extensions"):
        keys = [k for k in available() if setting in get_ruleset(k).SETTINGS]
        getattr(form, setting).render_kw = {"data-show-when": json.dumps({"ruleset": keys})}
    form.season.choices = [("", _("None"))] + [
        (str(season.id), f"{group.name}: {season.name}")
        for group in seasons.groups_of(db(), current_user) for season in group.seasons]

    def create() -> Any:
        game = operations.create_game(
            db(), name=form.name.data, ruleset=form.ruleset.data, master=current_user, now=now(),
            auto_publish=form.auto_publish.data, review_contradictions=form.review_contradictions.data,
            answer_window=timedelta(minutes=form.answer_window.data) if form.answer_window.data else None,
            extensions=form.extensions.data, listing=form.listing.data)
        if form.season.data:
            seasons.place_game(db(), game, int(form.season.data), fair_deal=form.fair_deal.data,
                               by=current_user, now=now())
        return game

    if form.validate_on_submit():
        made = attempted(None, create)
        if made.done is None:
            return render_template("master_new.html", form=form), 400
        game = made.done
        if operations.timing.moments(game).page == operations.timing.TABLE_PAGE:  # the narrator's phone runs it
            return redirect(url_for("narrator.page", slug=game.slug))
        return redirect(url_for("master.desk", slug=game.slug))
    return render_template("master_new.html", form=form)


def _desk_context(game) -> dict[str, Any]:
    """The desk's data (desk_view) and the forms of its controls."""
    view = desk_view.desk(db(), game, request_lang(), now(), typed=flask_session.get(_composition_key(game)))
    behalf = OnBehalfForm()
    behalf.player.choices = options((s.name, s.name) for s in game.seats)
    return {**view,
            "add_form": AddPlayerForm(), "behalf_form": behalf,
            "setup_options": setup_option_fields(game, request_lang()),
            "csrf_form": CsrfForm(), "narrated": operations.timing.moments(game).page == operations.timing.TABLE_PAGE,
            "my_mail_address": _my_mail_address(game), "season_choice": stats.season_choice(game)}


def _my_mail_address(game) -> str | None:
    """The viewing Master's own reply address for this game (their commands by mail)."""
    mine = next((m for m in game.masters if m.user_id == current_user.id), None)
    return mailer.master_address(config(), mine) if mine is not None else None


@bp.route("/g/<slug>/master")
@login_required
def desk(slug: str):
    game = game_or_404(slug)
    require_master(game)
    return render_template("master_desk.html", **_desk_context(game))


@bp.route("/g/<slug>/master/players", methods=["POST"])
@login_required
def add_player(slug: str):
    game = game_or_404(slug)
    require_master(game)
    form = AddPlayerForm()
    if not form.validate_on_submit():
        flash(" ".join([_("Check name and email."), *_field_errors(form)]), "error")
        return redirect(url_for("master.desk", slug=slug))
    return attempt(game, lambda: operations.add_player(
        db(), config(), game, name=form.name.data, email=form.email.data, lang=form.lang.data,
        now=now(), by=current_user), back=_desk(slug), success=_("Player added; a welcome mail is on its way."))


def _field_errors(form) -> list[str]:
    """What is wrong with each field, under the field's own label."""
    return [f"{form[name].label.text}: {' '.join(map(str, errors))}"
            for name, errors in form.errors.items() if name != "csrf_token"]


def _desk(slug: str) -> str:
    return url_for("master.desk", slug=slug)


def _desk_post(slug: str):
    """The game of a Master's button on the desk, its CSRF token checked."""
    game = game_or_404(slug)
    require_master(game)
    if not CsrfForm().validate_on_submit():
        abort(400)
    return game


def _composition_from(game, form) -> dict[str, int]:
    composition = {}
    for role in (r.name for r in get_ruleset(game.ruleset).roles()):
        try:
            count = int(form.get(f"role-{role}", "0") or 0)
        except ValueError:
            count = 0
        if count > 0:
            composition[role] = count
    return composition


def _composition_key(game) -> str:
    return f"composition-{game.id}"


@bp.route("/g/<slug>/master/draw", methods=["POST"])
@login_required
def draw(slug: str):
    """Draw the roles for review; nothing is dealt or mailed yet."""
    game = _desk_post(slug)
    composition = _composition_from(game, request.form)
    flask_session[_composition_key(game)] = composition
    return attempt(game, lambda: operations.prepare_game(
        db(), game, composition=composition, now=now(), options=_options_from(game, request.form),
        by=current_user), back=_desk(slug),
        # A game without roles (Complots) saves its set-up: no roles were drawn (issue 31).
        success=_("Roles drawn: check them, then start the game.") if get_ruleset(game.ruleset).roles()
        else _("Set-up saved: check it, then start the game."))


def _options_from(game, form) -> dict[str, Any]:
    """The ruleset's set-up options (``options()``, e.g. a variant) chosen on the desk;
    only offered values, the engine judging the rest."""
    chosen = {}
    for field in get_ruleset(game.ruleset).options():
        value = form.get(f"option-{field.name}", "")
        if value and value in _offered(game, field):
            chosen[field.name] = value
    return chosen


def _offered(game, field) -> list[str]:
    """The values a set-up option offers: the players for a "player" option."""
    return [s.name for s in game.seats] if field.type == "player" else list(field.choices)


def setup_option_fields(game, lang: str) -> list[dict[str, Any]]:
    """The set-up options as the desk's draw form shows them, worded by the ruleset."""
    ruleset = get_ruleset(game.ruleset)
    current = ((game.prepared or {}).get("options") or {})
    return [{"name": f.name, "label": ruleset.describe_choice("option", f.name, request_lang()),
             "choices": [("", _("drawn at random"))] * (f.type == "player") + [
                 (c, c if f.type == "player" else ruleset.describe_choice(f.name, c, lang))
                 for c in _offered(game, f)],
             "current": current.get(f.name)} for f in ruleset.options()]


@bp.route("/g/<slug>/master/setup-options", methods=["POST"])
@login_required
def setup_options(slug: str):
    """The Masters edit what the set-up drew (the ruleset's ``prepared_options``):
    fields ``prepared|<option>|<subject>|<index>|<player or role>``."""
    game = _desk_post(slug)
    edited: dict[str, dict[str, dict[int, dict[str, str]]]] = {}
    for key, value in request.form.items():
        parts = key.split("|")
        if len(parts) == 5 and parts[0] == "prepared" and parts[3].isdigit():
            _tag, option, subject, index, field = parts
            edited.setdefault(option, {}).setdefault(subject, {}).setdefault(int(index), {})[field] = value
    options = {option: {subject: [items.get(i, {}) for i in range(max(items) + 1)]
                        for subject, items in subjects.items()}
               for option, subjects in edited.items()}
    return attempt(game, lambda: operations.edit_prepared(
        db(), game, now=now(), by=current_user, options=options), back=_desk(slug), success=_("Changes saved."))


@bp.route("/g/<slug>/master/start", methods=["POST"])
@login_required
def start(slug: str):
    """Deal the reviewed draw (or draw now, from the composition given) and start."""
    game = _desk_post(slug)
    composition = _composition_from(game, request.form)
    return attempt(game, lambda: operations.start_game(
        db(), config(), game, composition=composition or None, now=now(), by=current_user,
        options=_options_from(game, request.form) or None),
        back=_desk(slug), success=_("The game has started; every player was mailed their role.")
        if get_ruleset(game.ruleset).roles() else _("The game has started; every player was mailed their cards."))


@bp.route("/g/<slug>/master/close", methods=["POST"])
@login_required
def close(slug: str):
    game = _desk_post(slug)
    factory = _factory()
    db().close()
    if operations.close_now(factory, config(), game.id, now(), current_user.id):
        flash(_("The phase was closed and resolved."), "receipt")
    return redirect(url_for("master.desk", slug=slug))


@bp.route("/g/<slug>/master/publish/<int:phase_id>", methods=["POST"])
@login_required
def publish(slug: str, phase_id: int):
    game = _desk_post(slug)
    session = db()
    phase = session.get(PhaseRow, phase_id)
    if phase is None or phase.game_id != game.id:
        abort(404)
    answers = {k[len("answer-"):]: v for k, v in request.form.items()
               if k.startswith("answer-") and v in ("yes", "no")}

    def answer_and_publish() -> None:
        if answers:
            operations.answer_pending(session, config(), game, phase, {"answers": answers}, now(),
                                      by=current_user)
        if phase.status == PhaseStatus.DRAFT:
            operations.publish(session, config(), game, phase, now(), by=current_user)
    return attempt(game, answer_and_publish, back=_desk(slug), success=_("Published."))


@bp.route("/g/<slug>/master/behalf", methods=["POST"])
@login_required
def on_behalf(slug: str):
    game = game_or_404(slug)
    require_master(game)
    form = OnBehalfForm()
    form.player.choices = options((s.name, s.name) for s in game.seats)
    if not form.validate_on_submit():
        flash(_("Choose a player and write the commands."), "error")
        return redirect(url_for("master.desk", slug=slug))
    session = db()
    lang = request_lang()
    seat = game.seat_by_name(form.player.data)
    commands, errors, _ignored = parse_commands(form.commands.data, [s.name for s in game.seats],
                                                game.ruleset)
    for err in errors:
        flash(describe_error(err, lang, game.ruleset), "error")
    done = carry_out(session, config(), game, seat, commands, lang=lang, now=now(),
                     origin=Origin(by=current_user, source="master", detail=form.source.data))
    session.commit()
    for what in done.applied:
        flash(_("Recorded for %(name)s: %(what)s", name=seat.name, what=what), "receipt")
    for why in done.errors:
        flash(_("Not recorded: %(why)s", why=why), "error")
    operations.settle(_factory(), config(), game.id, now())  # a window the answer completed
    return redirect(url_for("master.desk", slug=slug))


def _factory():
    from flask import current_app
    return current_app.extensions["pbm_sessions"]


@bp.route("/g/<slug>/master/pause", methods=["POST"])
@login_required
def pause(slug: str):
    game = _desk_post(slug)
    if game.paused_at is None:
        return attempt(game, lambda: desk_ops.pause(db(), config(), game, now(), current_user), back=_desk(slug),
                       success=_("The game is paused: no deadline passes until you resume it."))
    return attempt(game, lambda: desk_ops.resume(db(), config(), game, now(), current_user), back=_desk(slug),
                   success=_("The game goes on; the phase keeps the time it had left."))


@bp.route("/g/<slug>/master/extend", methods=["POST"])
@login_required
def extend(slug: str):
    game = _desk_post(slug)
    from datetime import datetime as _dt
    from zoneinfo import ZoneInfo
    try:
        local = _dt.fromisoformat(request.form.get("new_end", ""))
    except ValueError:
        flash(_("Give the new deadline as date and time."), "error")
        return redirect(url_for("master.desk", slug=slug))
    from ..calendar import localize
    new_end = localize(local.replace(tzinfo=None), ZoneInfo(operations.game_tz(game)))
    return attempt(game, lambda: desk_ops.extend(db(), config(), game, new_end, now(), current_user),
                   back=_desk(slug), success=_("Deadline moved."))


@bp.route("/g/<slug>/master/rollback", methods=["POST"])
@login_required
def rollback(slug: str):
    game = _desk_post(slug)
    return attempt(game, lambda: desk_ops.rollback(db(), game, now(), current_user), back=_desk(slug),
                   success=_("The last published phase is a draft again: correct it and publish."))


@bp.route("/g/<slug>/master/reresolve/<int:phase_id>", methods=["POST"])
@login_required
def reresolve(slug: str, phase_id: int):
    game = _desk_post(slug)
    phase = db().get(PhaseRow, phase_id)
    if phase is None or phase.game_id != game.id:
        abort(404)
    return attempt(game, lambda: desk_ops.reresolve(db(), config(), game, phase, now(), current_user),
                   back=_desk(slug), success=_("Resolved again with the corrections."))


@bp.route("/g/<slug>/master/intervene", methods=["POST"])
@login_required
def intervene(slug: str):
    game = _desk_post(slug)
    action = request.form.get("action", "")
    names = request.form.getlist("players")
    reason = request.form.get("reason", "")

    def apply() -> None:
        if action == "disqualify_faction":
            desk_ops.disqualify_faction(db(), config(), game, request.form.get("faction", ""), now(),
                                        current_user, reason=reason)
        elif action == "end":
            desk_ops.intervene(db(), config(), game, "end", [request.form.get("winner", "draw")], now(),
                               current_user, reason=reason)
        else:
            desk_ops.intervene(db(), config(), game, action, names, now(), current_user, reason=reason)
    return attempt(game, apply, back=_desk(slug), success=_("Done; every player was told."))


@bp.route("/g/<slug>/master/as/<name>")
@login_required
def as_player(slug: str, name: str):
    """The reserved area exactly as a player sees it (read-only for the Master)."""
    from .player import reserved_context
    game = game_or_404(slug)
    require_master(game)
    seat = game.seat_by_name(name)
    if seat is None:
        abort(404)
    context = reserved_context(game, seat)
    context["forms"] = []
    return reserved_page.render({**context, "viewing_as": True}, None)


@bp.route("/g/<slug>/master/inbound/<int:inbound_id>")
@login_required
def inbound_raw(slug: str, inbound_id: int):
    """A message as it arrived, byte for byte (kept for exactly this)."""
    game = game_or_404(slug)
    require_master(game)
    row = db().get(InboundRow, inbound_id)
    if row is None or row.game_id != game.id:
        abort(404)
    if row.pruned_at is not None:
        # Emptied after RAW_MAIL_DAYS (pbm/retention.py): say so, and what is left.
        return render_template("inbound_pruned.html", game=game, row=row, tz=operations.game_tz(game),
                               days=config()["RAW_MAIL_DAYS"]), 410
    # A stranger wrote these bytes: the browser must show them as text and
    # never guess HTML (nosniff), run nothing even if it did (a sandbox with
    # no sources), and offer a file name that opens as text when saved.
    response = Response(row.raw, content_type="text/plain; charset=utf-8")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response.headers["Content-Disposition"] = f'inline; filename="message-{row.id}.txt"'
    return response


@bp.route("/g/<slug>/master/clear-bounce/<name>", methods=["POST"])
@login_required
def clear_bounce(slug: str, name: str):
    """The player's address works again (they fixed their mailbox)."""
    game = _desk_post(slug)
    seat = game.seat_by_name(name)
    if seat is None or not seat.mailable:
        abort(404)

    def clear() -> None:
        seat.user.address_failing = False
        operations.log(db(), game, current_user, "clear_bounce", now(), player=name, email=seat.user.email)
    return attempt(game, clear, back=_desk(slug), success=_("%(name)s's address is marked as working.", name=name))
