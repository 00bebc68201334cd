"""A worker process for the kill test: resolves every due boundary at a given
instant, then exits. The test kills it at random moments while it works."""
from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from pbm import operations
from pbm.app import create_service_app
from pbm.clock import FixedClock


def main(database_url: str, instance: str, now_iso: str) -> int:
    now = datetime.fromisoformat(now_iso)
    app = create_service_app({"DATABASE_URL": database_url}, instance=Path(instance), clock=FixedClock(now))
    print("ready", flush=True)  # the test kills us at random moments from here on
    operations.resolve_due(app.extensions["pbm_sessions"], app.config, now)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
