"""Italian first, English too: the locale of a request and the compiled catalogs."""
from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import current_app, request, session
from flask_login import current_user

TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def compile_catalogs() -> None:
    """Compile .po to .mo when the .mo is missing or older (the .mo is not committed)."""
    for po in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f)
        tmp = mo.with_suffix(".mo.tmp")
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        tmp.replace(mo)


def select_locale() -> str:
    languages = current_app.config["LANGUAGES"]
    chosen = session.get("lang")
    if chosen in languages:
        return chosen
    if current_user.is_authenticated and current_user.lang in languages:
        return current_user.lang
    return request.accept_languages.best_match(languages) or current_app.config["BABEL_DEFAULT_LOCALE"]
