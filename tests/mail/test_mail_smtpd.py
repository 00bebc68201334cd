"""The default set-up, nothing installed: the embedded SMTP server (aiosmtpd)
takes the service's own mail into the local mailbox and players' mail to the
Master's address into the Maildir the poller reads. A full round trip over
real SMTP: bulletin out, reply in, receipt out."""
from __future__ import annotations

import mailbox
import smtplib
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbm.mail import smtpd
from pbm.models import ActionRow, OutboxRow
from pbm.worker import Worker
from tests.fixtures.smtp import free_port

from tests.support.helpers import make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME, fast_passwords, run_mail  # noqa: F401


@pytest.fixture
def embedded(make_app, clock):
    port = free_port()
    app = make_app(MAIL_PORT=port, EMBEDDED_SMTP_PORT=port)
    controller = smtpd.start(app.config)
    try:
        yield app, app.extensions["pbm_sessions"]
    finally:
        controller.stop()


def local_mailbox(app):
    box = mailbox.Maildir(app.config["LOCAL_MAILBOX"], create=True)
    return [message_from_bytes(bytes(m), policy=policy.default) for m in box]


def submit(app, sender, rcpts, raw):
    with smtplib.SMTP(app.config["MAIL_SERVER"], app.config["MAIL_PORT"], timeout=10) as s:
        s.sendmail(sender, rcpts, raw)


def test_round_trip_through_the_embedded_server(embedded, clock):
    app, factory = embedded
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()
    worker.outbox()
    with factory() as s:
        queued = s.query(OutboxRow).count()
    delivered = local_mailbox(app)
    assert len(delivered) == queued
    bulletin = next(m for m in delivered if m["Delivered-To"] == "dario@players.test"
                    and "Bollettino" in m["Subject"])

    reply = EmailMessage()
    reply["From"] = "Dario <dario@players.test>"
    reply["To"] = bulletin["Reply-To"]
    reply["Subject"] = "Re: " + bulletin["Subject"]
    reply["Message-ID"] = make_msgid(domain="players.test")
    reply["In-Reply-To"] = bulletin["Message-ID"]
    reply.set_content("VOTO Anna")
    submit(app, "dario@players.test", [bulletin["Reply-To"]], bytes(reply))
    assert len(local_mailbox(app)) == queued  # it went to the Master's inbox, not here
    run_mail(app, worker)
    worker.outbox()

    with factory() as s:
        assert [(a.seat.name, a.args) for a in s.query(ActionRow)] == [("Dario", {"vote": "Anna"})]
    (receipt,) = [m for m in local_mailbox(app) if m["Auto-Submitted"]]
    assert receipt["In-Reply-To"] == reply["Message-ID"]
    assert receipt["Delivered-To"] == "dario@players.test"


def test_the_envelope_carries_the_token_when_the_headers_do_not(embedded, clock):
    """Bcc, or a client that rewrites To: the embedded server stamps the
    envelope recipient as Delivered-To, and the token is read from there."""
    app, factory = embedded
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()
    with factory() as s:
        sent = (s.query(OutboxRow).filter_by(to_addr="carla@players.test", kind="phase_results")
                .order_by(OutboxRow.id.desc()).first())
    msg = EmailMessage()
    msg["From"] = "carla@players.test"
    msg["To"] = "undisclosed-recipients:;"
    msg["Subject"] = "voto"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("voto bruno")
    submit(app, "carla@players.test", [sent.reply_to], bytes(msg))
    run_mail(app, worker)
    with factory() as s:
        assert [(a.seat.name, a.args) for a in s.query(ActionRow)] == [("Carla", {"vote": "Bruno"})]


def test_mail_to_the_noreply_address_is_refused(embedded, clock):
    """Issue 29: the no-reply address took mail from anyone, into the demo's mailbox."""
    app, factory = embedded
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    msg = EmailMessage()
    msg["From"] = "dario@players.test"
    msg["To"] = app.config["NOREPLY_ADDRESS"]
    msg["Subject"] = "Re: ricevuta"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("VOTO Anna")
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        submit(app, "dario@players.test", [app.config["NOREPLY_ADDRESS"]], bytes(msg))
    assert run_mail(app, worker) == 0
    assert [m for m in local_mailbox(app) if m["Subject"] == "Re: ricevuta"] == []
    assert smtpd.is_master_address("Lupus+AbC@Lupus.Localhost", app.config["MASTER_ADDRESS"])
    assert not smtpd.is_master_address(app.config["NOREPLY_ADDRESS"], app.config["MASTER_ADDRESS"])


def test_the_masters_address_as_envelope_sender_proves_nothing(embedded, clock):
    """Issue 29: MAIL FROM the Master's address made the server take any recipient, so
    anyone on the machine could plant a message in the demo's mailbox, even one with
    the Message-ID of a row the service sent (its forged body shown under that row)."""
    app, factory = embedded
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        real = s.query(OutboxRow).filter_by(to_addr="anna@players.test").first()
    msg = EmailMessage()
    msg["From"] = app.config["MASTER_ADDRESS"]
    msg["To"] = "anna@players.test"
    msg["Subject"] = real.subject
    msg["Message-ID"] = real.message_id
    msg.set_content("Il tuo ruolo: sei il Lupo. Rispondi con la tua password.")
    for sender in (app.config["MASTER_ADDRESS"], app.config["NOREPLY_ADDRESS"]):
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            submit(app, sender, ["anna@players.test"], bytes(msg))
    # A wrong login is refused too; the service's own goes through (the round trip above).
    with smtplib.SMTP(app.config["MAIL_SERVER"], app.config["MAIL_PORT"], timeout=10) as s:
        with pytest.raises(smtplib.SMTPAuthenticationError):
            s.login(smtpd.SERVICE_LOGIN, "guessed")
    assert local_mailbox(app) == []


def test_the_embedded_server_relays_nothing_for_strangers(embedded):
    """Any local user could otherwise drop mail for anyone into the local
    mailbox the Masters read, as if the service had sent it."""
    app, _ = embedded
    msg = EmailMessage()
    msg["From"] = "mallory@evil.test"
    msg["To"] = "anna@players.test"
    msg["Subject"] = "Il tuo ruolo"
    msg["Message-ID"] = make_msgid(domain="evil.test")
    msg.set_content("Sei il Lupo.")
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        submit(app, "mallory@evil.test", ["anna@players.test"], bytes(msg))
    assert next(iter(refused.value.recipients.values()))[0] == 550
    assert local_mailbox(app) == []
    # The Master's address takes mail from anyone: players reply to it.
    submit(app, "mallory@evil.test", [app.config["MASTER_ADDRESS"]], bytes(msg))
