"""Relays that refuse some recipients (issue 29): one that answers 553 to one
mailbox in the middle of every batch, and one that does not offer SMTPUTF8 while
players' addresses have letters outside ASCII before the @ (kept from before the
address check, or a relay changed since). Five games' welcomes, role letters and a
boundary's results go through each, with the bad addresses among the others.

Nothing else waits: every other message leaves in the round it was due, at its
first attempt, whatever game it belongs to; each unsendable one is refused alone,
its address marked failing for the Masters, and nothing is sent twice.
"""
from __future__ import annotations

from collections import Counter

from sqlalchemy import select

from pbm.db import transaction
from pbm.models import OutboxRow, User
from pbm.worker import Worker
from tests.fixtures.smtp import SmtpServer
from tests.support.helpers import make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME

GAMES = 5


def _games(app, clock, worker) -> None:
    factory = app.extensions["pbm_sessions"]
    for g in range(GAMES):
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=f"m{g}@example.org")
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1: every player's results, queued behind the set-up's mail


def _run(app, clock, relay, report, fault: str, bad: set[str]) -> None:
    factory = app.extensions["pbm_sessions"]
    worker = Worker(app, clock)
    _games(app, clock, worker)
    worker.outbox()  # one round: everything is due now
    with factory() as s:
        rows = list(s.scalars(select(OutboxRow)))
        failing = set(s.scalars(select(User.email).where(User.address_failing.is_(True))))
    received = Counter(m.message["Message-ID"] for m in relay.messages)
    good = [r for r in rows if r.to_addr not in bad]
    refused = [r for r in rows if r.to_addr in bad]
    report(fault, **{
        "games": GAMES, "mails queued": len(rows), "to unsendable addresses": len(refused),
        "others sent in the first round": sum(1 for r in good if r.status == "sent"),
        "others still waiting": sum(1 for r in good if r.status != "sent"),
        "others sent after a retry": sum(1 for r in good if r.attempts > 1),
        "unsendable ones refused": sum(1 for r in refused if r.status == "failed"),
        "sent twice": sum(n - 1 for n in received.values()),
        "addresses marked failing": ", ".join(sorted(failing)),
    })
    assert refused and good
    assert {r.status for r in good} == {"sent"} and {r.attempts for r in good} == {1}
    assert {r.status for r in refused} == {"failed"}
    assert sorted(received) == sorted(r.message_id for r in good) and set(received.values()) == {1}
    assert failing == bad


def test_a_relay_that_refuses_one_recipient_mid_batch(make_app, clock, report):
    with SmtpServer() as relay:
        relay.refuse("carla@players.test", "553 5.1.3 The recipient address is not valid")
        app = make_app(MAIL_PORT=relay.port)
        _run(app, clock, relay, report, "relay answering 553 to one mailbox mid-batch", {"carla@players.test"})


def test_a_relay_without_smtputf8_and_international_addresses(make_app, clock, report):
    with SmtpServer(smtputf8=False) as relay:
        app = make_app(MAIL_PORT=relay.port)
        factory = app.extensions["pbm_sessions"]
        worker = Worker(app, clock)
        _games(app, clock, worker)
        # Two players' addresses as an older check let them in: letters outside
        # ASCII before the @, and a domain in Unicode letters (sendable, as IDNA).
        with transaction(factory) as s:
            s.scalar(select(User).where(User.email == "dario@players.test")).email = "d\u00e0rio@players.test"
            s.scalar(select(User).where(User.email == "elena@players.test")).email = "elena@pl\u00e0yers.test"
            for row in s.scalars(select(OutboxRow)):
                row.to_addr = {"dario@players.test": "d\u00e0rio@players.test",
                               "elena@players.test": "elena@pl\u00e0yers.test"}.get(row.to_addr, row.to_addr)
        worker.outbox()
        with factory() as s:
            rows = list(s.scalars(select(OutboxRow)))
            failing = set(s.scalars(select(User.email).where(User.address_failing.is_(True))))
        received = Counter(m.message["Message-ID"] for m in relay.messages)
        bad = [r for r in rows if r.to_addr == "d\u00e0rio@players.test"]
        good = [r for r in rows if r.to_addr != "d\u00e0rio@players.test"]
        idn = sorted({m.rcpt_tos[0] for m in relay.messages if m.rcpt_tos[0].startswith("elena@")})
        report("relay without SMTPUTF8, addresses outside ASCII", **{
            "games": GAMES, "mails queued": len(rows),
            "to a local part outside ASCII (refused)": sum(1 for r in bad if r.status == "failed"),
            "others sent in the first round": sum(1 for r in good if r.status == "sent"),
            "others still waiting": sum(1 for r in good if r.status != "sent"),
            "a Unicode domain sent as": ", ".join(idn),
            "sent twice": sum(n - 1 for n in received.values()),
        })
        assert bad and {r.status for r in bad} == {"failed"} and failing == {"d\u00e0rio@players.test"}
        assert {r.status for r in good} == {"sent"} and {r.attempts for r in good} == {1}
        assert len(idn) == 1 and idn[0].startswith("elena@xn--")
        assert set(received.values()) == {1}
