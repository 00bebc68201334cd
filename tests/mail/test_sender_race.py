"""Two workers draining the outbox at the same moment: every message reaches
the SMTP server once (run on PostgreSQL too, by test_postgres.py)."""
from __future__ import annotations

import threading
from collections import Counter

from pbm.mail.outbound import send
from pbm.models import OutboxRow

from tests.support.helpers import make_game
from tests.support.together import at_once
from tests.support.mail import ROLES, fast_passwords  # noqa: F401  (a fixture)


def test_two_workers_draining_at_once_send_each_message_once(make_app, clock, smtp_server, monkeypatch):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        queued = [r.message_id for r in s.query(OutboxRow)]
    assert len(queued) >= 10

    both_read = threading.Barrier(2, timeout=10)
    real_due = send.due

    def due_then_wait(session, now, limit=send.BATCH, general=None):
        rows = real_due(session, now, limit, general)
        both_read.wait()  # each worker has the whole outbox in hand before either sends
        return rows

    monkeypatch.setattr(send, "due", due_then_wait)
    errors = at_once(lambda: send.drain(app, factory, clock.now()))
    assert errors == []

    monkeypatch.setattr(send, "due", real_due)
    send.drain(app, factory, clock.now())  # whatever is left
    wire = Counter(m.message["Message-ID"] for m in smtp_server.wait_for(len(queued)))
    assert sorted(wire) == sorted(queued)
    assert set(wire.values()) == {1}, [mid for mid, n in wire.items() if n > 1]
    with factory() as s:
        assert {r.status for r in s.query(OutboxRow)} == {"sent"}
