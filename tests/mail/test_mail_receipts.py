"""Receipts, end to end over a real SMTP server: a player answers the bulletin
as it arrived on the wire, and the receipt that comes back is threaded under
their message, comes from the no-reply address, says what was recorded, what
was not and why, which lines were ignored, and the deadline."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid, parseaddr

import pytest

from pbm.mail.outbound import send
from pbm.models import ActionRow, InboundRow
from pbm.worker import Worker

from tests.support.helpers import make_game
from tests.support.mail import (  # noqa: F401  (fast_passwords is a fixture)
    ROLES, TUESDAY_0930_ROME, deliver, fast_passwords, run_mail,
)

MASTER = "lupus@lupus.test"
NOREPLY = "noreply@lupus.test"


@pytest.fixture
def wired(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port, MASTER_ADDRESS=MASTER, NOREPLY_ADDRESS=NOREPLY)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", langs={"Elena": "en"})
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1: the bulletin invites the day's votes
    worker.outbox()
    return app, factory, worker


def on_the_wire(smtp_server, to, subject_part):
    found = [m for m in smtp_server.messages if m.rcpt_tos == (to,) and subject_part in m.subject]
    assert found, [(m.rcpt_tos, m.subject) for m in smtp_server.messages]
    return found[-1].message


def reply_to(received, sender_addr, body, *, to=None, subject=None):
    """What a mail client writes when the player presses Reply."""
    msg = EmailMessage()
    msg["From"] = sender_addr
    msg["To"] = to or received["Reply-To"] or received["From"]
    msg["Subject"] = subject or "Re: " + received["Subject"]
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = received["Message-ID"]
    msg["References"] = " ".join(filter(None, [received.get("References"), received["Message-ID"]]))
    msg.set_content(body)
    return bytes(msg)


def test_receipt_is_threaded_from_noreply_and_says_everything(wired, smtp_server):
    app, factory, worker = wired
    bulletin = on_the_wire(smtp_server, "dario@players.test", "Bollettino")
    raw = reply_to(bulletin, "Dario <dario@players.test>",
                   "VOTO Anna\nPOTERE Bruno\nVICE Zorro\nCi vediamo stasera in piazza\n")
    deliver(app, raw)
    run_mail(app, worker)
    smtp_server.clear()
    assert worker.outbox() == 1

    (wire,) = smtp_server.messages
    receipt = wire.message
    assert wire.rcpt_tos == ("dario@players.test",)
    assert parseaddr(receipt["From"])[1] == NOREPLY
    assert receipt["Auto-Submitted"] == "auto-replied"
    # Threaded under the player's message, which was itself under the bulletin.
    player_id = raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].decode().strip()
    assert receipt["In-Reply-To"] == player_id
    assert receipt["References"].split() == [bulletin["Message-ID"], player_id]
    assert receipt["Message-ID"] not in (player_id, bulletin["Message-ID"])

    text = receipt.get_body(("plain",)).get_content()
    recorded, _, rest = text.partition("NON REGISTRATO")
    assert "REGISTRATO\n- Voto: Anna" in recorded
    assert "Test game" in recorded  # names the game
    assert "giorno 1, martedì 24 novembre" in recorded and "24/11/2026 alle 21:00" in recorded
    not_recorded, _, ignored = rest.partition("RIGHE IGNORATE")
    assert "Zorro" in not_recorded and "Bersaglio: Bruno" in not_recorded
    assert "Ci vediamo stasera in piazza" in ignored
    with factory() as s:
        assert [(a.seat.name, a.kind, a.args) for a in s.query(ActionRow)] == [
            ("Dario", "vote", {"vote": "Anna"})]


def test_one_receipt_per_message_and_every_message_id_unique(wired, smtp_server):
    app, factory, worker = wired
    sent_ids = []
    for name, vote in [("Dario", "Anna"), ("Carla", "Bruno"), ("Dario", "Carla")]:
        bulletin = on_the_wire(smtp_server, f"{name.lower()}@players.test", "Bollettino")
        raw = reply_to(bulletin, f"{name.lower()}@players.test", f"voto {vote}")
        sent_ids.append(raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].decode().strip())
        deliver(app, raw)
    run_mail(app, worker)
    worker.outbox()
    receipts = [m.message for m in smtp_server.messages if m.message["Auto-Submitted"]]
    assert sorted(r["In-Reply-To"] for r in receipts) == sorted(sent_ids)
    all_ids = [m.message["Message-ID"] for m in smtp_server.messages]
    assert len(all_ids) == len(set(all_ids)) > len(ROLES)


def test_the_noreply_address_takes_no_commands(wired, smtp_server):
    app, factory, worker = wired
    bulletin = on_the_wire(smtp_server, "dario@players.test", "Bollettino")
    deliver(app, reply_to(bulletin, "dario@players.test", "VOTO Anna"))
    run_mail(app, worker)
    worker.outbox()
    receipt = on_the_wire(smtp_server, "dario@players.test", "Re:")
    assert "[lupus:" in receipt["Subject"]  # the token is still in the subject...
    smtp_server.clear()

    # ...yet a reply to the receipt, and mail written by the no-reply address
    # itself (a loop), change nothing and get no answer.
    deliver(app, reply_to(receipt, "dario@players.test", "VOTO Carla"))
    loop = reply_to(bulletin, f"Lupus <{NOREPLY}>", "VOTO Carla", to=MASTER)
    deliver(app, loop)
    run_mail(app, worker)
    assert worker.outbox() == 0 and smtp_server.messages == []
    with factory() as s:
        assert [a.args for a in s.query(ActionRow)] == [{"vote": "Anna"}]
        assert sorted(r.status for r in s.query(InboundRow)) == ["ignored", "ignored", "processed"]


def test_receipt_in_the_players_language(wired, smtp_server):
    app, factory, worker = wired
    bulletin = on_the_wire(smtp_server, "elena@players.test", "Bulletin")
    deliver(app, reply_to(bulletin, "elena@players.test", "vote anna\nthanks"))
    run_mail(app, worker)
    smtp_server.clear()
    worker.outbox()
    text = smtp_server.messages[0].message.get_body(("plain",)).get_content()
    assert "RECORDED\n- Vote: Anna" in text and "Game: Test game" in text
    assert "IGNORED LINES\n- thanks" in text


def test_backoff_constant_is_what_the_docs_say():
    # docs/mail-channel.md promises 15 s doubling to at most an hour.
    assert [send.backoff(n).total_seconds() for n in (1, 2, 3)] == [15, 30, 60]
    assert send.backoff(50).total_seconds() == 3600


def test_a_message_with_no_command_is_told_so_with_what_that_player_can_write_now(wired, smtp_server):
    app, factory, worker = wired
    bulletin = on_the_wire(smtp_server, "dario@players.test", "Bollettino")
    deliver(app, reply_to(bulletin, "Dario <dario@players.test>", "Ciao a tutti, stasera non ci sono.\n"))
    run_mail(app, worker)
    smtp_server.clear()
    assert worker.outbox() == 1
    (wire,) = smtp_server.messages
    text = wire.message.get_body(("plain",)).get_content()
    assert "Nel messaggio non ho trovato comandi: non ho registrato nulla." in text
    assert "- Ciao a tutti, stasera non ci sono." in text  # the line, among the ignored ones
    # The examples are the day's commands of this game (a vote), not the night's ritual.
    examples = text.split("per esempio:", 1)[1]
    assert "VOTO Carla" in examples
    assert "RITUALE" not in examples and "POTERE" not in examples
