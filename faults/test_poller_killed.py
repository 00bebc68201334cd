"""The mail poller killed (-9) at random moments while it reads the mailbox:
every message stored once, applied once, answered once; nothing left unread."""
from __future__ import annotations

import mailbox
import os
import random
import signal
import subprocess
import sys
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from pbm.models import ActionRow, InboundRow, OutboxRow, Seat
from pbm.worker import Worker
from tests.support.helpers import make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME

ROOT = Path(__file__).resolve().parents[1]
MAILS = int(os.environ.get("FAULTS_MAILS", 400))


def test_the_poller_killed_at_random_while_it_reads(app, factory, clock, tmp_path, report):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()
    with factory() as s:
        seats = [(seat.user.email, seat.token) for seat in s.query(Seat)]
    maildir = app.config["MAIL_SOURCE"]["path"]
    box = mailbox.Maildir(maildir, create=True)
    names = list(ROLES)
    for n in range(MAILS):
        email, token = seats[n % len(seats)]
        msg = EmailMessage()
        msg["From"], msg["To"] = email, f"lupus+{token}@lupus.localhost"
        msg["Subject"], msg["Message-ID"] = "Re: voto", make_msgid(domain="players.test")
        msg.set_content(f"VOTO {names[n % len(names)]}")
        box.add(bytes(msg))
    server = subprocess.Popen(
        [sys.executable, "-m", "faults.killable_poller", app.config["DATABASE_URL"], str(tmp_path / "instance"),
         maildir, clock.now().isoformat()], env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout.readline().strip() == "serving"
    rng = random.Random(int(os.environ.get("FAULTS_SEED", 2026)))
    kills = rounds = 0
    try:
        while rounds < 200:
            rounds += 1
            server.stdin.write("go\n")
            server.stdin.flush()
            _, pid = server.stdout.readline().split()
            if rounds % 5:
                time.sleep(rng.uniform(0.0, 0.5))
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            _, _, code = server.stdout.readline().split()
            killed = int(code) == -signal.SIGKILL
            kills += killed
            if not killed and rounds % 5 == 0:
                with factory() as s:
                    if s.query(InboundRow).filter(InboundRow.status == "stored").count() == 0 and \
                            s.query(InboundRow).count() >= MAILS:
                        break
    finally:
        server.stdin.close()
        server.wait(30)
    from pbm.mail.sources.maildir import MaildirSource
    left = len(MaildirSource(path=maildir).fetch_new())
    with factory() as s:
        rows = s.query(InboundRow).all()
        statuses = sorted({r.status for r in rows})
        applied = s.query(ActionRow).count()
        receipts = s.query(OutboxRow).filter(OutboxRow.kind.in_(["receipt", "receipt_error"])).count()
    report("mail poller killed -9 at random moments",
           **{"pollers started": rounds, "pollers killed": kills, "mails delivered (expected)": MAILS,
              "mails stored": len(rows), "submissions expected": MAILS, "submissions stored": applied,
              "receipts queued": receipts, "left unread in the mailbox": left,
              "statuses": ", ".join(statuses)})
    assert kills >= 1
    assert len(rows) == MAILS and statuses == ["processed"]
    assert applied == MAILS and receipts == MAILS and left == 0
