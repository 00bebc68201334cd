"""The Masters' pages: create a game, add players, start it, publish, act on behalf."""
from __future__ import annotations

from collections import Counter
from datetime import timezone
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask import session as flask_session
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import select

from engine.core import Rejected
from engine.registry import available, get_ruleset

from .. import desk as desk_ops
from .. import mailer, operations, render, texts
from ..mail.commands import describe_error, parse_commands
from ..models import EventRow, InboundRow, MasterLog, OutboxRow, PhaseRow
from . import config, db, game_or_404, now, require_master
from .public import ruleset_name
from .forms import AddPlayerForm, NewGameForm, OnBehalfForm, PublishForm, StartGameForm, options

bp = Blueprint("master", __name__)


def _lang() -> str:
    return str(get_locale() or "it")


def _op_error(exc: operations.OperationError) -> str:
    messages = {
        "game_started": _("The game has already started."),
        "name_taken": _("That name is already taken in this game."),
        "email_taken": _("That address already plays in this game."),
        "composition_size": _("The composition has %(roles)s roles for %(players)s players.",
                              roles=exc.params.get("roles"), players=exc.params.get("players")),
        "too_few_players": _("At least three players are needed."),
        "setup_failed": _("The rules refuse this set-up: %(reason)s",
                          reason=_setup_reason(exc.params)),
        "pending_items": _("Answer the pending items first."),
        "not_a_draft": _("This phase is not waiting for the Masters."),
        "not_running": _("The game is not running."),
        "not_prepared": _("Draw the roles first."),
        "not_paused": _("The game is not paused."),
        "no_open_phase": _("No phase is open now."),
        "deadline_in_past": _("The new deadline must be in the future."),
        "nothing_to_roll_back": _("No published phase to roll back."),
        "unknown_player": _("Unknown player."),
        "unknown_faction": _("Unknown faction."),
        "unknown_action": _("Unknown action."),
    }
    return messages.get(exc.code, exc.code)


def _setup_reason(params: dict) -> str:
    """Why the rules refuse a set-up, from the engine's code; a refusal the
    service does not know yet is shown as the engine wrote it."""
    why, name, role = params.get("why"), params.get("name"), params.get("role")
    words = {
        "factions_missing": lambda: _("every faction must be in the game; missing: %(missing)s",
                                      missing=", ".join(params.get("missing") or [])),
        "not_dealt_at_start": lambda: _("%(role)s cannot be dealt at the start of a game", role=role),
        "divinatore_propositions": lambda: _(
            "the Divinatore %(name)s needs four propositions, exactly two of them true", name=name),
        "proposition_unknown_player": lambda: _(
            "a proposition of the Divinatore names %(name)s, who is not in the game", name=name),
        "mayor_not_a_player": lambda: _("the mayor %(name)s is not a player", name=name),
        "seated_twice": lambda: _("%(name)s is seated twice", name=name),
        "unknown_role": lambda: _("unknown role %(role)s", role=role),
    }
    return words[why]() if why in words else str(params.get("reason", ""))


def _source_label(code: str | None) -> str:
    """Where a submission came from, as the Masters read it."""
    labels = {"web": _("web"), "mail": _("mail"), "master": _("by a Master"), "sms": "SMS",
              "phone": _("phone"), "in person": _("in person"), "email": _("email")}
    return labels.get(code or "", code or "")


def _how(row) -> str:
    """How a submission arrived: 'web', 'mail', or 'SMS, entered by Anna (Master)'."""
    if row.source == "master":
        return _("%(source)s, entered by %(master)s", source=_source_label(row.source_detail),
                 master=row.by_user.name if row.by_user else "?")
    return _source_label(row.source)


def _visibility_label(visibility: str, to: list[str] | None = None) -> str:
    labels = {"public": _("public"), "private": _("private"), "master": _("Masters only")}
    label = labels.get(visibility, visibility)
    return f"[{label}{' → ' + ', '.join(to) if to else ''}] "


@bp.route("/master/new", methods=["GET", "POST"])
@login_required
def new_game():
    if not current_user.is_admin:
        abort(403)
    form = NewGameForm()
    form.ruleset.choices = options((k, ruleset_name(k)) for k in available())
    if form.validate_on_submit():
        game = operations.create_game(db(), name=form.name.data, ruleset=form.ruleset.data,
                                      master=current_user, now=now(),
                                      auto_publish=form.auto_publish.data,
                                      review_contradictions=form.review_contradictions.data)
        db().commit()
        return redirect(url_for("master.desk", slug=game.slug))
    return render_template("master_new.html", form=form)


def _desk_context(game) -> dict[str, Any]:
    session = db()
    lang = _lang()
    tz = operations.game_tz(game)
    phase = operations.current_phase(session, game)
    state = operations.current_state(game)
    add_form = AddPlayerForm()
    start_form = StartGameForm()
    start_form.mayor.choices = options([("", _("drawn at random"))] + [(s.name, s.name) for s in game.seats])
    behalf = OnBehalfForm()
    behalf.player.choices = options((s.name, s.name) for s in game.seats)
    drafts = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                    PhaseRow.status == "draft")
                             .order_by(PhaseRow.index)).all()
    draft_views = []
    for d in drafts:
        events = session.scalars(select(EventRow).where(EventRow.phase_id == d.id)
                                 .order_by(EventRow.seq)).all()
        draft_views.append({"phase": d, "label": render.phase_label(d, lang, tz),
                            "lines": [_visibility_label(e.visibility, e.recipients)
                                      + (render.describe(e.kind, e.data, game.ruleset, lang) or e.kind)
                                      for e in events],
                            "pending": d.pending,
                            "pending_texts": [_pending_text(x) for x in d.pending
                                              if x["kind"] != "profeta_question"]})
    actions = []
    if phase is not None:
        actions = [(r.seat.name, operations.describe_submission(r.args, lang), _how(r))
                   for r in operations.latest_actions(session, phase)]
    logs = session.scalars(select(MasterLog).where(MasterLog.game_id == game.id)
                           .order_by(MasterLog.id.desc()).limit(50)).all()
    log_lines = _log_lines(session, game, logs, lang, tz)
    roles = get_ruleset(game.ruleset).roles()
    prepared = game.prepared
    all_roles = [r.name for r in roles]
    # The numbers the Master typed last (kept when the rules refused them), else the draw's.
    composition = (flask_session.get(_composition_key(game))
                   or (dict(Counter(role for _n, role in prepared["seating"])) if prepared else None)
                   or game.composition or {})
    preview = desk_ops.preview(session, game) if phase is not None and phase.status == "open" else None
    preview_lines = [_visibility_label(e.visibility, e.to)
                     + (render.describe(e.kind, e.data, game.ruleset, lang) or e.kind)
                     for e in preview.events] if preview else []
    pending_items = _pending_items(session, game, phase, draft_views)
    troubled_mail = session.scalars(select(InboundRow).where(
        InboundRow.game_id == game.id, InboundRow.status.in_(["error", "refused", "ignored"]))
        .order_by(InboundRow.id.desc()).limit(30)).all()
    can_roll_back = session.scalar(select(PhaseRow.id).where(
        PhaseRow.game_id == game.id, PhaseRow.status == "published").limit(1)) is not None
    return {
        "can_roll_back": can_roll_back,
        "troubled_mail": troubled_mail,
        "preview_lines": preview_lines, "pending_items": pending_items,
        "prepared": prepared, "all_roles": all_roles, "composition": composition,
        "seat_roles": dict((n, r) for n, r in prepared["seating"]) if prepared else {},
        "remaining": _remaining(phase.ends_at - now()) if phase is not None and phase.status == "open" else None,
        "factions": get_ruleset(game.ruleset).factions,
        "tz": operations.game_tz(game),
        "game": game, "phase": phase, "state": state, "add_form": add_form,
        "start_form": start_form, "behalf_form": behalf, "publish_form": PublishForm(),
        "drafts": draft_views, "actions": actions, "logs": log_lines, "roles": roles,
        "phase_label": render.phase_label(phase, lang, tz) if phase else None,
        "deadline": render.deadline_text(phase.ends_at, lang, tz) if phase else None,
        "my_mail_address": _my_mail_address(game),
    }


def _my_mail_address(game) -> str | None:
    """The viewing Master's own reply address for this game (their commands by mail)."""
    mine = next((m for m in game.masters if m.user_id == current_user.id), None)
    return mailer.master_address(config(), mine) if mine is not None else None


def _pending_text(item: dict[str, Any]) -> str:
    if item["kind"] == "stall":
        return _("Stall: no deaths for %(n)s phases (§2.1).", n=item["data"].get("quiet_phases"))
    return item["kind"]


def _counts(counts: dict[str, int] | None) -> str:
    return ", ".join(f"{role} ×{n}" for role, n in (counts or {}).items())


def _log_lines(session, game, logs, lang: str, tz: str) -> list[tuple[str, str, str]]:
    """The Masters' log as (local time, who, what), worded: never a code or a dict."""
    from zoneinfo import ZoneInfo
    zone = ZoneInfo(tz)
    phases = {p.index: p for p in session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id))}

    def phase(d: dict[str, Any]) -> str:
        row = phases.get(d.get("phase"))
        if row is not None:
            return render.phase_label(row, lang, tz)
        return _("phase %(n)s", n=int(d.get("phase", 0)) + 1)

    def when(iso: str | None) -> str:
        from datetime import datetime as _dt
        try:
            return render.deadline_text(_dt.fromisoformat(iso), lang, tz)
        except (TypeError, ValueError):
            return iso or ""

    def names(d: dict[str, Any]) -> str:
        return ", ".join(d.get("players") or [])

    def reason(d: dict[str, Any]) -> str:
        return _(" (reason: %(reason)s)", reason=d["reason"]) if d.get("reason") else ""

    def submissions(items: list[dict[str, Any]]) -> str:
        return "; ".join(f"{x.get('player')}: " + ", ".join(operations.describe_submission(x.get("args") or {}, lang))
                         for x in items)

    words = {
        "create_game": lambda d: _("created the game %(name)s (%(ruleset)s)", name=d.get("name"),
                                   ruleset=ruleset_name(d.get("ruleset", ""))),
        "add_player": lambda d: _("added %(name)s (%(email)s)", name=d.get("name"), email=d.get("email")),
        "draw_roles": lambda d: _("drew the roles: %(roles)s", roles=_counts(d.get("roles"))),
        "edit_setup": lambda d: _("edited the set-up (the Divinatore's propositions)"),
        "start_game": lambda d: _("started the game: %(roles)s", roles=_counts(d.get("composition"))),
        "submit_on_behalf": lambda d: _("entered for %(name)s (%(source)s): %(what)s", name=d.get("player"),
                                        source=_source_label(d.get("source")),
                                        what="; ".join(operations.describe_submission(d.get("submission") or {}, lang))),
        "close_phase": lambda d: _("closed %(phase)s ahead of time", phase=phase(d)),
        "publish": lambda d: _("published %(phase)s", phase=phase(d)),
        "answer_pending": lambda d: _("answered the pending items of %(phase)s", phase=phase(d)),
        "pause": lambda d: _("paused the game"),
        "resume": lambda d: _("resumed the game"),
        "extend": lambda d: _("moved the deadline of %(phase)s from %(old)s to %(new)s", phase=phase(d),
                              old=when(d.get("old")), new=when(d.get("new"))),
        "rollback": lambda d: _("rolled back %(phase)s: it is a draft again", phase=phase(d)),
        "rollback_dropped_phase": lambda d: _(
            "removed phase %(n)s, opened by the rolled back one; its submissions: %(what)s",
            n=int(d.get("phase", 0)) + 1, what=submissions(d.get("submissions") or []) or "—"),
        "kill": lambda d: _("killed %(names)s", names=names(d)) + reason(d),
        "resurrect": lambda d: _("resurrected %(names)s", names=names(d)) + reason(d),
        "disqualify": lambda d: _("disqualified %(names)s", names=names(d)) + reason(d),
        "draw": lambda d: _("declared a draw") + reason(d),
        "end": lambda d: _("ended the game, winner: %(winner)s",
                           winner=", ".join(d.get("players") or []).replace("draw", _("draw"))) + reason(d),
        "clear_bounce": lambda d: _("marked the address of %(name)s as working", name=d.get("player")),
        "address_failing": lambda d: _("mail to %(name)s bounces (%(email)s)", name=d.get("player"),
                                       email=d.get("address")),
        "refused_spoof": lambda d: _("refused a mail for %(name)s from %(sender)s", name=d.get("player"),
                                     sender=d.get("sender")),
        "late_boundary": lambda d: _("resolved %(phase)s late (the worker was down)", phase=phase(d)),
        "mailbox_reply": lambda d: _("replied as %(email)s from the demo's local mailbox", email=d.get("to")),
    }
    lines = []
    for entry in logs:
        details = entry.details or {}
        word = words.get(entry.action)
        try:
            text = word(details) if word else None
        except (KeyError, TypeError, ValueError):
            text = None
        if text is None:  # an action this page does not know yet: its code and data, plainly
            text = entry.action + (" " + ", ".join(f"{k}: {v}" for k, v in details.items()) if details else "")
        at = entry.at if entry.at.tzinfo else entry.at.replace(tzinfo=timezone.utc)
        lines.append((f"{at.astimezone(zone):%Y-%m-%d %H:%M}",
                      entry.user.name if entry.user else _("service"), text))
    return lines


def _remaining(delta) -> str:
    seconds = max(int(delta.total_seconds()), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return _("%(d)s d %(h)s h %(m)s min", d=days, h=hours, m=minutes)
    return _("%(h)s h %(m)s min", h=hours, m=minutes)


def _pending_items(session, game, phase, drafts) -> list[str]:
    """What needs a Master's eye: questions, bounces, spoofing, entries on behalf."""
    items = []
    for d in drafts:
        for p in d["pending"]:
            if p["kind"] == "profeta_question":
                items.append(_("Question from %(name)s waits for an answer: %(q)s",
                               name=p["data"].get("player"), q=p["data"].get("question")))
            elif p["kind"] == "stall":
                items.append(_("Stall: no deaths for %(n)s phases (§2.1).", n=p["data"].get("quiet_phases")))
    state = operations.current_state(game)
    if state and state.data.get("quiet_phases", 0) >= 6 and not state.over:
        items.append(_("Stall: no deaths for %(n)s phases (§2.1): wait, kill, resurrect or declare a draw.",
                       n=state.data["quiet_phases"]))
    for s in game.seats:
        if s.user.address_failing:
            items.append(_("Mail to %(name)s bounces (%(email)s).", name=s.name, email=s.user.email))
    spoofs = session.scalars(select(MasterLog).where(MasterLog.game_id == game.id,
                                                     MasterLog.action == "refused_spoof")
                             .order_by(MasterLog.id.desc()).limit(10)).all()
    for entry in spoofs:
        items.append(_("Refused: a mail for %(name)s came from %(sender)s.",
                       name=entry.details.get("player"), sender=entry.details.get("sender")))
    if phase is not None:
        for r in operations.latest_actions(session, phase):
            if r.source == "master":
                items.append(_("Entered on behalf of %(name)s by %(master)s (%(source)s).",
                               name=r.seat.name, master=r.by_user.name if r.by_user else "?",
                               source=_source_label(r.source_detail)))
    return items


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
    return _attempt(slug, lambda: operations.add_player(
        db(), config(), game, name=form.name.data, email=form.email.data, lang=form.lang.data,
        now=now(), by=current_user), _("Player added; the credentials were mailed."))


def _field_errors(form) -> list[str]:  # noqa: ANN001
    """What is wrong with each field, under the field's own label."""
    return [f"{form[name].label.text}: {' '.join(map(str, errors))}"
            for name, errors in form.errors.items() if name != "csrf_token"]


def _attempt(slug: str, change, success: str):
    """Run one change of the desk in the request's transaction: commit and say
    so, or roll back and say why, then back to the desk."""
    try:
        operations.lock_game(db(), game_or_404(slug))
        change()
        db().commit()
    except operations.OperationError as exc:
        db().rollback()
        flash(_op_error(exc), "error")
    else:
        flash(success, "receipt")
    return redirect(url_for("master.desk", slug=slug))


def _start_form(slug: str):
    game = game_or_404(slug)
    require_master(game)
    form = StartGameForm()
    form.mayor.choices = options([("", "")] + [(s.name, s.name) for s in game.seats])
    if not form.validate_on_submit():
        abort(400)
    return game, form.mayor.data or None


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
    game, mayor = _start_form(slug)
    composition = _composition_from(game, request.form)
    flask_session[_composition_key(game)] = composition
    return _attempt(slug, lambda: operations.prepare_game(
        db(), game, composition=composition, mayor=mayor, now=now(),
        by=current_user), _("Roles drawn: check them, then start the game."))


@bp.route("/g/<slug>/master/setup-options", methods=["POST"])
@login_required
def setup_options(slug: str):
    """The Masters edit what the set-up drew (the Divinatore's propositions)."""
    game = game_or_404(slug)
    require_master(game)
    if not PublishForm().validate_on_submit():
        abort(400)
    propositions: dict[str, list[dict[str, str]]] = {}
    for key, value in request.form.items():
        parts = key.split("|")  # prop|Diviner|index|player-or-role
        if len(parts) == 4 and parts[0] == "prop":
            item = propositions.setdefault(parts[1], [{} for _ in range(4)])[int(parts[2])]
            item[parts[3]] = value
    return _attempt(slug, lambda: operations.edit_prepared(
        db(), game, now=now(), by=current_user, options={"divinatore_propositions": propositions}),
        _("Propositions saved."))


@bp.route("/g/<slug>/master/start", methods=["POST"])
@login_required
def start(slug: str):
    """Deal the reviewed draw (or draw now, from the composition given) and start."""
    game, mayor = _start_form(slug)
    composition = _composition_from(game, request.form)
    return _attempt(slug, lambda: operations.start_game(
        db(), config(), game, composition=composition or None, mayor=mayor, now=now(), by=current_user),
        _("The game has started; every player was mailed their role."))


@bp.route("/g/<slug>/master/close", methods=["POST"])
@login_required
def close(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if not PublishForm().validate_on_submit():
        abort(400)
    factory = _factory()
    db().close()
    if operations.close_now(factory, config(), game.id, now(), current_user.id):
        flash(_("The phase was closed and resolved."), "receipt")
    return redirect(url_for("master.desk", slug=slug))


@bp.route("/g/<slug>/master/publish/<int:phase_id>", methods=["POST"])
@login_required
def publish(slug: str, phase_id: int):
    game = game_or_404(slug)
    require_master(game)
    if not PublishForm().validate_on_submit():
        abort(400)
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
        if phase.status == "draft":
            operations.publish(session, config(), game, phase, now(), by=current_user)
    return _attempt(slug, answer_and_publish, _("Published."))


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
    lang = _lang()
    seat = game.seat_by_name(form.player.data)
    commands, errors, _ignored = parse_commands(form.commands.data, [s.name for s in game.seats])
    for err in errors:
        flash(describe_error(err, lang), "error")
    for command in commands:
        try:
            operations.submit(session, config(), game, seat, command, source="master", now=now(),
                              by_user=current_user, source_detail=form.source.data)
            session.commit()
            flash(_("Recorded for %(name)s: %(what)s", name=seat.name,
                    what="; ".join(operations.describe_submission(command, lang))), "receipt")
        except Rejected as exc:
            session.rollback()
            flash(_("Not recorded: %(why)s", why=texts.rejection(exc.code, exc.params, game.ruleset, lang)),
                  "error")
    return redirect(url_for("master.desk", slug=slug))


def _factory():
    from flask import current_app
    return current_app.extensions["pbm_sessions"]


def _desk_post(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if not PublishForm().validate_on_submit():
        abort(400)
    return game


@bp.route("/g/<slug>/master/pause", methods=["POST"])
@login_required
def pause(slug: str):
    game = _desk_post(slug)
    if game.paused_at is None:
        return _attempt(slug, lambda: desk_ops.pause(db(), game, now(), current_user),
                        _("The game is paused: no deadline passes until you resume it."))
    return _attempt(slug, lambda: desk_ops.resume(db(), game, now(), current_user),
                    _("The game goes on; the phase keeps the time it had left."))


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
    from ..schedule import localize
    new_end = localize(local.replace(tzinfo=None), ZoneInfo(operations.game_tz(game)))
    return _attempt(slug, lambda: desk_ops.extend(db(), game, new_end, now(), current_user),
                    _("Deadline moved."))


@bp.route("/g/<slug>/master/rollback", methods=["POST"])
@login_required
def rollback(slug: str):
    game = _desk_post(slug)
    return _attempt(slug, lambda: desk_ops.rollback(db(), game, now(), current_user),
                    _("The last published phase is a draft again: correct it and publish."))


@bp.route("/g/<slug>/master/reresolve/<int:phase_id>", methods=["POST"])
@login_required
def reresolve(slug: str, phase_id: int):
    game = _desk_post(slug)
    phase = db().get(PhaseRow, phase_id)
    if phase is None or phase.game_id != game.id:
        abort(404)
    return _attempt(slug, lambda: desk_ops.reresolve(db(), config(), game, phase, now(), current_user),
                    _("Resolved again with the corrections."))


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
    return _attempt(slug, apply, _("Done; every player was told."))


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
    return render_template("reserved.html", viewing_as=True, **context)


@bp.route("/g/<slug>/master/inbound/<int:inbound_id>")
@login_required
def inbound_raw(slug: str, inbound_id: int):
    """A message as it arrived, byte for byte (kept for exactly this)."""
    game = game_or_404(slug)
    require_master(game)
    row = db().get(InboundRow, inbound_id)
    if row is None or row.game_id != game.id:
        abort(404)
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
    if seat is None:
        abort(404)

    def clear() -> None:
        seat.user.address_failing = False
        operations.log(db(), game, current_user, "clear_bounce", now(), player=name, email=seat.user.email)
    return _attempt(slug, clear, _("%(name)s's address is marked as working.", name=name))
