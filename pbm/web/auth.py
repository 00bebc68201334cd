"""Logging in and out, the account's settings, passwords (change, reset by mail).

A login's identity is the user's id and session token together (``User.get_id``):
a new token at logout and at a password change ends every session and
remember cookie made before. Wrong passwords are throttled per account and
per client address; a login takes the same time whether or not the address
has an account.
"""
from __future__ import annotations

import hmac
import math
from datetime import timedelta
from urllib.parse import urlsplit

from flask import Blueprint, Flask, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import bindparam, select
from werkzeug.middleware.proxy_fix import ProxyFix

from ..i18n import request_lang
from .. import accounts
from ..i18n import gettext_in
from ..accounts import tokens
from ..models import User, check_dummy_password
from . import config, db, now
from .account_forms import AccountForm, ChangePasswordForm, ChoosePasswordForm, ResetRequestForm
from .forms import LoginForm
from .refusals import attempted, refusal

bp = Blueprint("auth", __name__)


def init_app(app: Flask) -> None:
    """Cookies: SameSite=Lax always; Secure when the site is served over HTTPS
    (BASE_URL https://, or SESSION_COOKIE_SECURE set); a remember cookie of
    30 days unless configured otherwise."""
    https = str(app.config.get("BASE_URL", "")).startswith("https://")
    for prefix in ("SESSION_COOKIE", "REMEMBER_COOKIE"):
        app.config[f"{prefix}_SAMESITE"] = app.config.get(f"{prefix}_SAMESITE") or "Lax"
        app.config[f"{prefix}_SECURE"] = bool(app.config.get(f"{prefix}_SECURE")) or https
        app.config[f"{prefix}_HTTPONLY"] = True
    app.config.setdefault("REMEMBER_COOKIE_DURATION", timedelta(days=30))
    # Behind N reverse proxies, the client is the address they forward: without
    # this every visitor would share the proxy's address, and one guesser's
    # wrong passwords would lock everyone out.
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask's documented way to wrap it
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
    check_dummy_password("")  # hashed now, not during the first login for an unknown address


# Built once (bound per request): every logged-in request asks it first, in a session
# of its own, where Session.get would build its statement anew each time.
_USER_BY_ID = select(User).where(User.id == bindparam("id"))


def load_user(user_id: str) -> User | None:
    """flask-login's loader: the id and the session token must both match."""
    uid, _, token = (user_id or "").partition(":")
    if not uid.isdigit() or not token:
        return None
    user = db().scalars(_USER_BY_ID, {"id": int(uid)}).one_or_none()
    if user is None or not hmac.compare_digest(user.session_token.encode(), token.encode()):
        return None
    return user


def client_address() -> str:
    """The client's address (behind proxies, set TRUSTED_PROXIES: see init_app)."""
    return request.remote_addr or "unknown"


def _safe_next(target: str) -> str:
    if not target.startswith("/") or target.startswith("//") or urlsplit(target).netloc:
        return url_for("public.index")
    return target


def _blocked(until) -> str:
    """Logins refused until ``until``: said as the catalogue says ``login_blocked``."""
    minutes = max(1, math.ceil((until - now()).total_seconds() / 60))
    return refusal(accounts.AccountError("login_blocked", minutes=minutes))


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        email = accounts.normalize_email(form.email.data)
        client = client_address()
        blocked = accounts.login_blocked_until(db(), config(), email, client, now())
        if blocked is not None:
            # Even the right password is refused: guessing must stop here.
            flash(_blocked(blocked), "error")
            return render_template("login.html", form=form), 429
        user = accounts.find_user(db(), email)
        # Checking a password takes a while (scrypt): not with the database's write
        # lock held (pbm.db), which a boundary being resolved would wait for.
        db().commit()
        ok = user.check_password(form.password.data) if user else check_dummy_password(form.password.data)
        if ok and user is not None:
            accounts.forget_failures(db(), user.email)  # a typo or two earlier no longer count
            db().commit()
            login_user(user, remember=True)
            return redirect(_safe_next(request.args.get("next", "")))
        accounts.record(db(), "login", email, client, now())
        db().commit()
        flash(_("Wrong email or password."), "error")
    return render_template("login.html", form=form)


@bp.route("/logout", methods=["POST"])
def logout():
    if current_user.is_authenticated:
        user = db().get(User, current_user.id)
        user.end_sessions()  # the remember cookie, wherever it was copied, stops working
        db().commit()
    logout_user()
    return redirect(url_for("public.index"))


@bp.route("/lang/<code>", methods=["POST"])
def set_lang(code: str):
    if code in ("it", "en"):
        session["lang"] = code
        if current_user.is_authenticated and current_user.lang != code:
            # The account's mail follows the pages' language: said, never silently (issue 31).
            current_user.lang = code
            db().commit()
            flash(gettext_in(code, "Pages and your mail are now in English; you can change this on "
                                   "your account page."), "receipt")
    target = request.referrer or url_for("public.index")
    if urlsplit(target).netloc not in ("", request.host):
        target = url_for("public.index")
    return redirect(target)


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account():
    """A user's own settings: language, time zone of their mail, reminders, how
    bulletins reach them."""
    form = AccountForm(obj=current_user)
    if form.validate_on_submit():
        current_user.reminders = form.reminders.data
        current_user.bulletins = form.bulletins.data
        current_user.lang = form.lang.data
        current_user.tz = form.tz.data
        session["lang"] = form.lang.data
        db().commit()
        flash(_("Settings saved."), "receipt")
        return redirect(url_for("auth.account"))
    if request.method == "GET":
        # Offer the language the pages are shown in (chosen with IT/EN, maybe before
        # logging in): saving must not silently switch the site back to the other one.
        form.lang.data = request_lang()
    return render_template("account.html", form=form)


@bp.route("/account/password", methods=["GET", "POST"])
@login_required
def change_password():
    form = ChangePasswordForm()
    if form.validate_on_submit():
        user = db().get(User, current_user.id)
        client = client_address()
        blocked = accounts.login_blocked_until(db(), config(), user.email, client, now())
        if blocked is not None:
            flash(_blocked(blocked), "error")
        elif not user.check_password(form.current.data):
            accounts.record(db(), "login", user.email, client, now())
            db().commit()
            flash(_("The current password is wrong."), "error")
        else:
            try:
                accounts.check_new_password(user.email, form.password.data, form.confirm.data)
            except accounts.AccountError as exc:
                flash(refusal(exc), "error")
            else:
                user.set_password(form.password.data)  # ends every other session
                db().commit()
                login_user(user, remember=True)  # this one goes on, under the new token
                flash(_("Password changed. Every other device where you were logged in is logged out."),
                      "receipt")
                return redirect(url_for("auth.account"))
    return render_template("password_change.html", form=form)


@bp.route("/password-reset", methods=["GET", "POST"])
def password_reset():
    """Ask for a reset link. The answer is the same page whether or not the
    address has an account (and the same work: a mail is queued either way)."""
    form = ResetRequestForm()
    if form.validate_on_submit():
        if attempted(None, lambda: accounts.request_reset(
                db(), config(), form.email.data, client_address(), now(), lang=request_lang())).refused:
            return render_template("password_reset.html", form=form), 429
        return render_template("password_reset.html", form=form, sent=True)
    return render_template("password_reset.html", form=form)


@bp.route("/password-reset/<token>", methods=["GET", "POST"])
def password_choose(token: str):
    """Choose a password through a link from a mail (welcome, reset, new account).
    Opening the link changes nothing (mail scanners open links); saving does."""
    try:
        user = accounts.user_for_password_token(db(), config(), token, now())
    except tokens.TokenError as exc:
        flash(refusal(exc), "error")
        return redirect(url_for("auth.password_reset"))
    form = ChoosePasswordForm()
    if form.validate_on_submit() and attempted(None, lambda: accounts.choose_password(
            db(), user, form.password.data, form.confirm.data),
            success=_("Password saved: you are logged in.")).refused is None:
        login_user(user, remember=True)
        return redirect(url_for("public.index"))
    return render_template("password_choose.html", form=form, user=user)
