"""A worker process for the kill test: resolves every due boundary at a given
instant, then exits. The test kills it at random moments while it works.

Started as ``python -m tests.support.killable_worker URL INSTANCE NOW`` it is
a fork server: it imports the service once, then for each line read on stdin
forks a worker that prints ``ready PID`` and resolves, and reports
``exit PID STATUS`` when that worker ends (STATUS is -9 when it was killed).
Importing Flask and SQLAlchemy costs a second; paying it once per test instead
of once per kill lets the test kill many times in a few seconds."""
from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

from sqlalchemy.orm import configure_mappers

from engine.registry import get_ruleset
from pbm import operations
from pbm.mail.outbound import composer
from pbm.app import create_service_app
from pbm.clock import FixedClock

from tests.support.fork_server import serve_forks


def warm_up() -> None:
    """Do once, before forking, what every worker would otherwise do cold:
    configure the mappers, load the ruleset, compile the mail templates."""
    configure_mappers()
    get_ruleset("lupus-live-12")
    for template in composer._env.list_templates():
        composer._env.get_template(template)


def work(database_url: str, instance: str, now_iso: str) -> int:
    now = datetime.fromisoformat(now_iso)
    app = create_service_app({"DATABASE_URL": database_url}, instance=Path(instance), clock=FixedClock(now))
    print(f"ready {os.getpid()}", flush=True)  # the test kills us at random moments from here on
    operations.resolve_due(app.extensions["pbm_sessions"], app.config, now)
    return 0


def serve(database_url: str, instance: str, now_iso: str) -> int:
    warm_up()
    return serve_forks(lambda _line: work(database_url, instance, now_iso))

if __name__ == "__main__":
    sys.exit(serve(*sys.argv[1:4]))
