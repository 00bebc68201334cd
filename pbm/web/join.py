"""Sign-ups (`/join/<token>`) and the Masters' page of who is in a game:
the sign-up link, its closing date and maximum, and the co-Masters."""
from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user

from engine.registry import get_ruleset

from ..i18n import request_lang
from .. import accounts, operations, render
from ..accounts import tokens
from ..operations import signups
from ..models import Game, Signup
from . import config, db, game_or_404, now, require_master
from .account_forms import CoMasterForm, JoinForm, SignupForm, TakeSeatForm
from .forms import CsrfForm
from .auth import client_address
from .refusals import attempt, attempted, refusal

bp = Blueprint("join", __name__)



def _refusal(exc: Exception) -> str:
    """A refusal as the sign-up pages say it (``pbm.errors.PAGES["signup"]``)."""
    return refusal(exc, page="signup")


def _signup_or_404(token: str) -> Signup:
    signup = signups.by_token(db(), token)
    if signup is None:
        abort(404)
    return signup


def _closing_text(signup: Signup) -> str:
    return render.deadline_text(signup.closes_at, request_lang(), operations.game_tz(signup.game))


@bp.route("/join/<token>", methods=["GET", "POST"])
def join(token: str):
    signup = _signup_or_404(token)
    game = signup.game
    form = JoinForm()
    if not form.is_submitted():
        form.lang.data = request_lang()
    sent = False
    if form.validate_on_submit():
        sent = attempted(game, lambda: signups.request_seat(
            db(), config(), signup, name=form.name.data, email=form.email.data, lang=form.lang.data,
            client=client_address(), now=now()), page="signup").refused is None
    elif form.is_submitted():
        flash(_("Check the name and the address."), "error")
    closed = signups.why_closed(signup, now())
    return render_template("join.html", game=game, signup=signup, form=form, sent=sent,
                           closing=_closing_text(signup), about=_about(game, signup),
                           closed=_refusal(operations.OperationError(closed)) if closed else None)


def _about(game: Game, signup: Signup) -> dict:
    """What someone deciding to join wants to know (issue 31): who runs the game, when
    its first phases end (or how long a move may take), and how long it goes on."""
    lang, tz = request_lang(), operations.game_tz(game)
    phases, window = operations.timing.ahead(game, max(now(), signup.closes_at))
    from ..calendar import phase_label
    return {
        "masters": ", ".join(m.user.name for m in game.masters),
        "phases": [_("%(phase)s, until %(deadline)s", phase=phase_label(p, lang),
                     deadline=render.deadline_text(p.end, lang, tz)) for p in phases],
        "window": int(window.total_seconds() // 60) if window is not None else None,
        "length": get_ruleset(game.ruleset).welcome(lang).get("length", ""),
    }


@bp.route("/join/<token>/confirm/<signed>", methods=["GET", "POST"])
def confirm(token: str, signed: str):
    """Opening the link from the mail shows what it confirms; saving takes the seat."""
    signup = _signup_or_404(token)
    game = signup.game
    try:
        wanted = signups.read_request(db(), config(), signup, signed, now())
    except tokens.TokenError as exc:
        flash(_refusal(exc), "error")
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
                flash(_refusal(exc), "error")
                return render_template("join_confirm.html", game=game, wanted=wanted, form=form,
                                       needs_password=needs_password, signed_in=signed_in), 403
            proven = account
        taken = attempted(game, lambda: signups.take_seat(
            db(), config(), signup, wanted, password=form.password.data, confirm=form.confirm.data,
            now=now(), proven=proven), page="signup", success=lambda user_and_seat: _(
                "You are in: you play as %(name)s in %(game)s.", name=user_and_seat[1].name, game=game.name))
        if taken.done is not None:
            login_user(taken.done[0], remember=True)
            return redirect(url_for("public.game_home", slug=game.slug))
        if isinstance(taken.refused, operations.OperationError) and taken.refused.code == "already_seated":
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
        master_form=CoMasterForm(formdata=None, lang=request_lang()), csrf_form=CsrfForm())


def _on_people_page(slug: str, change, success: str):
    return attempt(game_or_404(slug), change, back=url_for("join.people", slug=slug), success=success,
                   page="signup")


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
    return _on_people_page(slug, lambda: signups.open_signups(
        db(), game, closes_at=closes_at, max_players=form.max_players.data, by=current_user, now=now()),
        _("Sign-ups are open: share the link."))


@bp.route("/g/<slug>/master/signups/close", methods=["POST"])
@login_required
def close_signups(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if not CsrfForm().validate_on_submit():
        abort(400)
    return _on_people_page(slug, lambda: signups.close_signups(db(), game, by=current_user, now=now()),
                    _("Sign-ups are closed."))


@bp.route("/g/<slug>/master/signups/new-link", methods=["POST"])
@login_required
def new_link(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if not CsrfForm().validate_on_submit():
        abort(400)
    return _on_people_page(slug, lambda: signups.new_link(db(), game, by=current_user, now=now()),
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
    return _on_people_page(slug, lambda: operations.add_co_master(
        db(), config(), game, email=form.email.data, name=form.name.data or "", lang=form.lang.data,
        by=current_user, now=now()), _("Master added; they have been told by mail."))
