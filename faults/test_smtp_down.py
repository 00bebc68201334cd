"""The SMTP relay down for an hour of the service's clock, while games go on
(a boundary queues its results in the middle of it): nothing is lost,
nothing is sent twice, and everything leaves soon after the relay is back."""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

from sqlalchemy import func, select

from pbm.models import OutboxRow
from pbm.mail.outbound.send import MAX_BACKOFF
from pbm.worker import Worker
from tests.support.helpers import make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME

GAMES = 5


def test_the_relay_down_for_an_hour(make_app, clock, smtp_server, report):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    for g in range(GAMES):
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=f"master{g}@example.org")
    worker = Worker(app, clock)
    smtp_server.stop()
    clock.set(TUESDAY_0930_ROME - timedelta(minutes=30))
    sent_while_down = 0
    for minute in range(60):
        clock.advance(seconds=60)
        if minute == 30:
            worker.boundaries()  # night 1 -> day 1, its mail queued while the relay is down
        sent_while_down += worker.outbox()
    with factory() as s:
        queued = [m for (m,) in s.execute(select(OutboxRow.message_id))]
        most_attempts = s.scalar(select(func.max(OutboxRow.attempts)))
    smtp_server.start()
    back = clock.now()
    waited = None
    while clock.now() - back <= MAX_BACKOFF + timedelta(minutes=1):
        worker.outbox()
        with factory() as s:
            if not s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "pending")):
                waited = clock.now() - back
                break
        clock.advance(seconds=60)
    received = Counter(m.message["Message-ID"] for m in smtp_server.messages)
    report("SMTP relay down for an hour",
           **{"games": GAMES, "mails queued (expected)": len(queued), "sent while down": sent_while_down,
              "most attempts of one mail": most_attempts,
              "minutes from relay back to all sent": None if waited is None else int(waited.total_seconds() // 60),
              "mails sent": sum(received.values()), "mails sent twice": sum(n - 1 for n in received.values()),
              "mails never sent": len(set(queued) - set(received))})
    assert sent_while_down == 0
    assert waited is not None and waited <= MAX_BACKOFF
    assert sorted(received) == sorted(queued) and set(received.values()) == {1}
