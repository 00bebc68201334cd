"""GET /healthz: 200 when healthy, 503 when not; the report (schema revision,
worker heartbeat, the reasons) only to monitoring.

Anyone gets ``{"status": "ok"}`` or ``{"status": "unhealthy"}``: a load balancer
or a container's health check needs no more. The details date the code and say
when the service is busy or down, so they go only to

- a request made on this machine straight to the web server: its socket peer
  (REMOTE_ADDR as gunicorn gives it, before any proxy header is believed) is a
  loopback address, and it carries no forwarding header. Behind nginx on the same
  machine every request's peer is 127.0.0.1, so the peer alone proves nothing:
  nginx adds X-Forwarded-For to everything it passes on, and a visitor can add
  such headers but not remove nginx's. A proxy that adds none would make every
  visitor look local: where TRUSTED_PROXIES says proxies stand in front, a
  request without their header may have come through one that did not add it,
  so a loopback peer earns no report there (``pbm health`` reads it on the
  machine, without HTTP);
- whoever sends ``Authorization: Bearer <HEALTHZ_TOKEN>`` (a header, not the
  query string, which access logs keep), from anywhere.
"""
from __future__ import annotations

import hmac
import ipaddress
from datetime import timedelta

from flask import Blueprint, current_app, jsonify, request

from .. import health
from . import now

bp = Blueprint("health", __name__)

# Headers a proxy sets when it passes a request on (RFC 7239, and the usual X- ones).
FORWARDING_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP", "X-Forwarded-Host",
                      "X-Forwarded-Proto", "X-Forwarded-Port", "X-Forwarded-Server", "X-Client-IP",
                      "True-Client-IP", "Via", "CF-Connecting-IP", "Fastly-Client-IP", "X-Cluster-Client-IP",
                      "X-Original-Forwarded-For")


def socket_peer() -> str:
    """The address that opened the connection (ProxyFix keeps it when it rewrites REMOTE_ADDR)."""
    original = request.environ.get("werkzeug.proxy_fix.orig") or {}
    return str(original.get("REMOTE_ADDR") or request.environ.get("REMOTE_ADDR") or "")


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False  # a Unix socket, or nothing: not known to be this machine


def _local_and_direct() -> bool:
    if int(current_app.config.get("TRUSTED_PROXIES") or 0):
        return False  # every request comes through a proxy: the peer is the proxy's
    return _is_loopback(socket_peer()) and not any(h in request.headers for h in FORWARDING_HEADERS)


def _has_token() -> bool:
    token = str(current_app.config.get("HEALTHZ_TOKEN") or "")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode())


def may_read_details() -> bool:
    return _local_and_direct() or _has_token()


@bp.route("/healthz")
def healthz():
    max_age = timedelta(seconds=int(current_app.config["HEALTH_WORKER_MAX_AGE"]))
    # A session of its own: the check must not depend on (or leave) the request's.
    healthy, report = health.check(current_app.extensions["pbm_sessions"], now(), max_age)
    if not may_read_details():
        report = {"status": "ok" if healthy else "unhealthy"}
    response = jsonify(report)
    response.status_code = 200 if healthy else 503
    response.headers["Cache-Control"] = "no-store"
    return response
