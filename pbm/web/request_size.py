"""How large a request may be: MAX_CONTENT_LENGTH for every page, more for the few
views that take a file (the narrator's photo), which say so with ``@allow(bytes)``.

A body over the limit is refused with 413 before any of it is read (its
Content-Length is checked first; a chunked one is read no further than the limit),
so an anonymous visitor cannot make the server read and spool gigabytes. The limit
must be set before the form is parsed, and CSRFProtect parses it in its own
before_request hook: ``init_app`` is called before CSRFProtect's, and its hook
gives the view's own limit to the request.

A view's larger limit is given only to a request that passes the view's own
check first (``allow(bytes, may=...)``), made before a byte of the body is read:
an anonymous request could otherwise make the server read 16 MB into the photo
route of any game before the login and the form's token were looked at.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, abort, current_app, request

View = TypeVar("View", bound=Callable)


def allow(limit: int, may: Callable[[], bool] | None = None) -> Callable[[View], View]:
    """This view takes bodies up to ``limit`` bytes (instead of MAX_CONTENT_LENGTH),
    from a request for which ``may()``, asked before the body is read, is true;
    any other keeps MAX_CONTENT_LENGTH (a larger body is refused unread)."""
    def mark(view: View) -> View:
        view.max_request_bytes = limit  # type: ignore[attr-defined]
        view.may_send_more = may  # type: ignore[attr-defined]
        return view
    return mark


def _view_limit() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    limit = getattr(view, "max_request_bytes", None)
    may = getattr(view, "may_send_more", None)
    if limit is not None and (may is None or may()):
        request.max_content_length = limit


# The gunicorn request this thread is serving (set by pbm/webserver.py's hooks; None
# under another server).
SERVING = threading.local()


def close_connection() -> None:
    """After a refusal whose body was left unread: gunicorn closes the connection
    (it cannot read the next request past the rest of this body), and so it must
    say ``Connection: close``, not keep-alive. A WSGI application may not set that
    header itself (PEP 3333): gunicorn writes it when its request is marked."""
    served = getattr(SERVING, "request", None)
    if served is not None:
        served.force_close()


def _refused_by_the_proxy():
    """Where nginx sends its own 413 (``error_page 413 /request-too-large``), so
    the reader gets the service's page, in their language, not nginx's."""
    abort(413)


def init_app(app: Flask) -> None:
    app.before_request(_view_limit)
    app.add_url_rule("/request-too-large", "request_too_large", _refused_by_the_proxy)
