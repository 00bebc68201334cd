"""Login with hashed passwords, logout, language choice."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import select

from ..models import User
from . import db
from .forms import AccountForm, LoginForm

bp = Blueprint("auth", __name__)


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        user = db().scalar(select(User).where(User.email == form.email.data.strip().lower()))
        if user is not None and user.check_password(form.password.data):
            login_user(user, remember=True)
            target = request.args.get("next", "")
            if not target.startswith("/") or urlsplit(target).netloc:
                target = url_for("public.index")
            return redirect(target)
        flash(_("Wrong email or password."), "error")
    return render_template("login.html", form=form)


@bp.route("/logout", methods=["POST"])
def logout():
    logout_user()
    return redirect(url_for("public.index"))


@bp.route("/lang/<code>", methods=["POST"])
def set_lang(code: str):
    if code in ("it", "en"):
        session["lang"] = code
        if current_user.is_authenticated:
            current_user.lang = code
            db().commit()
    target = request.referrer or url_for("public.index")
    if urlsplit(target).netloc not in ("", request.host):
        target = url_for("public.index")
    return redirect(target)


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account():
    """A player's own settings: reminders before deadlines, language."""
    form = AccountForm(obj=current_user)
    if form.validate_on_submit():
        current_user.reminders = form.reminders.data
        current_user.lang = form.lang.data
        session["lang"] = form.lang.data
        db().commit()
        flash(_("Settings saved."), "receipt")
        return redirect(url_for("auth.account"))
    if request.method == "GET":
        # Offer the language the pages are shown in (chosen with IT/EN, maybe before
        # logging in): saving must not silently switch the site back to the other one.
        form.lang.data = str(get_locale() or current_user.lang)
    return render_template("account.html", form=form)
