"""The service busy on SQLite, as `pbm run` runs it (issue 23, item 8): gunicorn and a
worker in processes of their own; the worker resolves 1,000 boundaries as fast as it
can (its heartbeat every 0.2 s) while four people log in, read their page and vote.
Prints how many requests were answered 503 ("the game is busy": a request that failed
because the worker held the database), any other 5xx, and what the worker logged
about a locked database. Target: zero 503s. (tests/service/infrastructure/test_busy_service.py is the
same at 300 boundaries, in the test suite.)

    .venv/bin/python bench/bench_busy_service.py [--boundaries 1000] [--games N]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from _support import ROOT, record, scratch  # noqa: F401 (ROOT: the import path)

from tests.fixtures.smtp import free_port
from tests.support.busy_service import run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boundaries", type=int, default=1000)
    parser.add_argument("--games", type=int, default=None,
                        help="default: a fifth of the boundaries (a game left alone goes to its Masters "
                             "as a draft after six phases)")
    args = parser.parse_args()
    args.games = args.games or -(-args.boundaries // 5)
    load = os.getloadavg()[0]
    began = time.monotonic()
    tally, worker, worker_log = run(scratch(), args.games, args.boundaries, free_port())
    locked = worker_log.count("database is locked")
    print(f"{worker['boundaries']} boundaries of {args.games} games in {worker['seconds']} s; "
          f"4 clients: {tally.logins} logins, {tally.submissions} submissions "
          f"({tally.meanwhile} while the worker resolved), {sum(tally.answers.values())} requests; "
          f"slowest {tally.slowest[0][0] if tally.slowest else 0} s")
    for (what, status), count in sorted(tally.answers.items()):
        print(f"  {what:<10} {status}: {count}")
    print(f"503 answers: {tally.busy} (target 0); other 5xx: {tally.failed - tally.busy}; "
          f"worker's 'database is locked': {locked}; client errors: {len(tally.errors)}")
    record("busy_service", {"boundaries": worker["boundaries"], "games": args.games,
                            "worker_seconds": worker["seconds"], "requests": sum(tally.answers.values()),
                            "logins": tally.logins, "submissions": tally.submissions,
                            "submissions_while_resolving": tally.meanwhile, "answers_503": tally.busy,
                            "answers_5xx": tally.failed, "worker_database_locked": locked,
                            "load_average_at_start": round(load, 1),
                            "seconds": round(time.monotonic() - began, 1)})
    return 0 if tally.failed == 0 and locked == 0 and not tally.errors else 1


if __name__ == "__main__":
    sys.exit(main())
