"""Issue 23, item 2: the DMARC check bypassed with a display name.

``From: anna@example.com <mallory@attacker.test>``, under a topmost
Authentication-Results saying ``dmarc=pass header.from=attacker.test``: the receiving
server checked the bracketed address, and the service read the first one, acting for
the player. Each message here is written byte for byte as the attacker's script
sends it, into the Maildir the worker reads, and goes through the worker's mail round.
"""
from __future__ import annotations

from email.utils import make_msgid

import pytest

from pbm.db import transaction
from pbm.models import InboundRow, MasterLog, User

from tests.support.mail import (  # noqa: F401  (game is a fixture)
    deliver, fast_passwords, game, latest_sent, message, receipts, run_mail, seat, votes,
)

PASS_FOR_ATTACKER = "mx.lupus.localhost; spf=pass smtp.mailfrom=attacker.test; dmarc=pass header.from=attacker.test"
MALLORY = "mallory@attacker.test"


def forged(from_field: str, to: str, body: str, in_reply_to: str | None = None) -> bytes:
    lines = [f"Authentication-Results: {PASS_FOR_ATTACKER}", f"From: {from_field}", f"To: {to}",
             "Subject: Re: partita", f"Message-ID: {make_msgid(domain='attacker.test')}"]
    if in_reply_to:
        lines.append(f"In-Reply-To: {in_reply_to}")
    lines += ["Content-Type: text/plain; charset=utf-8", "", body, ""]
    return "\r\n".join(lines).encode()


def stored(factory):
    with factory() as s:
        return [(r.status, r.raw, r.from_addr) for r in s.query(InboundRow).order_by(InboundRow.id)]


@pytest.mark.parametrize("from_field", [
    "{victim} <mallory@attacker.test>",
    "Dario [mailto:{victim}] <mallory@attacker.test>",
    "\"{victim}\" <mallory@attacker.test>",
    "=?utf-8?q?{encoded}?= <mallory@attacker.test>",
    "Dario ({victim}) <mallory@attacker.test>",
], ids=["bare", "outlook-mailto", "quoted", "encoded-word", "comment"])
def test_a_display_name_showing_the_players_address_does_not_act_for_them(app, factory, game, from_field):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    raw = forged(from_field.format(victim=dario, encoded=dario.replace("@", "=40")), sent.reply_to,
                 "VOTO Anna", in_reply_to=sent.message_id)
    deliver(app, raw)
    run_mail(app, worker)

    assert votes(factory) == []
    # Nothing lost: the message is kept as it came, refused, under the address it came from.
    ((status, kept, sender),) = stored(factory)
    assert (status, kept, sender) == ("refused", raw, MALLORY)
    # The player is told, in Italian, at the registered address; the attacker gets nothing.
    assert receipts(factory, MALLORY) == []
    (body,) = receipts(factory, dario)
    # Issue 29: the stranger's address is not quoted in our mail (it is in the Masters' log).
    assert "mostra nel nome un indirizzo diverso" in body and MALLORY not in body
    assert "non è stato applicato" in body
    with factory() as s:
        (entry,) = s.query(MasterLog).filter_by(action="refused_spoof").all()
    assert entry.details["player"] == "Dario" and entry.details["sender"] == MALLORY


def test_the_refusal_is_in_the_players_language(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    with transaction(factory) as s:
        s.query(User).filter_by(email=dario).one().lang = "en"
    sent = latest_sent(factory, dario)
    deliver(app, forged(f"{dario} <{MALLORY}>", sent.reply_to, "VOTO Anna", in_reply_to=sent.message_id))
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, dario)
    assert "sender's name shows an address other than" in body and "it was not applied" in body


def test_a_masters_address_in_the_display_name_does_not_act_for_the_master(app, factory, game):
    """The Masters' own reply address with their address shown only in the name."""
    _, worker = game
    master = "master@example.org"
    masters_reply = latest_sent(factory, master, kind="master_report") or latest_sent(factory, master,
                                                                                    kind="master_game_report")
    to = masters_reply.reply_to if masters_reply is not None else None
    assert to and "+" in to
    deliver(app, forged(f"{master} <{MALLORY}>", to, "PER: Dario\nVOTO Anna"))
    run_mail(app, worker)
    assert votes(factory) == []
    assert receipts(factory, MALLORY) == []
    (body,) = receipts(factory, master)
    assert "mostra nel nome un indirizzo diverso" in body and MALLORY not in body


def test_a_from_naming_two_senders_acts_for_nobody(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    deliver(app, forged(f"{MALLORY}, {dario}", sent.reply_to, "VOTO Anna", in_reply_to=sent.message_id))
    deliver(app, forged(f"Dario <{dario}>", sent.reply_to, "VOTO Bruno", in_reply_to=sent.message_id)
            .replace(b"From: ", b"From: " + MALLORY.encode() + b"\r\nFrom: ", 1))
    run_mail(app, worker)
    assert votes(factory) == []
    assert [s for s, _, _ in stored(factory)] == ["refused", "refused"]
    assert receipts(factory, MALLORY) == []
    assert all("più di un mittente" in body for body in receipts(factory, dario))


@pytest.mark.parametrize("from_field", [
    "{victim}", "Dario <{victim}>", "\"{victim}\" <{victim}>", "{victim} <{victim}>",
    "\"Rossi, Dario\" <{victim}>", "=?utf-8?q?Dar=C3=ACo?= <{victim}>", "Dario <{upper}>",
])
def test_the_players_own_mail_still_counts_whatever_their_program_writes(app, factory, game, from_field):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    deliver(app, message(from_field.format(victim=dario, upper=dario.upper()), sent.reply_to, "VOTO Anna",
                         reply_to_row=sent))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]
