"""How large a request may be: MAX_CONTENT_LENGTH for every page, more for the few
views that take a file (the narrator's photo), which say so with ``@allow(bytes)``.

A body over the limit is refused with 413 before any of it is read (its
Content-Length is checked first; a chunked one is read no further than the limit),
so an anonymous visitor cannot make the server read and spool gigabytes. The limit
must be set before the form is parsed, and CSRFProtect parses it in its own
before_request hook: ``init_app`` is called before CSRFProtect's, and its hook
gives the view's own limit to the request.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Flask, abort, current_app, request

View = TypeVar("View", bound=Callable)


def allow(limit: int) -> Callable[[View], View]:
    """This view takes bodies up to ``limit`` bytes (instead of MAX_CONTENT_LENGTH)."""
    def mark(view: View) -> View:
        view.max_request_bytes = limit  # type: ignore[attr-defined]
        return view
    return mark


def _view_limit() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    limit = getattr(view, "max_request_bytes", None)
    if limit is not None:
        request.max_content_length = limit


def _refused_by_the_proxy():
    """Where nginx sends its own 413 (``error_page 413 /request-too-large``), so
    the reader gets the service's page, in their language, not nginx's."""
    abort(413)


def init_app(app: Flask) -> None:
    app.before_request(_view_limit)
    app.add_url_rule("/request-too-large", "request_too_large", _refused_by_the_proxy)
