"""Outgoing mail over a real SMTP server (aiosmtpd): back-off while the
server is down, nothing lost, each message exactly once; permanent and
temporary refusals of a recipient."""
from __future__ import annotations

from datetime import timedelta

from pbm.mail import outbound
from pbm.mail.outbound import send
from pbm.db import transaction
from pbm.models import OutboxRow, User
from tests.fixtures.smtp import serving

from tests.support.helpers import make_game
from tests.support.mail import ROLES, fast_passwords  # noqa: F401  (a fixture)


def outbox(factory):
    with factory() as s:
        return {r.message_id: r for r in s.query(OutboxRow).order_by(OutboxRow.id)}


def test_mail_waits_while_the_server_is_down_and_arrives_once(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    queued = outbox(factory)
    assert len(queued) >= 2 * len(ROLES)  # a welcome and a role letter each

    smtp_server.stop()
    first_try = clock.now()
    assert send.drain(app, factory, first_try) == 0
    after = outbox(factory)
    assert set(after) == set(queued)
    for row in after.values():
        assert (row.status, row.attempts) == ("pending", 1)
        assert row.next_attempt_at == first_try + send.backoff(1) > first_try
        assert row.last_error

    # Still down at the next try: the wait doubles.
    clock.advance(seconds=send.backoff(1).total_seconds())
    assert send.drain(app, factory, clock.now()) == 0
    for row in outbox(factory).values():
        assert (row.status, row.attempts) == ("pending", 2)
        assert row.next_attempt_at == clock.now() + send.backoff(2)
    assert send.backoff(2) > send.backoff(1)

    smtp_server.start()  # same port
    clock.advance(seconds=1)
    assert send.drain(app, factory, clock.now()) == 0  # the back-off is honoured
    assert smtp_server.messages == []

    clock.set(clock.now() + send.backoff(2))
    assert send.drain(app, factory, clock.now()) == len(queued)
    assert send.drain(app, factory, clock.now() + timedelta(hours=2)) == 0
    wire = smtp_server.wait_for(len(queued))
    ids = [m.message["Message-ID"] for m in wire]
    assert sorted(ids) == sorted(queued)  # every message, each exactly once
    for m in wire:
        row = queued[m.message["Message-ID"]]
        assert m.rcpt_tos == (row.to_addr,)
    assert all(r.status == "sent" for r in outbox(factory).values())


class _Refusing:
    """Refuses some recipients at RCPT, like a real MX: 550 for good, 450 for now."""

    def __init__(self, permanent: set[str], temporary: set[str]) -> None:
        self.permanent, self.temporary = permanent, temporary
        self.received: list[tuple[str, ...]] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.permanent:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        if address in self.temporary:
            return "450 4.2.0 <%s>: Recipient address rejected: greylisted" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.received.append(tuple(envelope.rcpt_tos))
        return "250 OK"


def test_refused_recipients_permanent_marks_failing_temporary_waits(make_app, clock):
    handler = _Refusing({"carla@players.test"}, {"dario@players.test"})
    with serving(handler) as controller:
        app = make_app(MAIL_PORT=controller.port)
        factory = app.extensions["pbm_sessions"]
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
        total = len(outbox(factory))
        sent = send.drain(app, factory, clock.now())

    rows = list(outbox(factory).values())
    by_status = {}
    for r in rows:
        by_status.setdefault((r.to_addr, r.status), []).append(r)
    assert sent == len(handler.received) == total - 4
    assert {r.status for r in rows if r.to_addr == "carla@players.test"} == {"failed"}
    assert {r.status for r in rows if r.to_addr == "dario@players.test"} == {"pending"}
    assert all(r.status == "sent" for r in rows if r.to_addr not in ("carla@players.test", "dario@players.test"))
    for r in rows:
        if r.to_addr == "dario@players.test":
            assert r.next_attempt_at > clock.now() and r.last_error.startswith("450")
        if r.to_addr == "carla@players.test":
            assert r.last_error.startswith("550")
    with factory() as s:
        failing = {u.email: u.address_failing for u in s.query(User)}
    assert failing["carla@players.test"] is True
    assert failing["dario@players.test"] is False  # a greylisting is not a dead address
    assert not any(v for k, v in failing.items() if k != "carla@players.test")


def test_a_message_that_cannot_be_written_does_not_hold_up_the_rest(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        # Registered through some path that accepted a non-ASCII local part.
        s.add(User(email="dàrio@players.test", name="Dario"))
        s.flush()
        bad = outbound.queue(s, app.config, to="dàrio@players.test", template="receipt", lang="it",
                           now=clock.now(), context={"original_subject": "x", "phase_label": None,
                                                     "deadline": None, "applied": [], "errors": [],
                                                     "ignored": []})
        s.flush()
        bad_id = bad.id
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    total = len(outbox(factory))
    assert send.drain(app, factory, clock.now()) == total - 1
    assert len(smtp_server.wait_for(total - 1)) == total - 1
    with factory() as s:
        row = s.get(OutboxRow, bad_id)
        assert row.status == "failed" and "cannot be sent" in row.last_error
        assert s.query(User).filter_by(email="dàrio@players.test").one().address_failing
