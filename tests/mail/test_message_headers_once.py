"""A message's From and Subject are written once, by the service's own writers
(``wire.from_header``, ``wire.subject_header``): Flask-Mail, which would encode them
first, is handed stand-ins (issue 33: a good part of a message's making). The stand-ins
never reach the wire, and what does is what the writers make of the row's values."""
from __future__ import annotations

import email
import email.policy

import pytest
from flask import Flask
from flask_mail import Mail

from pbm.mail.outbound import wire
from pbm.models import OutboxRow

CASES = [
    ("Lupus – Città dell'Orso <lupus+abc@lupus.test>", "[Città dell'Orso] Giorno 1: il rogo di Zoë"),
    ('"Mara, la Master" <m@lupus.test>', "A subject in plain ASCII"),
    ("plain@lupus.test", ""),
    ("Lupus <l@lupus.test>", "è" * 120),
]


@pytest.mark.parametrize("sender, subject", CASES)
def test_the_wire_has_the_rows_from_and_subject_and_no_stand_in(sender: str, subject: str) -> None:
    app = Flask(__name__)
    Mail(app)
    row = OutboxRow(to_addr="anna@players.test", from_addr=sender, reply_to=None, subject=subject,
                    body="Testo\n", body_html="<p>Testo</p>", headers={}, message_id="<1@lupus.test>")
    with app.app_context():
        written = wire.to_message(row).as_bytes()
    assert b"sender@invalid" not in written and b"Subject: -\r\n" not in written
    read = email.message_from_bytes(written, policy=email.policy.default)
    assert str(read["From"]) == str(email.policy.default.header_factory("From", sender))
    if subject:
        assert str(read["Subject"]) == subject
        assert f"Subject: {wire.subject_header(subject)}".encode()[:60] in written.replace(b"\r\n ", b" ")
    else:
        assert read["Subject"] is None
