"""Security headers on every response of the web app.

- Content-Security-Policy: scripts, styles, pictures and forms from this
  site only, no inline script (the templates have none: every script is a
  file in static/), no plugins, no <base>, and no framing by anyone
  (frame-ancestors, with X-Frame-Options for older browsers): a page of a
  game cannot be laid under another site's buttons.
- X-Content-Type-Options: nosniff: a stranger's mail served as text stays text.
- Referrer-Policy: a reserved area's address never leaves in a Referer.
- Strict-Transport-Security only when the request came over HTTPS (directly
  or through a proxy Flask trusts): sent over plain HTTP it would be ignored,
  and on a demo at http://127.0.0.1 it must never pin HTTPS.

A page that sets a header of its own (the raw mail's sandbox) keeps it.
"""
from __future__ import annotations

from flask import Flask, Response, request

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

HSTS = "max-age=31536000; includeSubDomains"


def _secure(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_app(app: Flask) -> None:
    app.after_request(_secure)
