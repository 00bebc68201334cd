"""Sign-ups (`/join/<token>`) and the Masters' page of who is in a game:
the sign-up link, its closing date and maximum, and the co-Masters."""
from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user

from .. import accounts, operations, render
from ..accounts import tokens
from ..operations import signups
from ..models import Signup
from . import config, db, game_or_404, now, require_master
from .account_forms import CoMasterForm, JoinForm, PlainForm, SignupForm, TakeSeatForm
from .auth import account_error, client_address

bp = Blueprint("join", __name__)


def _lang() -> str:
    return str(get_locale() or "it")


def _error(exc: operations.OperationError) -> str:
    messages = {
        "game_started": _("The game has already started: sign-ups are over."),
        "closed": _("Sign-ups for this game are closed."),
        "past_closing": _("Sign-ups for this game closed on their closing date."),
        "full": _("The game is full."),
        "name_required": _("Write the name you want in the game."),
        "name_too_long": _("The name may have at most %(max)s characters.", max=exc.params.get("max")),
        "name_taken": _("The name %(name)s is already taken in this game: choose another.",
                        name=exc.params.get("name")),
        "bad_address": _("This is not a valid email address."),
        "already_seated": _("This address already has a seat in this game."),
        "closing_in_past": _("The closing date must be in the future."),
        "max_too_small": _("The maximum must be at least %(min)s (the players already in, and never "
                           "fewer than three).", min=exc.params.get("min")),
        "signups_not_open": _("Open the sign-ups first."),
        "master_plays": _("A Master of the game cannot also play in it."),
        "already_master": _("This address is already a Master of this game."),
    }
    return messages.get(exc.code, exc.code)


def _signup_or_404(token: str) -> Signup:
    signup = signups.by_token(db(), token)
    if signup is None:
        abort(404)
    return signup


def _closing_text(signup: Signup) -> str:
    return render.deadline_text(signup.closes_at, _lang(), operations.game_tz(signup.game))


@bp.route("/join/<token>", methods=["GET", "POST"])
def join(token: str):
    signup = _signup_or_404(token)
    game = signup.game
    form = JoinForm()
    if not form.is_submitted():
        form.lang.data = _lang()
    sent = False
    if form.validate_on_submit():
        try:
            operations.lock_game(db(), game)
            signups.request_seat(db(), config(), signup, name=form.name.data, email=form.email.data,
                                 lang=form.lang.data, client=client_address(), now=now())
        except operations.OperationError as exc:
            db().rollback()
            flash(_error(exc), "error")
        except accounts.AccountError as exc:
            db().rollback()
            flash(account_error(exc), "error")
        else:
            db().commit()
            sent = True
    elif form.is_submitted():
        flash(_("Check the name and the address."), "error")
    closed = signups.why_closed(signup, now())
    return render_template("join.html", game=game, signup=signup, form=form, sent=sent,
                           closing=_closing_text(signup),
                           closed=_error(operations.OperationError(closed)) if closed else None)


@bp.route("/join/<token>/confirm/<signed>", methods=["GET", "POST"])
def confirm(token: str, signed: str):
    """Opening the link from the mail shows what it confirms; saving takes the seat."""
    signup = _signup_or_404(token)
    game = signup.game
    try:
        wanted = signups.read_request(db(), config(), signup, signed, now())
    except tokens.TokenError as exc:
        flash(_("This confirmation link has expired: sign up again.") if exc.code == "expired"
              else _("This confirmation link is not valid: sign up again."), "error")
        return redirect(url_for("join.join", token=token))
    account = wanted["user"]
    needs_password = account is None or not account.password_hash
    # An account that has a password is taken only by its owner: logged in as it,
    # or giving its password here (the link alone may have been read by others).
    signed_in = account if (account is not None and current_user.is_authenticated
                            and current_user.id == account.id) else None
    form = TakeSeatForm()
    if form.validate_on_submit():
        proven = signed_in
        if not needs_password and proven is None:
            try:
                accounts.check_account_password(db(), config(), account, form.current.data or "",
                                                client_address(), now())
            except accounts.AccountError as exc:
                db().commit()  # the wrong password counts against the throttle
                flash(account_error(exc), "error")
                return render_template("join_confirm.html", game=game, wanted=wanted, form=form,
                                       needs_password=needs_password, signed_in=signed_in), 403
            proven = account
        try:
            operations.lock_game(db(), game)
            user, seat = signups.take_seat(db(), config(), signup, wanted, password=form.password.data,
                                           confirm=form.confirm.data, now=now(), proven=proven)
        except operations.OperationError as exc:
            db().rollback()
            flash(_error(exc), "error")
            if exc.code == "already_seated":
                return redirect(url_for("public.game_home", slug=game.slug))
        except accounts.AccountError as exc:
            db().rollback()
            flash(account_error(exc), "error")
        else:
            db().commit()
            login_user(user, remember=True)
            flash(_("You are in: you play as %(name)s in %(game)s.", name=seat.name, game=game.name),
                  "receipt")
            return redirect(url_for("public.game_home", slug=game.slug))
    return render_template("join_confirm.html", game=game, wanted=wanted, form=form,
                           needs_password=needs_password, signed_in=signed_in)


# The Masters' side ------------------------------------------------------------

def _local_input(value: datetime | None, tz: str) -> str:
    return value.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%dT%H:%M") if value else ""


@bp.route("/g/<slug>/master/people", methods=["GET"])
@login_required
def people(slug: str):
    game = game_or_404(slug)
    require_master(game)
    signup = signups.for_game(db(), game)
    tz = operations.game_tz(game)
    form = SignupForm()
    if signup is not None:
        form.max_players.data = signup.max_players
    link = url_for("join.join", token=signup.token, _external=False) if signup else None
    return render_template(
        "master_people.html", game=game, signup=signup, form=form, tz=tz,
        closes_value=_local_input(signup.closes_at if signup else None, tz),
        link=f"{config()['BASE_URL'].rstrip('/')}{link}" if link else None,
        closed=signups.why_closed(signup, now()) if signup else None,
        closing=_closing_text(signup) if signup else None,
        master_form=CoMasterForm(formdata=None, lang=_lang()), plain=PlainForm())


def _attempt(slug: str, change, success: str):  # noqa: ANN001, ANN202
    try:
        operations.lock_game(db(), game_or_404(slug))
        change()
        db().commit()
    except operations.OperationError as exc:
        db().rollback()
        flash(_error(exc), "error")
    else:
        flash(success, "receipt")
    return redirect(url_for("join.people", slug=slug))


@bp.route("/g/<slug>/master/signups", methods=["POST"])
@login_required
def open_signups(slug: str):
    game = game_or_404(slug)
    require_master(game)
    form = SignupForm()
    if not form.validate_on_submit():
        flash(_("Check the closing date and the maximum."), "error")
        return redirect(url_for("join.people", slug=slug))
    closes_at = form.closes_at.data.replace(tzinfo=ZoneInfo(operations.game_tz(game))).astimezone(timezone.utc)
    return _attempt(slug, lambda: signups.open_signups(
        db(), game, closes_at=closes_at, max_players=form.max_players.data, by=current_user, now=now()),
        _("Sign-ups are open: share the link."))


@bp.route("/g/<slug>/master/signups/close", methods=["POST"])
@login_required
def close_signups(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if not PlainForm().validate_on_submit():
        abort(400)
    return _attempt(slug, lambda: signups.close_signups(db(), game, by=current_user, now=now()),
                    _("Sign-ups are closed."))


@bp.route("/g/<slug>/master/signups/new-link", methods=["POST"])
@login_required
def new_link(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if not PlainForm().validate_on_submit():
        abort(400)
    return _attempt(slug, lambda: signups.new_link(db(), game, by=current_user, now=now()),
                    _("New link made: the old one no longer works."))


@bp.route("/g/<slug>/master/masters", methods=["POST"])
@login_required
def add_master(slug: str):
    game = game_or_404(slug)
    require_master(game)
    form = CoMasterForm()
    if not form.validate_on_submit():
        flash(_("Check the address."), "error")
        return redirect(url_for("join.people", slug=slug))
    return _attempt(slug, lambda: operations.add_co_master(
        db(), config(), game, email=form.email.data, name=form.name.data or "", lang=form.lang.data,
        by=current_user, now=now()), _("Master added; they have been told by mail."))
