"""The IMAP server restarted while the service reads the mailbox, between
batches and in the middle of a fetch: every message applied once, every
receipt queued once, nothing left unread."""
from __future__ import annotations

import threading
from email.message import EmailMessage
from email.utils import make_msgid

from pbm import inbox
from pbm.mail.sources import imap
from pbm.mail.sources import MailSourceError, open_source
from pbm.models import ActionRow, InboundRow, OutboxRow, Seat
from pbm.worker import Worker
from tests.support.helpers import make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME

ROUNDS = 3  # mails per player


def test_imap_restarted_mid_fetch(make_app, clock, imap_account, report):
    app = make_app(MAIL_SOURCE=imap_account.source_config(timeout=10, reconnect_timeout=30))
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()
    with factory() as s:
        seats = [(seat.user.email, seat.token) for seat in s.query(Seat)]
    names = list(ROLES)
    for round_ in range(ROUNDS * 20):
        for email, token in seats:
            msg = EmailMessage()
            msg["From"], msg["To"] = email, f"lupus+{token}@lupus.localhost"
            msg["Subject"], msg["Message-ID"] = "Re: voto", make_msgid(domain="players.test")
            msg.set_content(f"VOTO {names[round_ % len(names)]}")
            imap_account.deliver(bytes(msg))
    expected = ROUNDS * 20 * len(seats)

    restarts = []
    real_fetch = imap.ImapSource.fetch_new

    def fetch_new(self, limit=None, max_bytes=None):
        if len(restarts) < 2:
            # Mid-fetch: the server goes down while this fetch runs.
            timer = threading.Timer(0.01, lambda: (imap_account.server.restart(), restarts.append("mid")))
            timer.start()
            try:
                return real_fetch(self, limit, max_bytes)
            finally:
                timer.join()
        if len(restarts) < 4:
            imap_account.server.restart()  # between batches
            restarts.append("between")
        return real_fetch(self, limit, max_bytes)

    imap.ImapSource.fetch_new = fetch_new
    failures = 0
    try:
        for _ in range(20):
            source = open_source(app.config["MAIL_SOURCE"])
            try:
                inbox.ingest(factory, app.config, source, clock.now())
            except MailSourceError:
                failures += 1
            finally:
                source.close()
            with factory() as s:
                if s.query(InboundRow).count() >= expected:
                    break
    finally:
        imap.ImapSource.fetch_new = real_fetch
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        left = len(source.fetch_new())
    finally:
        source.close()
    with factory() as s:
        rows = s.query(InboundRow).all()
        statuses = {r.status for r in rows}
        applied = s.query(ActionRow).count()
        receipts = s.query(OutboxRow).filter(OutboxRow.kind.in_(["receipt", "receipt_error"])).count()
    report("IMAP server restarted mid-fetch",
           **{"restarts": len(restarts), "ingest rounds that gave up": failures,
              "mails delivered (expected)": expected, "mails stored": len(rows),
              "submissions expected": expected, "submissions stored": applied,
              "receipts queued": receipts, "left unread in the mailbox": left,
              "statuses": ", ".join(sorted(statuses))})
    assert len(restarts) >= 3
    assert len(rows) == expected and statuses == {"processed"}
    assert applied == expected and receipts == expected and left == 0
