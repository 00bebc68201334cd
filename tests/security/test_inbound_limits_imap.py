"""A message over INBOUND_MAX_BYTES on a real IMAP server (Dovecot): its body
never crosses the wire, its sender is refused once, in their language, and
the mail around it is played. The bytes are counted by a relay between the
service and Dovecot, whatever the IMAP library does inside."""
from __future__ import annotations

import pytest

from pbm.models import InboundRow, OutboxRow
from tests.fixtures.metered_relay import MeteredRelay

from tests.security.test_inbound_limits import CAP, reply
from tests.support.mail import fast_passwords, game, run_mail, seat, votes  # noqa: F401 (fixtures)

BIG = 3_000_000  # ten times the cap


@pytest.fixture
def relay(imap_account):
    with MeteredRelay(imap_account.host, imap_account.port) as relay:
        yield relay


@pytest.fixture
def app(make_app, imap_account, relay):
    return make_app(INBOUND_MAX_BYTES=CAP, MAIL_SOURCE=imap_account.source_config(
        host=relay.host, port=relay.port, reconnect_timeout=15, backoff_initial=0.05, timeout=10))


def refusals(factory, address):
    with factory() as s:
        return [r.body for r in s.query(OutboxRow).filter_by(to_addr=address, kind="receipt_error")]


def test_a_big_message_is_never_downloaded_and_refused_once(app, factory, game, imap_account, relay):
    _gid, worker = game
    big = reply(factory, "Dario", attachment=b"\xff" * BIG)
    small = reply(factory, "Carla", "VOTO Bruno")
    uid = imap_account.deliver(big)
    imap_account.deliver(small)
    imap_account.deliver(big)  # the same message again (same Message-ID)

    assert run_mail(app, worker) == 2  # Dario's and Carla's; the copy is a duplicate

    assert relay.received < len(small) + 100_000  # the small one, headers, IMAP chatter
    assert votes(factory) == [("Carla", "Bruno", "mail")]
    dario, _ = seat(factory, "Dario")
    (refusal,) = refusals(factory, dario)
    assert "troppo grande" in refusal and "non è stato letto" in refusal
    with factory() as s:
        rows = s.query(InboundRow).order_by(InboundRow.id).all()
        assert [r.status for r in rows] == ["refused", "processed", "duplicate"]
        head = big[:big.index(b"\n\n") + 2]
        assert rows[0].raw == head.replace(b"\n", b"\r\n")  # IMAP speaks CRLF
        assert rows[0].size > BIG and rows[0].from_addr == dario
        assert "too large" in rows[0].result["errors"][0]

    # Marked processed, not deleted: the Masters can still read it in the mailbox.
    client = imap_account.client()
    try:
        flags = client.get_flags([uid])[uid]
        assert b"$LupusDone" in flags
        kept = client.fetch([uid], ["BODY.PEEK[]"])[uid][b"BODY[]"]
    finally:
        client.logout()
    assert kept.replace(b"\r\n", b"\n") == big

    before = relay.received
    assert run_mail(app, worker) == 0  # nothing comes back, nothing is answered again
    assert len(refusals(factory, dario)) == 1
    assert relay.received - before < 5_000


def test_raising_the_cap_later_still_refuses_a_message_read_as_headers_only(app, factory, game,
                                                                            imap_account, monkeypatch):
    """A row stored as headers only (the cap was lower when it was read) is
    never handed to the parser, even if the service restarts with a higher cap
    before applying it."""
    from pbm import inbox
    from pbm.inbox import store

    _gid, worker = game
    imap_account.deliver(reply(factory, "Dario", attachment=b"\xff" * (2 * CAP)))
    monkeypatch.setattr(store, "apply_many", _dies)
    with pytest.raises(Died):
        run_mail(app, worker)
    monkeypatch.undo()
    app.config["INBOUND_MAX_BYTES"] = 10 * CAP
    assert inbox.process_stored(factory, app.config, worker.clock.now()) == 1
    assert votes(factory) == []
    with factory() as s:
        (row,) = s.query(InboundRow).all()
        assert row.status == "refused" and row.size > 2 * CAP > len(row.raw)


class Died(Exception):
    pass


def _dies(*args, **kwargs):
    raise Died("the process dies after storing")


class _SizeOmitted:
    """Dovecot always reports RFC822.SIZE; a server that leaves it out is Dovecot's
    own answers with that item removed (the only part of this test that is not real)."""

    def __init__(self, real):
        self.real = real

    def __call__(self, *args, **kwargs):
        client = self.real(*args, **kwargs)
        fetch = client.fetch

        def fetch_without_sizes(messages, data, *rest, **options):
            answers = fetch(messages, data, *rest, **options)
            for answer in answers.values():
                answer.pop(b"RFC822.SIZE", None)
            return answers

        client.fetch = fetch_without_sizes
        return client


def test_a_server_that_leaves_the_size_out_still_never_sends_more_than_the_cap(app, factory, game, imap_account,
                                                                              relay, monkeypatch):
    from pbm.mail.sources import imap

    monkeypatch.setattr(imap, "IMAPClient", _SizeOmitted(imap.IMAPClient))
    _gid, worker = game
    big = reply(factory, "Dario", attachment=b"\xff" * BIG)
    small = reply(factory, "Carla", "VOTO Bruno")
    imap_account.deliver(big)
    imap_account.deliver(small)

    assert run_mail(app, worker) == 2
    # The big one crossed the wire only up to the cap: it was asked for in part.
    assert relay.received < len(small) + CAP + 100_000
    assert votes(factory) == [("Carla", "Bruno", "mail")]
    dario, _ = seat(factory, "Dario")
    (refusal,) = refusals(factory, dario)
    assert "troppo grande" in refusal
    with factory() as s:
        rows = s.query(InboundRow).order_by(InboundRow.id).all()
        assert [r.status for r in rows] == ["refused", "processed"]
        assert rows[0].size > CAP and len(rows[0].raw) < 64 * 1024
