"""A Master forwards a player's mail (Gmail, Outlook, Thunderbird, Apple Mail)
or pastes an SMS under 'PER: Nome': through real Dovecot and the inbox, the
command is recorded as the Master's on the player's behalf, with its source,
the player gets a copy, the Master a receipt; a vote quoted in the player's
own mail never counts."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbm import inbox
from pbm.mail.sources import open_source
from pbm.models import ActionRow, MasterLog, OutboxRow

from tests.support.mail import (  # noqa: F401  (fast_passwords and game are fixtures)
    fast_passwords, game, latest_sent, receipts, seat,
)

MASTER_USER = "master@example.org"  # a Master of the game (tests/support/helpers.py)

PLAYER_TEXT = ("VOTO Anna\n\nIl giorno lun 23 nov 2026 alle ore 21:00 Lupus <lupus@lupus.localhost> "
               "ha scritto:\n> Ora: giorno di martedì.\n> VOTO Carla\n")

FORMATS = {
    "gmail": ("Ti giro la mail di Dario, il suo telefono non la spediva.\n\n"
              "---------- Messaggio inoltrato ---------\n"
              "Da: Dario Bianchi <{addr}>\n"
              "Date: mar 24 nov 2026 alle ore 10:12\n"
              "Subject: {subject}\n"
              "To: <{reply_to}>\n\n\n{text}"),
    "outlook": ("Inoltro.\n\n________________________________\n"
                "Da: Dario Bianchi <{addr}>\n"
                "Inviato: martedì 24 novembre 2026 10:12\n"
                "A: {reply_to}\n"
                "Oggetto: {subject}\n\n{text}"),
    "thunderbird": ("\n\n-------- Forwarded Message --------\n"
                    "Subject: \t{subject}\n"
                    "Date: \tTue, 24 Nov 2026 10:12:00 +0100\n"
                    "From: \tDario Bianchi <{addr}>\n"
                    "To: \t{reply_to}\n\n{text}"),
    "apple": ("Begin forwarded message:\n\n"
              "From: Dario Bianchi <{addr}>\n"
              "Subject: {subject}\n"
              "Date: 24 November 2026 at 10:12:00 CET\n"
              "To: {reply_to}\n\n{text}"),
}


@pytest.fixture
def app(make_app, imap_account):
    return make_app(MAIL_SOURCE=imap_account.source_config(timeout=10))


def master_reply_address(factory):
    """The Master's own address for the game, as the mail they received gives it."""
    return latest_sent(factory, MASTER_USER, kind="master_report").reply_to


def from_master(factory, subject, body, to=None):
    msg = EmailMessage()
    msg["From"] = f"Master Mara <{MASTER_USER}>"
    msg["To"] = to or master_reply_address(factory)
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(body)
    return bytes(msg)


def ingest(app, factory, clock):
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        return inbox.ingest(factory, app.config, source, clock.now())
    finally:
        source.close()


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_forwarded_mail_counts_for_the_player_by_the_master(app, factory, game, clock, imap_account, fmt):
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    subject = "Re: " + bulletin.subject
    body = FORMATS[fmt].format(addr=dario, subject=subject, reply_to=bulletin.reply_to, text=PLAYER_TEXT)
    imap_account.deliver(from_master(factory, "Fwd: " + subject, body))
    assert ingest(app, factory, clock) == 1

    with factory() as s:
        (row,) = s.query(ActionRow).all()
        assert (row.seat.name, row.kind, row.args) == ("Dario", "vote", {"vote": "Anna"})
        assert (row.source, row.source_detail, row.by_user.email) == ("master", "forward", MASTER_USER)
        assert row.inbound_id is not None
        copy = s.query(OutboxRow).filter_by(to_addr=dario, kind="on_behalf_copy").one()
    assert "Voto: Anna" in copy.body and "Master Mara" in copy.body
    assert receipts(factory, dario) == []  # the player gets the copy, not a receipt
    (receipt,) = receipts(factory, MASTER_USER)
    assert "Voto: Anna" in receipt and "Voto: Carla" not in receipt


def test_forward_of_a_player_writing_from_another_address(app, factory, game, clock, imap_account):
    """The sister's phone: the forwarded From names the player, not their address."""
    dario, _ = seat(factory, "Dario")
    subject = "Re: " + latest_sent(factory, dario).subject
    body = FORMATS["gmail"].format(addr="sorella.di.dario@example.net", subject=subject,
                                   reply_to="lupus@lupus.localhost", text=PLAYER_TEXT)
    imap_account.deliver(from_master(factory, "Fwd: " + subject, body))
    ingest(app, factory, clock)
    with factory() as s:
        assert [(a.seat.name, a.args, a.by_user.email) for a in s.query(ActionRow)] == [
            ("Dario", {"vote": "Anna"}, MASTER_USER)]


def test_sms_pasted_under_for_name(app, factory, game, clock, imap_account):
    imap_account.deliver(from_master(factory, "sms", "Carla mi ha mandato un SMS alle 20:58:\n\nFOR: carla\nvote bruno\n"))
    ingest(app, factory, clock)
    with factory() as s:
        (row,) = s.query(ActionRow).all()
        assert (row.seat.name, row.args, row.source, row.source_detail) == (
            "Carla", {"vote": "Bruno"}, "master", "sms")


def test_someone_not_a_master_cannot_forward_for_a_player(app, factory, game, clock, imap_account):
    carla, _ = seat(factory, "Carla")
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    msg = EmailMessage()
    msg["From"] = carla
    msg["To"] = bulletin.reply_to  # even with Dario's token
    msg["Subject"] = "Fwd: " + bulletin.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(FORMATS["gmail"].format(addr=dario, subject=bulletin.subject,
                                            reply_to=bulletin.reply_to, text="VOTO Anna\n"))
    imap_account.deliver(bytes(msg))
    ingest(app, factory, clock)
    with factory() as s:
        assert s.query(ActionRow).count() == 0
    assert receipts(factory, carla) == []
    # Dario is told; the address it came from is not quoted (issue 29), the log names it.
    (told,) = receipts(factory, dario)
    assert carla not in told and "non è il tuo" in told
    with factory() as s:
        assert s.query(MasterLog).filter_by(action="refused_spoof").one().details["sender"] == carla


@pytest.mark.parametrize("signature", ["Inviato da iPhone", "-- \nMara"])
def test_forward_from_a_phone_with_a_signature_above(app, factory, game, clock, imap_account, signature):
    dario, _ = seat(factory, "Dario")
    subject = "Re: " + latest_sent(factory, dario).subject
    body = signature + "\n\n" + FORMATS["apple"].format(addr=dario, subject=subject,
                                                        reply_to="lupus@lupus.localhost", text=PLAYER_TEXT)
    imap_account.deliver(from_master(factory, "Fwd: " + subject, body))
    ingest(app, factory, clock)
    with factory() as s:
        assert [(a.seat.name, a.args) for a in s.query(ActionRow)] == [("Dario", {"vote": "Anna"})]


def test_an_sms_entry_names_the_player_and_says_how_it_came_in_words(app, factory, game, clock, imap_account):
    """Issue 31: the Master's receipt did not name the player, the player's copy said
    "(fonte: sms)", and a receipt said "do not reply" above a Reply-To that takes commands."""
    imap_account.deliver(from_master(factory, "sms", "FOR: carla\nvote bruno\n"))
    ingest(app, factory, clock)
    with factory() as s:
        receipt = s.query(OutboxRow).filter(OutboxRow.kind.in_(["receipt", "receipt_error"])).one()
        copy = s.query(OutboxRow).filter_by(kind="on_behalf_copy").one()
    assert "Comandi per: Carla" in receipt.body
    assert "fonte" not in copy.body and "sms)" not in copy.body and "arrivato via SMS" in copy.body
    # The receipt's Reply-To takes the Master's commands: it invites them, never forbids a reply.
    assert receipt.reply_to and "non rispondere" not in receipt.body.lower()
