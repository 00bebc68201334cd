"""Application factories: the web app, and the bare service app the worker runs on."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, g
from flask_babel import Babel, lazy_gettext
from flask_login import LoginManager
from flask_mail import Mail
from flask_wtf.csrf import CSRFProtect

from . import config as config_module
from .clock import Clock
from .db import make_engine, make_sessionmaker
from .i18n import compile_catalogs, install_page_gettext, request_lang, select_locale
from .models import User

ROOT = Path(__file__).resolve().parent.parent

login_manager = LoginManager()
login_manager.login_view = "auth.login"
# Flask-Login's own flash is English ("Please log in to access this page."): ours, in
# the reader's language.
login_manager.login_message = lazy_gettext("Log in to see this page.")
csrf = CSRFProtect()
babel = Babel()
mail = Mail()


def create_service_app(overrides: dict[str, Any] | None = None, instance: Path | None = None,
                       clock: Clock | None = None) -> Flask:
    """What every process needs: configuration, database, clock, Flask-Mail.

    The worker uses this alone; it has no pages, no logins, no scheduler of
    the web's.
    """
    instance = (instance or config_module.instance_path()).resolve()
    app = Flask(__name__, template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "pbm" / "static"), instance_path=str(instance))
    app.config.update(config_module.load(instance, overrides))
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["pbm_engine"] = engine
    app.extensions["pbm_sessions"] = make_sessionmaker(engine)
    app.extensions["pbm_clock"] = clock or Clock()
    mail.init_app(app)
    from . import telling
    from .stats import wiring
    telling.connect()  # the mail each operation's announcement makes (pbm/hooks.py)
    wiring.connect()  # finished games counted as they end (issue 34)
    return app


def create_app(overrides: dict[str, Any] | None = None, instance: Path | None = None,
               clock: Clock | None = None) -> Flask:
    """The web application (the scheduler lives in `pbm worker`, never here)."""
    app = create_service_app(overrides, instance, clock)
    compile_catalogs()
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(ROOT / "pbm" / "translations")

    from .web import request_size
    login_manager.init_app(app)
    request_size.init_app(app)  # before CSRFProtect, whose hook reads the body
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    install_page_gettext(app)  # after Flask-Babel's own, which it replaces

    from .web import (
        archive, auth, demo_mailbox, headers, health, join, master, narrator, narrator_offline, player, public,
        rooms, rooms_archive, rooms_masters, seats, stats, window_page,
    )
    auth.init_app(app)
    for module in (auth, public, player, master, join, window_page, narrator, narrator_offline, health, archive,
                   seats, rooms, rooms_masters, rooms_archive, stats):
        app.register_blueprint(module.bp)
    if demo_mailbox.embedded_mail(app.config):
        app.register_blueprint(demo_mailbox.bp)
    headers.init_app(app)

    @app.teardown_appcontext
    def _close_session(_exc: BaseException | None) -> None:
        session = g.pop("db", None)
        if session is not None:
            session.close()

    _register_error_pages(app)

    @app.context_processor
    def _globals() -> dict[str, Any]:
        return {"current_locale": request_lang(),
                "has_mailbox": "mailbox.index" in app.view_functions}

    return app


def _register_error_pages(app: Flask) -> None:
    """Errors in the reader's language, saying whether anything was recorded."""
    from flask import render_template
    from flask_babel import gettext as _
    from sqlalchemy.exc import OperationalError
    from werkzeug.exceptions import HTTPException

    def page(status: int, title: str, message: str):
        session = g.get("db")
        if session is not None:  # whatever the request wrote is not kept (and the page says so)
            session.rollback()
        return render_template("error.html", title=title, message=message), status

    @app.errorhandler(OperationalError)
    def _database_busy(_exc: OperationalError):
        # SQLite lets one writer at a time, and a boundary being resolved is a
        # long write: the request waited, then gave up. Nothing it sent was kept.
        # The page only reads (the reader's language and name, found before its
        # words): on a session that takes no write lock (pbm.db.writing), it is
        # rendered even while the database is held.
        session = g.pop("db", None)
        if session is not None:
            session.rollback()
            session.close()
            g.db = app.extensions["pbm_sessions"]()
            g.pop("_login_user", None)  # read again, by the new session
        return page(503, _("The game is busy"), _(
            "The service is resolving a phase or is briefly unavailable: what you sent was NOT "
            "recorded. Try again in a minute."))

    @app.errorhandler(413)
    def _too_large(_exc: HTTPException):
        from .photos import MAX_UPLOAD
        from .web.request_size import close_connection
        close_connection()  # the body is left unread: say so, and close
        mb = 2 ** 20
        return page(413, _("Too large"), _(
            "What you sent is too large for the service: nothing was recorded. A form takes at most "
            "%(form)s MB, a photo at most %(photo)s MB: go back and send less (a shorter text, a "
            "smaller photo).", form=max(1, int(app.config["MAX_CONTENT_LENGTH"]) // mb),
            photo=MAX_UPLOAD // mb))

    # Werkzeug's own pages for these are English, whatever the reader's language.
    @app.errorhandler(403)
    def _forbidden(_exc: HTTPException):
        return page(403, _("Not for you"), _("This page is not open to you: it is for the game's players "
                                             "or its Masters. Log in with the account that plays it."))

    @app.errorhandler(400)
    def _bad_request(_exc: HTTPException):
        return page(400, _("Request not understood"), _(
            "The page sent something the service cannot read: nothing was recorded. Go back, reload the "
            "page and try again."))

    @app.errorhandler(405)
    def _wrong_method(_exc: HTTPException):
        return page(405, _("Page not found"), _("There is no page at this address."))

    @app.errorhandler(404)
    def _not_found(_exc: HTTPException):
        return page(404, _("Page not found"), _("There is no page at this address."))

    @app.errorhandler(500)
    def _server_error(_exc: Exception):
        return page(500, _("Something went wrong"), _(
            "An error on our side stopped this request: what you sent was NOT recorded. "
            "Try again; if it happens again, tell your Master."))


@login_manager.user_loader
def _load_user(user_id: str) -> User | None:
    from .web.auth import load_user
    return load_user(user_id)
