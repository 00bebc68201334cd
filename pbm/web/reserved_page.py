"""The reserved page as sent: the page kept as written, but for the three things that
change from one request to the next (issue 33: the page is most of the deadline rush's
requests, and a player sees it again after every vote):

- the player's choices and the forms filled with them (partials/reserved_forms.html),
  kept as written too, for the same forms and choices: shared by every seat offered
  the same forms at the same version of the game (``Parts.forms_key``), so the page
  after a vote is written once for all who voted alike,
- the messages shown once (a receipt, a refusal: partials/flashes.html),
- the session's form token, signed anew for each request.

Those are written at each request and put in their places; the rest of the page is
written once per ``key``, which the caller makes of everything else the page shows
(the parts' version and what the reader's page shows beside them: pbm/web/player.py).
The places are marked with words made at random when the process starts, so no text
a user wrote can stand for them.
"""
from __future__ import annotations

import re
import secrets
from typing import Any, Hashable

from flask import Flask, current_app, render_template
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ..i18n import request_lang
from .kept import Kept, of_app

_MARK = secrets.token_hex(8)
_FORMS, _FLASHES, _TOKEN = (f"\x00{name}-{_MARK}\x00" for name in ("forms", "flashes", "token"))
_PLACES = re.compile("(" + "|".join(re.escape(mark) for mark in (_FORMS, _FLASHES, _TOKEN)) + ")")

# About 12 KB a page: a thousand players' pages, some 12 MB a web process at most;
# their forms, about 3 KB for each forms and choices, a thousand some 3 MB.
# Kept per app (kept.of_app): the keys hold a database's ids.
def _pages(app: Flask = current_app) -> Kept[list[str]]:
    return of_app(app, "reserved_pages", 1024)


def _forms(app: Flask = current_app) -> Kept[list[str]]:
    return of_app(app, "reserved_forms", 1024)


def render(context: dict[str, Any], key: Hashable | None) -> str:
    """The page for ``context`` (pbm.web.player.reserved_context); ``key`` None for a
    page never kept (a Master's view of it)."""
    if key is None:
        forms = Markup(_partial("partials/reserved_forms.html", context)) if context["forms"] else Markup("")
        return render_template("reserved.html", forms_html=forms, **context)
    flashes = Markup(_partial("partials/flashes.html", {}))
    token = generate_csrf()
    pieces = _pages().get_or_make(key, lambda: _pieces(render_template(
        "reserved.html", forms_html=Markup(_FORMS), flashes_html=Markup(_FLASHES), **context).replace(token, _TOKEN)))
    fill = {_FLASHES: str(flashes), _TOKEN: token,
            _FORMS: _written_forms((context["parts"].forms_key, context["filled"]), context, token)
            if context["forms"] else ""}
    return "".join(fill.get(piece, piece) for piece in pieces)


def answer(said: str, context: dict[str, Any], forms_key: Hashable) -> str:
    """The answer to a vote sent by the page's script: ``said`` (the receipt), then the
    choices and forms of ``context`` (its game, forms and current choices), with the
    session's form token: what takes the place of the page's forms. ``forms_key``:
    what those forms and choices are written from (they are kept as written for it)."""
    forms = _written_forms(forms_key, context, generate_csrf())
    return _partial("partials/vote_answer.html", {"said": said, "forms_html": Markup(forms)})


def _written_forms(key: Hashable, context: dict[str, Any], token: str) -> str:
    """The choices and forms of ``context``, as written for ``key`` (the page's forms are
    built only to be written), with ``token``, the session's."""
    pieces = _forms().get_or_make(key, lambda: _pieces(
        _partial("partials/reserved_forms.html", context).replace(token, _TOKEN)))
    return "".join(token if piece == _TOKEN else piece for piece in pieces)


def _partial(name: str, context: dict[str, Any]) -> str:
    """A part written at each request, with the page's context but without running the
    app's context processors again (Flask's render_template does, for each template):
    the part needs only the page's language of them (``_()`` reads it)."""
    return current_app.jinja_env.get_template(name).render(current_locale=request_lang(), **context)


def _pieces(page: str) -> list[str]:
    """The page cut at its places, each place a piece of its own."""
    return [piece for piece in _PLACES.split(page) if piece]


def forget(app: Flask) -> None:
    """Drop every page ``app`` keeps (a test that wants a page written from nothing)."""
    _pages(app).clear()
    _forms(app).clear()
