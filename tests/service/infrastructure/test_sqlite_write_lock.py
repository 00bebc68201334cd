"""Issue 23, item 8: "database is locked" on SQLite, the database of `pbm run`.

A transaction that read first and wrote later failed at once, whatever the busy
timeout, when another connection had committed in between: the worker's heartbeat
(13 tracebacks in 19 quiet minutes) and the first login after a start (503, "La partita
è occupata"). Each test here runs on a SQLite file, whatever PBM_TEST_DATABASE says,
with a second connection committing as the worker's threads do. The same under load,
with real processes (gunicorn, a worker resolving boundaries, four clients), is
tests/service/infrastructure/test_busy_service.py; bench/bench_busy_service.py runs it at 1,000
boundaries.
"""
from __future__ import annotations

import logging
import threading
import time

import pytest

from pbm import health
from pbm.db import write_sessions
from pbm.models import User
from pbm.worker import Worker

from tests.support.helpers import login, make_game
from tests.support.mail import ROLES, fast_passwords  # noqa: F401 (a fixture)


@pytest.fixture
def app(make_app, tmp_path):
    return make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'locks.sqlite3'}")


class Committer:
    """Another connection committing small writes without pause, as the worker's
    outbox, mail poller and boundaries do while the service runs (through the worker's
    own sessions)."""

    def __init__(self, app, clock):
        self.factory, self.clock = write_sessions(app.extensions), clock
        self.stop, self.commits, self.errors = threading.Event(), 0, []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.is_set():
            try:
                health.beat(self.factory, f"other-worker-{self.commits % 3}", self.clock.now(), self.clock.now())
                self.commits += 1
            except Exception as exc:  # counted: the test says how many
                self.errors.append(repr(exc))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(10)


def test_heartbeats_are_recorded_while_another_connection_commits(app, factory, clock, caplog):
    worker = Worker(app, clock)
    caplog.set_level(logging.WARNING, logger="pbm.worker")
    with Committer(app, clock) as other:
        for _ in range(200):
            worker.heartbeat()
    assert other.commits > 0 and other.errors == []
    assert [r.getMessage() for r in caplog.records] == []  # not one heartbeat missed
    with factory() as s:
        assert s.get(health.WorkerHeartbeat, worker.name) is not None


def test_a_heartbeat_the_database_cannot_take_is_one_line_and_the_next_one_counts(app, factory, clock, caplog,
                                                                                  monkeypatch, tmp_path):
    """Its write lock held past the busy timeout (here 0.2 s): no traceback."""
    import sqlite3

    from sqlalchemy import event

    engine = app.extensions["pbm_engine"]
    event.listen(engine, "connect", lambda conn, _rec: conn.execute("PRAGMA busy_timeout=200"))
    engine.dispose()
    worker = Worker(app, clock)
    caplog.set_level(logging.WARNING)
    holder = sqlite3.connect(tmp_path / "locks.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        worker.heartbeat()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    (record,) = caplog.records
    assert "heartbeat not recorded" in record.getMessage() and record.exc_info is None
    worker.heartbeat()
    with factory() as s:
        assert s.get(health.WorkerHeartbeat, worker.name) is not None


def test_a_login_whose_password_check_meets_a_commit_goes_through(app, factory, clock, monkeypatch):
    """The first login after a start: the worker commits (a heartbeat) while the
    password is checked. It must neither fail the login nor wait for it."""
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    real_check = User.check_password
    waited: list[float] = []

    def check_while_the_worker_commits(user, password):
        beat = threading.Thread(target=health.beat, args=(write_sessions(app.extensions), "the-worker",
                                                          clock.now(), clock.now()))
        began = time.monotonic()
        beat.start()
        beat.join(5)
        waited.append(time.monotonic() - began)
        assert not beat.is_alive(), "the worker waited for the login's password check"
        return real_check(user, password)

    monkeypatch.setattr(User, "check_password", check_while_the_worker_commits)
    client = login(app, "dario@players.test", "pw-dario")  # asserts the 302
    assert waited and client.get("/account").status_code == 200
    with factory() as s:
        assert s.get(health.WorkerHeartbeat, "the-worker") is not None


def test_a_writer_waiting_for_the_lock_gets_in_between_two_transactions_of_a_long_run(app):
    """A boundary of many games is a run of write transactions, one after another.
    SQLite's own wait polls the lock every 100 ms, the run left it free for a few
    microseconds between two of them: a request waiting for the lock missed every gap
    and got in after the whole run (11 s behind 1,000 boundaries), or failed after
    30 s. Now a waiter polls every few milliseconds and the run pauses longer than that
    between its transactions (``make_way``): the waiter gets in within a few of them."""
    from sqlalchemy import text

    from pbm.db import make_way, transaction

    factory = write_sessions(app.extensions)
    with transaction(factory) as s:
        s.execute(text("CREATE TABLE who_wrote (who TEXT)"))
    runs, holding = 40, threading.Event()

    def long_run():
        for i in range(runs):
            with transaction(factory) as s:
                s.execute(text("INSERT INTO who_wrote VALUES (:who)"), {"who": f"run {i}"})
                if i == 3:
                    holding.set()  # the waiter comes while the run holds the lock
                time.sleep(0.025)
            make_way(factory)

    run = threading.Thread(target=long_run)
    run.start()
    assert holding.wait(10)
    with transaction(factory) as s:
        s.execute(text("INSERT INTO who_wrote VALUES ('waiter')"))
    run.join(30)
    with transaction(factory) as s:
        order = list(s.scalars(text("SELECT who FROM who_wrote ORDER BY rowid")))
    assert len(order) == runs + 1
    assert order.index("waiter") < runs * 3 // 4, order  # not after the whole run
