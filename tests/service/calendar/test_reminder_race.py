"""Two workers sending reminders at the same moment remind each player once
(run on PostgreSQL too, by test_postgres.py)."""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone

from sqlalchemy.exc import OperationalError

from pbm.mail import outbound
from pbm.models import OutboxRow
from pbm.worker import Worker

from tests.support.helpers import first_waits_for_second, make_game, run_overlapping
from tests.service.desk.test_desk import ROLES, TUE_0930

TUE_1930_ROME = datetime(2026, 11, 24, 18, 30, tzinfo=timezone.utc)


def test_two_workers_reminding_at_once_remind_each_player_once(app, factory, clock, monkeypatch):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()
    clock.set(TUE_1930_ROME)

    # Held while writing its first reminder, inside its transaction.
    slow_compose, first_inside = first_waits_for_second(
        outbound.compose, only=lambda *args, **kwargs: kwargs.get("template") == "reminder")
    monkeypatch.setattr(outbound, "compose", slow_compose)

    def remind():
        Worker(app, clock).remind()

    # SQLite: the later writer fails; nothing of it is kept
    run_overlapping(remind, remind, first_inside, tolerate=(OperationalError,))

    with factory() as s:
        reminded = Counter(m.to_addr for m in s.query(OutboxRow).filter_by(kind="reminder"))
    assert set(reminded.values()) == {1}, reminded
    assert len(reminded) == len(ROLES)
