"""Sending through relays that cap their sender (tests/fixtures/quota_relays.py):
one that takes N messages a minute and answers 421 beyond, one with a daily
quota that answers 452 once it is spent. Each is run twice: with the service
not told the relay's limit (it learns from the throttling answers, and backs
off the relay as a whole), and told it (MAIL_RATE_PER_MINUTE, MAIL_DAILY_QUOTA:
it paces itself, and the relay never has to refuse).

Games are set up (welcomes with their password links, role letters), a
boundary mails every player their results, and once the first bulletin has
gone out the players vote by mail, so receipts join the queue behind
bulletins still waiting. Through every run: nothing lost, nothing sent twice,
no mail sent while mail of a higher class waited (every receipt before any
bulletin queued with it), and the order of sending printed.

The relays' minute and day are the service's injected clock (the only fake:
three days of a quota run in seconds); the SMTP exchange, the database, the
mailbox the votes arrive in are real.
"""
from __future__ import annotations

import os
from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import select

from pbm.mail.outbound import classes
from pbm.models import OutboxRow, Seat
from pbm.worker import Worker
from tests.fixtures.quota_relays import DailyQuotaRelay, RateLimitedRelay
from tests.support.helpers import make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME, deliver, message, run_mail

GAMES = int(os.environ.get("FAULTS_QUOTA_GAMES", 5))
PER_MINUTE = 12
PER_DAY = 40
VOTERS = ["Anna", "Carla", "Dario"]
NAMES = {classes.URGENT: "receipts and links", classes.PRIVATE: "private results",
         classes.BULK: "bulletins and notices"}


def _vote_by_mail(app, factory, worker) -> None:
    """In every game, each voter answers their latest results mail: the service
    queues a receipt for each."""
    with factory() as s:
        rows = [s.scalars(select(OutboxRow).where(OutboxRow.kind == "phase_results", OutboxRow.to_addr == a.user.email,
                                                  OutboxRow.game_id == a.game_id)
                          .order_by(OutboxRow.id.desc()).limit(1)).one()
                for a in s.scalars(select(Seat).where(Seat.name.in_(VOTERS)))]
    for row in rows:
        deliver(app, message(row.to_addr, row.reply_to, "VOTO Elena", reply_to_row=row))
    run_mail(app, worker)


def _drain_through(app, clock, relay, step: timedelta, longest: timedelta) -> dict[str, object]:
    """Games, a boundary, votes by mail part-way; the worker's outbox job every
    ``step`` of the clock until nothing waits. What was sent, and in what order."""
    factory = app.extensions["pbm_sessions"]
    for g in range(GAMES):
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=f"m{g}@example.org")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1: every player's results
    began = clock.now()
    queued_at: dict[str, int] = {}  # Message-ID -> how many the relay had accepted when it was queued
    voted = False

    def note_queued() -> None:
        with factory() as s:
            for (mid,) in s.execute(select(OutboxRow.message_id)):
                queued_at.setdefault(mid, len(relay.accepted))

    note_queued()
    while clock.now() - began < longest:
        worker.outbox()
        with factory() as s:
            if not voted:
                bulk = set(s.scalars(select(OutboxRow.message_id).where(OutboxRow.priority == classes.BULK)))
                if bulk.intersection(relay.ids):
                    _vote_by_mail(app, factory, worker)
                    note_queued()
                    voted = True
                    continue
            elif s.scalar(select(OutboxRow.id).where(OutboxRow.status == "pending").limit(1)) is None:
                break
        clock.advance(seconds=step.total_seconds())
    with factory() as s:
        rows = {r.message_id: r for r in s.scalars(select(OutboxRow))}
    order = relay.ids
    return {"rows": rows, "order": order, "queued_at": queued_at, "took": clock.now() - began, "voted": voted}


def _overtaken(result) -> list[str]:
    """Mail sent while mail of a higher class, already queued, still waited."""
    rows, order, queued_at = result["rows"], result["order"], result["queued_at"]
    position = {m: i for i, m in enumerate(order)}
    wrong = []
    for m, row in rows.items():
        if m not in position:
            continue
        for later in order[queued_at[m]:position[m]]:
            if rows[later].priority > row.priority:
                wrong.append(f"{rows[later].kind} before {row.kind} {m}")
    return wrong


def _runs(order, rows) -> str:
    """The order of sending: runs of one class, e.g. '1x27 2x25 3x3 1x3 3x22'."""
    runs: list[list[int]] = []
    for m in order:
        c = rows[m].priority
        if runs and runs[-1][0] == c:
            runs[-1][1] += 1
        else:
            runs.append([c, 1])
    return " ".join(f"{c}x{n}" for c, n in runs)


def _check_and_report(report, fault: str, relay, result, limit_told: bool) -> None:
    rows, order = result["rows"], result["order"]
    sent = Counter(order)
    receipts = [m for m, r in rows.items() if r.kind in ("receipt", "receipt_error")]
    report(fault, **{
        "service told the limit": limit_told,
        "mails queued (expected)": len(rows),
        "of which receipts queued behind bulletins": len(receipts),
        "throttling answers from the relay": relay.throttled,
        "mails sent": len(sent),
        "mails sent twice": sum(n - 1 for n in sent.values()),
        "mails never sent": len(set(rows) - set(sent)),
        "mails sent ahead of a higher class": len(_overtaken(result)),
        "clock time to send everything": str(result["took"]),
        "order of sending (class x count)": _runs(order, rows),
        "classes": "; ".join(f"{c} = {n}" for c, n in NAMES.items()),
    })
    assert result["voted"] and len(receipts) == len(VOTERS) * GAMES
    assert set(sent) == set(rows), "nothing lost"
    assert set(sent.values()) == {1}, "nothing sent twice"
    assert {r.status for r in rows.values()} == {"sent"}
    assert _overtaken(result) == []
    # The receipts were queued while bulletins waited, and went before every one of them.
    position = {m: i for i, m in enumerate(order)}
    waiting_bulletins = [m for m, r in rows.items() if r.priority == classes.BULK
                         and position[m] >= min(result["queued_at"][x] for x in receipts)]
    assert waiting_bulletins, "the receipts must have been queued with bulletins still waiting"
    assert max(position[m] for m in receipts) < min(position[m] for m in waiting_bulletins)


@pytest.mark.parametrize("told", [False, True], ids=["unaware", "told"])
def test_a_relay_that_takes_n_messages_a_minute(make_app, clock, report, told):
    with RateLimitedRelay(PER_MINUTE, clock.now) as relay:
        app = make_app(MAIL_PORT=relay.port, **({"MAIL_RATE_PER_MINUTE": PER_MINUTE} if told else {}))
        result = _drain_through(app, clock, relay, timedelta(seconds=5), timedelta(hours=3))
    _check_and_report(report, f"relay of {PER_MINUTE} mails a minute, 421 beyond", relay, result, told)
    # Never more than the relay takes in any minute...
    times = [at for _, at in relay.accepted]
    assert all(sum(1 for t in times if at - timedelta(minutes=1) < t <= at) <= PER_MINUTE for at in times)
    if told:  # ...and told the limit, the service never even asks for more.
        assert relay.throttled == 0
    else:
        assert relay.throttled > 0


@pytest.mark.parametrize("told", [False, True], ids=["unaware", "told"])
def test_a_relay_with_a_daily_quota(make_app, clock, report, told):
    limits = {"MAIL_DAILY_QUOTA": PER_DAY, "MAIL_QUOTA_RESET": "00:00", "MAIL_QUOTA_TIMEZONE": "UTC"}
    with DailyQuotaRelay(PER_DAY, clock.now) as relay:
        app = make_app(MAIL_PORT=relay.port, **(limits if told else {}))
        result = _drain_through(app, clock, relay, timedelta(minutes=1), timedelta(days=6))
    _check_and_report(report, f"relay with a daily quota of {PER_DAY} mails, 452 beyond", relay, result, told)
    per_day = Counter(at.date() for _, at in relay.accepted)
    assert max(per_day.values()) <= PER_DAY
    assert len(per_day) > 1  # the mail did not fit one day: some waited for the quota to reset
    if told:
        assert relay.throttled == 0
    else:
        assert relay.throttled > 0
