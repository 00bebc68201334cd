"""Mail out under a relay's limit: one boundary of 100 games of 40 players,
sent through a relay that takes 60 messages a minute (and answers 421 beyond),
with the service told the limit (MAIL_RATE_PER_MINUTE=60). Reports, for each
class of mail (pbm/mail/outbound/classes.py), how long after the boundary it was all
sent, and how long the receipts that came in meanwhile waited.

The boundary queues every player's results (private results for those with
lines of their own, bulletins for the rest) and the Masters' reports; 100
receipts are queued with it, and 100 more 20 minutes later, as players answer.
The relay is tests/fixtures/quota_relays.py's RateLimitedRelay (aiosmtpd); its
minute and the service's are the same injected clock, moved 5 s between runs of
the worker's outbox job, so an hour of sending takes seconds. What is timed is
the clock's time, the relay's own limit being the bottleneck; the wall time is
printed beside it. Targets: nothing refused by the relay (the service paces
itself), and no receipt waiting longer than the receipts queued with it need
at 60 a minute (100 receipts: two minutes), however many bulletins wait.

    .venv/bin/python bench/bench_mail_quota.py [--games 100]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from datetime import timedelta

from _support import ROOT, fast_passwords, record, scratch, service_app  # first: it puts the checkout on sys.path

sys.path.insert(0, str(ROOT / "bench"))

from sqlalchemy import select

from bench_boundary_1000 import MONDAY_10, MONDAY_2100, seed
from pbm import operations
from pbm.mail.outbound import classes
from pbm.mail import outbound
from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.models import OutboxRow, User
from pbm.worker import Worker
from tests.fixtures.quota_relays import RateLimitedRelay

PER_MINUTE = 60
STEP = timedelta(seconds=5)
RECEIPT = {"original_subject": "Re: Partita", "phase_label": None, "deadline": None, "applied": [],
           "errors": [], "ignored": []}


def queue_receipts(factory, config, now, count: int, offset: int) -> list[str]:
    with transaction(factory) as s:
        users = s.scalars(select(User).where(User.is_admin.is_(False)).order_by(User.id)
                          .offset(offset).limit(count)).all()
        messages = [outbound.compose(config, to=u.email, template="receipt", lang=u.lang, now=now, kind="receipt",
                                   auto_reply=True, context=RECEIPT) for u in users]
        outbound.queue_all(s, messages)
        return [m["message_id"] for m in messages]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args(argv)
    fast_passwords()
    clock = FixedClock(MONDAY_10)
    with RateLimitedRelay(PER_MINUTE, clock.now) as relay:
        app = service_app(scratch(), clock, MAIL_PORT=relay.port, MAIL_RATE_PER_MINUTE=PER_MINUTE)
        factory = app.extensions["pbm_sessions"]
        seed(factory, app.config, args.games)
        clock.set(MONDAY_2100)
        began_wall = time.perf_counter()
        done = operations.resolve_due(factory, app.config, clock.now())
        assert len(done) == args.games, done
        boundary = clock.now()
        queued_at = dict.fromkeys(queue_receipts(factory, app.config, boundary, 100, 0), boundary)
        late_added = False
        worker = Worker(app, clock)
        while True:
            worker.outbox()
            if not late_added and clock.now() - boundary >= timedelta(minutes=20):
                queued_at |= dict.fromkeys(queue_receipts(factory, app.config, clock.now(), 100, 100), clock.now())
                late_added = True
                continue
            with factory() as s:
                waiting = s.scalar(select(OutboxRow.id).where(OutboxRow.status == "pending").limit(1))
            if waiting is None and late_added:
                break
            clock.advance(seconds=STEP.total_seconds())
        wall = time.perf_counter() - began_wall
        with factory() as s:
            rows = {r.message_id: r for r in s.scalars(select(OutboxRow))}
    sent = Counter(relay.ids)
    if set(sent) != set(rows) or set(sent.values()) != {1}:
        raise SystemExit(f"expected each of {len(rows)} mails once: {len(sent)} distinct, "
                         f"{sum(sent.values())} sent")
    when = dict(relay.accepted)
    names = {classes.URGENT: "receipts", classes.PRIVATE: "private results",
             classes.BULK: "bulletins and reports"}
    print(f"{args.games} games, {len(rows)} mails through a relay of {PER_MINUTE} a minute "
          f"({relay.throttled} refused by the relay); wall time {wall:.1f} s "
          f"(load average {os.getloadavg()[0]:.1f})")
    figures: dict[str, object] = {"games": args.games, "mails": len(rows), "per_minute": PER_MINUTE,
                                  "refused_by_relay": relay.throttled, "wall_seconds": round(wall, 1)}
    for c in classes.CLASSES:
        mine = [m for m, r in rows.items() if r.priority == c]
        if not mine:
            continue
        last = max(when[m] for m in mine) - boundary
        print(f"  class {c} ({names[c]}): {len(mine)} mails, all sent {last.total_seconds() / 60:.1f} min "
              f"after the boundary")
        figures[f"class_{c}_mails"] = len(mine)
        figures[f"class_{c}_all_sent_minutes"] = round(last.total_seconds() / 60, 1)
    waits = [(when[m] - queued_at[m]).total_seconds() for m in queued_at]
    print(f"  receipts: the longest wait from queued to sent {max(waits):.0f} s "
          f"(100 at the boundary, 100 queued 20 min later behind the bulletins)")
    figures["receipt_longest_wait_seconds"] = max(waits)
    record("mail_quota", figures)
    if relay.throttled or max(waits) > 120 + STEP.total_seconds():
        print("target missed: nothing refused by the relay, every receipt within two minutes")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
