"""Application factories: the web app, and the bare service app the worker runs on."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, g
from flask_babel import Babel
from flask_login import LoginManager
from flask_mail import Mail
from flask_wtf.csrf import CSRFProtect

from . import config as config_module
from .clock import Clock
from .db import make_engine, make_sessionmaker
from .i18n import compile_catalogs, select_locale
from .models import User

ROOT = Path(__file__).resolve().parent.parent

login_manager = LoginManager()
login_manager.login_view = "auth.login"
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
    return app


def create_app(overrides: dict[str, Any] | None = None, instance: Path | None = None,
               clock: Clock | None = None) -> Flask:
    """The web application (the scheduler lives in `pbm worker`, never here)."""
    app = create_service_app(overrides, instance, clock)
    compile_catalogs()
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(ROOT / "pbm" / "translations")

    login_manager.init_app(app)
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)

    from .web import auth, master, player, public
    for module in (auth, public, player, master):
        app.register_blueprint(module.bp)

    @app.teardown_appcontext
    def _close_session(_exc: BaseException | None) -> None:
        session = g.pop("db", None)
        if session is not None:
            session.close()

    @app.context_processor
    def _globals() -> dict[str, Any]:
        from flask_babel import get_locale
        return {"current_locale": str(get_locale() or "it")}

    return app


@login_manager.user_loader
def _load_user(user_id: str) -> User | None:
    from .web import db
    return db().get(User, int(user_id))
