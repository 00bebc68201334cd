"""A mail that asks what to do gets the player's role card (issue 31, Major 2), not "I
found no command": "cosa devo fare stanotte?", "aiuto" in the subject, "What do I do?"."""
from __future__ import annotations

import pytest

from engine.registry import get_ruleset
from pbm.mail.reading.help_request import asks_for_help

from tests.support.mail import (  # noqa: F401  (fast_passwords and game are fixtures)
    ROLES, deliver, fast_passwords, game, latest_sent, message, receipts, run_mail, seat, votes,
)


@pytest.mark.parametrize("who, body, subject, lang", [
    ("Carla", "cosa devo fare stanotte?", None, "it"),
    ("Anna", "", "aiuto", "it"),
    ("Carla", "Ciao, non so cosa fare... help", None, "it"),
])
def test_a_mail_asking_what_to_do_gets_the_role_card(app, factory, game, who, body, subject, lang):
    _, worker = game
    email, _token = seat(factory, who)
    sent = latest_sent(factory, email)
    deliver(app, message(email, sent.reply_to, body, reply_to_row=sent,
                         **({"subject": subject} if subject else {})))
    run_mail(app, worker)
    (receipt,) = receipts(factory, email)
    card = get_ruleset("lupus-live-12").role_card(ROLES[who], lang, [])
    assert card.does in receipt and card.when.split(".")[0] in receipt, receipt
    assert "non ho trovato comandi" not in receipt and "NON REGISTRATO" not in receipt
    # What the player can send now, and the phase's deadline.
    assert "VOTO " in receipt and "termina il" in receipt
    assert votes(factory) == []


def test_prose_without_a_request_still_gets_no_command():
    assert not asks_for_help("Ci vediamo stasera in piazza, ciao a tutti")
    assert asks_for_help("What do I do tonight?") and asks_for_help("", "Aiuto!")
    assert not asks_for_help("aiuto " * 200)  # a long letter is prose, not a request
