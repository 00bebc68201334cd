"""Italian first, English too: the locale of a request and the compiled catalogs."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import Flask, current_app, request, session
from flask_babel import get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
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


@lru_cache(maxsize=None)
def _catalog(lang: str) -> NullTranslations:
    compile_catalogs()
    return Translations.load(str(TRANSLATIONS), [lang], domain="messages")


def gettext_in(lang: str, message: str, **params: object) -> str:
    """The service's own words in ``lang`` outside a web request (mail, the worker):
    the same catalogue as ``_()`` in pages, so one sentence is translated once.
    ``message`` is the English msgid; ``params`` fill its %(name)s placeholders."""
    text = _catalog(lang if lang in ("it", "en") else "it").gettext(message)
    return text % params if params else text


def install_page_gettext(app: Flask) -> None:
    """The pages' ``_()`` read the catalogue of the language the page is rendered in
    (``current_locale``, which every page's context has) straight from the compiled
    catalogues: Flask-Babel's own callables look the request's locale and domain up
    again through Flask's context proxies at each of a page's twenty-odd sentences,
    a good part of the reserved page's rendering (issue 33). The same catalogues
    (``BABEL_TRANSLATION_DIRECTORIES`` is this folder); a template rendered without
    ``current_locale`` asks Flask-Babel as before."""

    def catalog(context: Context) -> NullTranslations:
        lang = context.get("current_locale")
        return _catalog(lang) if lang in ("it", "en") else get_translations()

    @pass_context
    def gettext(context: Context, message: str) -> str:
        return catalog(context).ugettext(message)

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, n: int) -> str:
        return catalog(context).ungettext(singular, plural, n)

    @pass_context
    def pgettext(context: Context, ctx: str, message: str) -> str:
        return catalog(context).upgettext(ctx, message)

    @pass_context
    def npgettext(context: Context, ctx: str, singular: str, plural: str, n: int) -> str:
        return catalog(context).unpgettext(ctx, singular, plural, n)

    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=gettext, ngettext=ngettext, newstyle=True, pgettext=pgettext, npgettext=npgettext)


def lang_of(code: str) -> str:
    """"en", "en_GB" -> English; anything else Italian (the service's first language)."""
    return "en" if str(code).lower().startswith("en") else "it"


def request_lang() -> str:
    """The language of the reader of this web request, as ``select_locale`` chose it:
    "it" or "en" (Italian outside a request)."""
    return lang_of(str(get_locale() or "it"))


def count_text(n: int, one: str, many: str, lang: str) -> str:
    """"1 giorno", "3 giorni": ``one`` or ``many`` (each with ``%(n)s``) as the
    language's plural rule (Babel's) asks for ``n``; for the mail templates, whose
    words are in the template's own language rather than the catalogue."""
    form = Locale.parse(lang_of(lang)).plural_form(n)
    return (one if form == "one" else many) % {"n": n}
