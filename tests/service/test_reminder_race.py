"""Two workers sending reminders at the same moment remind each player once
(run on PostgreSQL too, by test_postgres.py)."""
from __future__ import annotations

import threading
from collections import Counter
from datetime import datetime, timezone

from sqlalchemy.exc import OperationalError

from pbm import mailer
from pbm.models import OutboxRow
from pbm.worker import Worker

from .helpers import make_game
from .test_desk import ROLES, TUE_0930

TUE_1930_ROME = datetime(2026, 11, 24, 18, 30, tzinfo=timezone.utc)


def test_two_workers_reminding_at_once_remind_each_player_once(app, factory, clock, monkeypatch):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()
    clock.set(TUE_1930_ROME)

    first_inside, second_inside = threading.Event(), threading.Event()
    real_queue = mailer.queue

    def slow_queue(*args, **kwargs):
        if kwargs.get("template") == "reminder" and not second_inside.is_set():
            if first_inside.is_set() and threading.current_thread() is not first_thread[0]:
                second_inside.set()
            elif not first_inside.is_set():
                first_thread.append(threading.current_thread())
                first_inside.set()
                second_inside.wait(1.0)  # the other worker comes in now, unless it is made to wait
        return real_queue(*args, **kwargs)

    first_thread: list[threading.Thread] = []
    monkeypatch.setattr(mailer, "queue", slow_queue)
    failures: list[BaseException] = []

    def remind():
        try:
            Worker(app, clock).remind()
        except OperationalError as exc:  # SQLite: the later writer fails; nothing of it is kept
            failures.append(exc)

    one = threading.Thread(target=remind)
    one.start()
    assert first_inside.wait(10)
    two = threading.Thread(target=remind)
    two.start()
    one.join(30)
    two.join(30)

    with factory() as s:
        reminded = Counter(m.to_addr for m in s.query(OutboxRow).filter_by(kind="reminder"))
    assert set(reminded.values()) == {1}, reminded
    assert len(reminded) == len(ROLES)
