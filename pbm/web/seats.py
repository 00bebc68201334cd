"""Substitutes and absences on the web: the volunteer button of a game's page, the
absence form of the reserved area, and the Masters' hand-over of a seat.

Each change goes through ``operations.seats``; the pages' parts are template
partials fed by ``seats_view`` (a template global), so the game page, the
reserved area and the desk include them without knowing what they hold.
"""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from .. import operations, seating
from ..models import GameStatus, PhaseStatus
from ..operations import seats as seat_ops
from . import config, db, game_or_404, my_seat, never_absent, now, require_master
from .forms import SubstituteForm
from .refusals import attempt

bp = Blueprint("seats", __name__)


@bp.app_template_global()
def seats_view(game) -> dict[str, Any]:
    """What the volunteer button, the absence form and the desk's part show (read once
    a request: the reserved page's validator reads it before the page does)."""
    kept = g.setdefault("seats_views", {})
    if game.id not in kept:
        kept[game.id] = _seats_view(game)
    return kept[game.id]


def _seats_view(game) -> dict[str, Any]:
    session = db()
    today = now().date()
    user = current_user if current_user.is_authenticated else None
    seat = my_seat(game) if user else None
    # A player is never a Master of their own game (operations refuse both ways:
    # "master_plays"), so a seated reader's page, the most often loaded, skips the ask.
    master = bool(user) and seat is None and game.is_master(user)
    can_volunteer = bool(user) and seat is None and not master and game.status != GameStatus.OVER
    # The list matters to the Masters and to whoever may join it (a seated player's
    # page, the one most often loaded, does not show it).
    volunteers = seat_ops.volunteers(session, game) if master or can_volunteer else []
    phase = operations.current_phase(session, game) if master else None
    absences = seat_ops.absences(session, game, today) if master else []
    return {
        "can_volunteer": can_volunteer,
        "volunteered": can_volunteer and any(v.user_id == user.id for v in volunteers),
        "my_absences": seat_ops.absences(session, game, today, seat) if seat and not never_absent(game) else [],
        "absences": absences,
        # The absences that cover the open phase's deadline: the Masters' decision is due.
        "at_deadline": {a.id for a in absences if phase is not None and phase.status == PhaseStatus.OPEN
                        and seat_ops.covers_deadline(a, phase, operations.game_tz(game))},
        "volunteers": volunteers if master else [],
        "holders": seating.holders(session, game) if master else {},
        "today": today.isoformat(),
    }


# --------------------------------------------------------------------------- volunteers

@bp.route("/g/<slug>/volunteer", methods=["POST"])
@login_required
def volunteer(slug: str):
    game = game_or_404(slug)
    back = url_for("public.game_home", slug=slug)
    if request.form.get("withdraw"):
        return attempt(game, lambda: seat_ops.withdraw_volunteer(db(), game, current_user, now()), back=back,
                       success=_("You are no longer on the list of substitutes."))
    return attempt(game, lambda: seat_ops.volunteer(db(), game, current_user, now()), back=back,
                   success=_("You are on the list of substitutes: the Masters will write if they need you."))


@bp.route("/g/<slug>/decline", methods=["POST"])
@login_required
def decline(slug: str):
    """An invited player gives the seat back before the start (issue 31)."""
    game = game_or_404(slug)
    seat = my_seat(game)
    if seat is None:
        abort(403)
    return attempt(game, lambda: seat_ops.decline(db(), game, seat, now()),
                   back=url_for("public.game_home", slug=slug),
                   success=_("You have left the game: the Masters will see it on their desk."))


# --------------------------------------------------------------------------- absences

def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat((value or "").strip())
    except ValueError:
        return None


@bp.route("/g/<slug>/absence", methods=["POST"])
@login_required
def declare_absence(slug: str):
    game = game_or_404(slug)
    seat = my_seat(game)
    if seat is None:
        abort(403)
    back = url_for("player.reserved", slug=slug) + "#absences"
    first, last = _day(request.form.get("first_day")), _day(request.form.get("last_day"))
    if first is None or last is None:
        flash(_("Give the first and the last day of the absence as dates."), "error")
        return redirect(back)
    note = request.form.get("note", "")
    return attempt(game, lambda: seat_ops.declare_absence(
        db(), config(), game, seat, first_day=first, last_day=last, note=note, now=now()), back=back,
        success=_("Absence recorded: the Masters see it and decide whether to pause or extend."))


@bp.route("/g/<slug>/absence/<int:absence_id>/withdraw", methods=["POST"])
@login_required
def withdraw_absence(slug: str, absence_id: int):
    game = game_or_404(slug)
    seat = my_seat(game)
    if seat is None:
        abort(403)
    return attempt(game, lambda: seat_ops.withdraw_absence(db(), game, seat, absence_id, now()),
                   back=url_for("player.reserved", slug=slug) + "#absences", success=_("Absence withdrawn."))


# --------------------------------------------------------------------------- substitutes

@bp.route("/g/<slug>/master/substitute", methods=["POST"])
@login_required
def substitute(slug: str):
    game = game_or_404(slug)
    require_master(game)
    back = url_for("master.desk", slug=slug) + "#substitutes"
    seat = game.seat_by_name(request.form.get("seat", ""))
    if seat is None:
        flash(_("Choose the seat to hand over."), "error")
        return redirect(back)
    form = SubstituteForm()
    if not form.validate():
        flash(" ".join(str(e) for e in form.volunteer.errors + form.email.errors) or _("Check the address."), "error")
        return redirect(back)
    email = form.volunteer.data or form.email.data
    if not email:
        flash(_("Choose a volunteer or give the newcomer's address."), "error")
        return redirect(back)
    try:
        hours = float(request.form.get("extend_hours") or 0)
    except ValueError:
        hours = -1
    if not 0 <= hours <= 24 * 7:
        flash(_("The extension may be at most seven days."), "error")
        return redirect(back)
    lang = request.form.get("lang") if request.form.get("lang") in ("it", "en") else "it"
    return attempt(game, lambda: seat_ops.substitute(
        db(), config(), game, seat, email=email, name=request.form.get("name", "").strip(), lang=lang,
        announced_as=request.form.get("announced_as", ""), now=now(), by=current_user,
        extend_by=timedelta(hours=hours) if hours else None), back=back,
        success=_("%(name)s's seat was handed over; the newcomer has the role letter and the seat's history, "
                  "and every player was told.", name=seat.name))
