"""Two workers draining at once under a relay's limit of N a minute, on PostgreSQL:
together they send N, not N each (relay_limits.sole_sender). Each reckons the
minute's room from what was sent; before, both reckoned it at the same moment and
each sent it whole (18 refused of 10,000 at a relay of 1,000 a minute in
bench_outbox_drain.py). SQLite lets one writer through at a time, not one sender:
this is PostgreSQL's, where several workers are deployed."""
from __future__ import annotations

import threading

import pytest

from pbm.mail.outbound import relay_limits, send
from pbm.models import OutboxRow

from tests.support.helpers import make_game
from tests.support.together import at_once
from tests.support.mail import ROLES, fast_passwords  # noqa: F401  (a fixture)

PER_MINUTE = 3


@pytest.fixture
def database_url(postgres_url: str) -> str:
    return postgres_url


def test_two_workers_under_a_rate_limit_send_the_minutes_room_once(make_app, clock, smtp_server, monkeypatch):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_RATE_PER_MINUTE=PER_MINUTE)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        assert s.query(OutboxRow).count() >= 3 * PER_MINUTE

    # Each worker reckons its room, then waits for the other to have reckoned too (if it
    # comes): the moment where both used to see the whole minute free.
    both_reckoned = threading.Barrier(2, timeout=3)
    real_rooms = relay_limits.rooms

    def rooms_then_wait(session, limits, now):
        found = real_rooms(session, limits, now)
        try:
            both_reckoned.wait()
        except threading.BrokenBarrierError:
            pass  # the other worker did not reckon: it was not sending
        return found

    monkeypatch.setattr(relay_limits, "rooms", rooms_then_wait)
    sent: list[int] = []
    errors = at_once(lambda: sent.append(send.drain(app, factory, clock.now())))
    assert errors == []
    assert sorted(sent) == [0, PER_MINUTE]  # one sent the minute's room, the other passed
    monkeypatch.setattr(relay_limits, "rooms", real_rooms)
    assert send.drain(app, factory, clock.now()) == 0  # the minute is spent: the rest waits
    assert len(smtp_server.wait_for(PER_MINUTE)) == PER_MINUTE
    with factory() as s:
        assert s.query(OutboxRow).filter(OutboxRow.status == "sent").count() == PER_MINUTE
        assert s.query(OutboxRow).filter(OutboxRow.status == "pending").count() >= PER_MINUTE
