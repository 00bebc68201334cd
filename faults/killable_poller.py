"""A mail poller process for the fault suite, killed at random while it reads
the Maildir. A fork server, like tests/support/killable_worker.py: each line
forks a poller that prints ``ready PID`` and ingests everything, and
``exit PID STATUS`` is printed when it ends (-9: killed)."""
from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

from sqlalchemy.orm import configure_mappers

from pbm import inbox
from pbm.app import create_service_app
from pbm.clock import FixedClock
from pbm.mail.sources import open_source

from tests.support.fork_server import serve_forks


def work(database_url: str, instance: str, maildir: str, now_iso: str) -> int:
    now = datetime.fromisoformat(now_iso)
    app = create_service_app({"DATABASE_URL": database_url, "MAIL_SOURCE": {"kind": "maildir", "path": maildir}},
                             instance=Path(instance), clock=FixedClock(now))
    factory = app.extensions["pbm_sessions"]
    print(f"ready {os.getpid()}", flush=True)
    inbox.process_stored(factory, app.config, now)
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        inbox.ingest(factory, app.config, source, now)
    finally:
        source.close()
    return 0


def serve(database_url: str, instance: str, maildir: str, now_iso: str) -> int:
    configure_mappers()
    return serve_forks(lambda _line: work(database_url, instance, maildir, now_iso))

if __name__ == "__main__":
    sys.exit(serve(*sys.argv[1:5]))
