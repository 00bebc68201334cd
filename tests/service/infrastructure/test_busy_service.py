"""Issue 23, item 8, under load and in real processes: while a worker resolves 300
boundaries on SQLite (its heartbeat every 0.2 s), four people log in, read their
page and vote (or shout, by night) through gunicorn, and not one request is answered 503 ("the game is
busy"), nor any other 5xx; the worker logs no "database is locked". About half a
minute (60 games; a game left alone goes to its Masters as a draft after six phases); bench/bench_busy_service.py runs the same at 1,000 boundaries and prints the
count. (Before pbm.db began writing transactions with BEGIN IMMEDIATE, 150
boundaries gave 66 503s here and the worker's heartbeat tracebacks.)"""
from __future__ import annotations

from tests.fixtures.smtp import free_port
from tests.support.busy_service import run

BOUNDARIES = 300


def test_no_request_fails_while_the_worker_resolves_boundaries(tmp_path):
    tally, worker, worker_log = run(tmp_path, games=60, boundaries=BOUNDARIES, port=free_port())
    assert worker["boundaries"] == BOUNDARIES
    assert tally.errors == [], tally.slowest  # the slowest requests say where a timeout came from
    assert tally.logins >= 4 and tally.meanwhile >= 4, tally.answers  # they did play meanwhile
    assert tally.busy == 0, sorted(tally.answers.items())
    assert tally.failed == 0, sorted(tally.answers.items())
    assert "database is locked" not in worker_log and "Traceback" not in worker_log, worker_log[-3000:]
