"""GET /healthz: 200 and a JSON report when healthy, 503 and the reasons when not."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, current_app, jsonify

from .. import health
from . import now

bp = Blueprint("health", __name__)


@bp.route("/healthz")
def healthz():
    max_age = timedelta(seconds=int(current_app.config["HEALTH_WORKER_MAX_AGE"]))
    # A session of its own: the check must not depend on (or leave) the request's.
    healthy, report = health.check(current_app.extensions["pbm_sessions"], now(), max_age)
    response = jsonify(report)
    response.status_code = 200 if healthy else 503
    response.headers["Cache-Control"] = "no-store"
    return response
