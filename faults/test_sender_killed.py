"""The sender killed (-9) at random moments while it drains the outbox:
nothing is lost; a message goes out twice only when the server had accepted
it and the commit that marks it sent had not happened as the sender died (at
most MARK_EVERY, one, a kill), and then with the same Message-ID, which mail
clients fold."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select

from pbm.models import OutboxRow
from pbm.mail.outbound.send import LEASE, MARK_EVERY
from tests.support.helpers import make_game
from tests.support.mail import ROLES

ROOT = Path(__file__).resolve().parents[1]
GAMES = int(os.environ.get("FAULTS_GAMES", 20))


def test_the_sender_killed_at_random_while_it_drains(make_app, clock, smtp_server, tmp_path, report):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    for g in range(GAMES):
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=f"m{g}@example.org")
    with factory() as s:
        queued = [m for (m,) in s.execute(select(OutboxRow.message_id))]
    server = subprocess.Popen(
        [sys.executable, "-m", "faults.killable_sender", app.config["DATABASE_URL"], str(tmp_path / "instance"),
         str(smtp_server.port)], env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout.readline().strip() == "serving"
    rng = random.Random(int(os.environ.get("FAULTS_SEED", 2026)))
    kills = rounds = 0
    now = clock.now()
    try:
        while True:
            with factory() as s:
                pending = s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "pending"))
            if not pending or rounds > 200:
                break
            rounds += 1
            now += LEASE + timedelta(minutes=1)  # what a killed sender had claimed is due again
            server.stdin.write(f"go {now.isoformat()}\n")
            server.stdin.flush()
            ready, pid = server.stdout.readline().split()
            if rounds % 5:
                time.sleep(rng.uniform(0.0, 0.3))
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            _, _, code = server.stdout.readline().split()
            kills += int(code) == -signal.SIGKILL
    finally:
        server.stdin.close()
        server.wait(30)
    received = Counter(m.message["Message-ID"] for m in smtp_server.messages)
    twice = sum(n - 1 for n in received.values())
    report("sender killed -9 at random moments",
           **{"mails queued (expected)": len(queued), "senders started": rounds, "senders killed": kills,
              "mails sent": len(received), "mails never sent": len(set(queued) - set(received)),
              "sent twice (accepted, not yet marked)": twice,
              "most a kill may re-send (MARK_EVERY)": MARK_EVERY})
    assert kills >= 1
    assert set(received) == set(queued)
    assert twice <= kills * MARK_EVERY
