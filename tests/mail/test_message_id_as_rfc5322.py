"""Issue 29, finding 10: duplicates were found by the exact Message-ID, so a copy
whose domain a relay wrote in capitals (``<a1@Players.TEST>``) was applied a second
time. RFC 5322 compares the part before the @ as written and the domain without
case: the same message in either spelling counts once, two messages whose ids differ
before the @ only by case are two.
"""
from __future__ import annotations

from pbm.db import transaction
from pbm.inbox.store import message_id_key
from pbm.models import InboundRow

from tests.support.mail import (  # noqa: F401  (game, fast_passwords: fixtures)
    deliver, fast_passwords, game, latest_sent, message, run_mail, seat, votes,
)


def test_the_key_keeps_the_local_part_and_folds_the_domain():
    assert message_id_key("<A1.b@Players.TEST>") == "<A1.b@players.test>"
    assert message_id_key("  <A1.b@players.test>  ") == message_id_key("<A1.b@PLAYERS.test>")
    assert message_id_key("<A1.b@players.test>") != message_id_key("<a1.B@players.test>")


def test_a_copy_with_the_domain_in_capitals_counts_once(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    first = message(email, sent.reply_to, "VOTO Anna", reply_to_row=sent, headers={})
    deliver(app, first)
    run_mail(app, worker)
    # The same message again, its Message-ID's domain in capitals, as one relay wrote it.
    mid = [line for line in first.split(b"\n") if line.lower().startswith(b"message-id:")][0]
    local, domain = mid.split(b"@", 1)
    deliver(app, first.replace(mid, local + b"@" + domain.upper().replace(b">", b">")).replace(
        b"VOTO Anna", b"VOTO Carla"))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]
    with factory() as s:
        assert sorted(r.status for r in s.query(InboundRow)) == ["duplicate", "processed"]


def test_ids_that_differ_before_the_at_are_two_messages(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    for _n, (mid, vote) in enumerate([("<Vote1@players.test>", "Anna"), ("<vote1@players.test>", "Carla")]):
        raw = message(email, sent.reply_to, f"VOTO {vote}", reply_to_row=sent)
        old = [line for line in raw.split(b"\n") if line.lower().startswith(b"message-id:")][0]
        deliver(app, raw.replace(old, b"Message-ID: " + mid.encode() + (b"\r" if old.endswith(b"\r") else b"")))
        run_mail(app, worker)
    assert [v for _, v, _ in votes(factory)] == ["Anna", "Carla"]


def test_a_row_stored_before_keeps_counting(app, factory, game):
    """A message stored (with its id as written) before this change is still found."""
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    raw = message(email, sent.reply_to, "VOTO Anna", reply_to_row=sent)
    old = [line for line in raw.split(b"\n") if line.lower().startswith(b"message-id:")][0]
    raw = raw.replace(old, b"Message-ID: <old1@Players.TEST>" + (b"\r" if old.endswith(b"\r") else b""))
    with transaction(factory) as s:
        s.add(InboundRow(source_key="old-key", message_id="<old1@Players.TEST>", raw=raw, size=len(raw),
                         received_at=sent.created_at, status="processed"))
    deliver(app, raw)
    run_mail(app, worker)
    assert votes(factory) == []
