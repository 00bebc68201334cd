"""A sender process for the fault suite, killed at random while it drains the
outbox. A fork server, like tests/support/killable_worker.py: each line
``go NOW`` forks a sender that prints ``ready PID`` and drains what is due at
NOW, and ``exit PID STATUS`` is printed when it ends (-9: killed)."""
from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

from sqlalchemy.orm import configure_mappers

from pbm.mail.outbound import send
from pbm.app import create_service_app
from pbm.clock import FixedClock

from tests.support.fork_server import serve_forks


def work(database_url: str, instance: str, port: int, now_iso: str) -> int:
    now = datetime.fromisoformat(now_iso)
    app = create_service_app({"DATABASE_URL": database_url, "MAIL_PORT": port},
                             instance=Path(instance), clock=FixedClock(now))
    print(f"ready {os.getpid()}", flush=True)
    while send.drain(app, app.extensions["pbm_sessions"], now):
        pass
    return 0


def serve(database_url: str, instance: str, port: str) -> int:
    configure_mappers()
    return serve_forks(lambda line: work(database_url, instance, int(port), line.split()[1]))

if __name__ == "__main__":
    sys.exit(serve(*sys.argv[1:4]))
