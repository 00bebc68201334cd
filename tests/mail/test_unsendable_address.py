"""Issue 29, finding 1: one unsendable address must not stall the mail behind it.

The attack: an address with letters outside ASCII (``p…@évil.test``) was accepted,
queued by an anonymous sign-up, and sent: smtplib could not write its RCPT once
MAIL FROM was accepted, the message was marked failed but the transaction stayed
open, and every message after it got "503 nested MAIL command" and waited with a
doubling back-off, of every game. Each test here queues such an address among
ordinary ones and sends through a real aiosmtpd relay: everything else leaves in
the same round, and the bad one is refused alone, or (a domain in Unicode, a relay
offering SMTPUTF8) sent as SMTP writes it.
"""
from __future__ import annotations

from sqlalchemy import select

from pbm.db import transaction
from pbm.mail import outbound
from pbm.mail.outbound import send
from pbm.models import OutboxRow, User
from tests.fixtures.smtp import SmtpServer


def queue_to(app, clock, to: list[str]) -> None:
    with transaction(app.extensions["pbm_sessions"]) as s:
        for address in to:
            user = User(email=address, name=address.split("@")[0], lang="en")
            s.add(user)
            s.flush()
            outbound.queue(s, app.config, to=address, template="password_reset", lang="en", now=clock.now(),
                           context={"user": user, "link": "http://lupus.test/x", "hours": 1})


def rows(app) -> dict[str, OutboxRow]:
    with app.extensions["pbm_sessions"]() as s:
        return {r.to_addr: r for r in s.scalars(select(OutboxRow))}


def failing(app) -> set[str]:
    with app.extensions["pbm_sessions"]() as s:
        return set(s.scalars(select(User.email).where(User.address_failing.is_(True))))


GOOD = ["anna@players.test", "bruno@players.test", "carla@players.test"]


def test_a_local_part_outside_ascii_on_a_relay_without_smtputf8(make_app, clock):
    with SmtpServer(smtputf8=False) as relay:
        app = make_app(MAIL_PORT=relay.port)
        queue_to(app, clock, [GOOD[0], "p\u00e9@\u00e9vil.test", *GOOD[1:]])
        sent = send.drain(app, app.extensions["pbm_sessions"], clock.now())
        assert sent == len(GOOD)
        assert sorted(m.rcpt_tos[0] for m in relay.wait_for(len(GOOD))) == GOOD
    after = rows(app)
    bad = after["p\u00e9@\u00e9vil.test"]
    assert bad.status == "failed" and "SMTPUTF8" in bad.last_error
    assert {after[a].status for a in GOOD} == {"sent"}
    assert {after[a].attempts for a in GOOD} == {1}  # no back-off for anyone else
    assert failing(app) == {"p\u00e9@\u00e9vil.test"}


def test_a_domain_in_unicode_is_sent_in_its_idna_form(make_app, clock):
    with SmtpServer(smtputf8=False) as relay:
        app = make_app(MAIL_PORT=relay.port)
        queue_to(app, clock, [GOOD[0], "anna@\u00e9vil.test", *GOOD[1:]])
        assert send.drain(app, app.extensions["pbm_sessions"], clock.now()) == len(GOOD) + 1
        wire = relay.wait_for(len(GOOD) + 1)
    assert sorted(m.rcpt_tos[0] for m in wire) == sorted(GOOD + ["anna@xn--vil-9la.test"])
    idn = next(m for m in wire if m.rcpt_tos[0].startswith("anna@xn--"))
    assert "anna@xn--vil-9la.test" in str(idn.message["To"])
    assert {r.status for r in rows(app).values()} == {"sent"}


def test_a_relay_offering_smtputf8_takes_the_address_as_it_is(make_app, clock):
    with SmtpServer(smtputf8=True) as relay:
        app = make_app(MAIL_PORT=relay.port, MAIL_SMTPUTF8=True)
        queue_to(app, clock, [GOOD[0], "p\u00e9@\u00e9vil.test", *GOOD[1:]])
        assert send.drain(app, app.extensions["pbm_sessions"], clock.now()) == len(GOOD) + 1
        wire = relay.wait_for(len(GOOD) + 1)
    assert "p\u00e9@xn--vil-9la.test" in [m.rcpt_tos[0] for m in wire]
    assert {r.status for r in rows(app).values()} == {"sent"}


def test_a_refused_recipient_mid_batch_is_that_recipients_alone(make_app, clock):
    """553 for one mailbox in the middle of a batch: it fails, the next message
    opens a transaction of its own and every other leaves in the same round."""
    with SmtpServer() as relay:
        relay.refuse("bruno@players.test", "553 5.1.3 Bad recipient address syntax")
        app = make_app(MAIL_PORT=relay.port)
        queue_to(app, clock, GOOD + ["dario@players.test"])
        assert send.drain(app, app.extensions["pbm_sessions"], clock.now()) == 3
        assert sorted(m.rcpt_tos[0] for m in relay.wait_for(3)) == [
            "anna@players.test", "carla@players.test", "dario@players.test"]
    after = rows(app)
    assert after["bruno@players.test"].status == "failed"
    assert after["bruno@players.test"].last_error.startswith("553")
    assert failing(app) == {"bruno@players.test"}


def test_every_refused_command_resets_the_transaction(make_app, clock, monkeypatch):
    """After a refusal the sender says RSET (or opens a new connection) before the
    next message, whatever smtplib did itself."""
    said: list[str] = []
    real = send.smtplib.SMTP.rset

    def rset(host):
        said.append("RSET")
        return real(host)

    monkeypatch.setattr(send.smtplib.SMTP, "rset", rset)
    with SmtpServer(smtputf8=False) as relay:
        app = make_app(MAIL_PORT=relay.port)
        queue_to(app, clock, ["p\u00e9@players.test", GOOD[0]])
        assert send.drain(app, app.extensions["pbm_sessions"], clock.now()) == 1
        relay.wait_for(1)
    assert said == ["RSET"]
