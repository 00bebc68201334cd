"""What a mailbox can throw at the service: a message too large to parse, a
huge HTML body, thousands of unread messages. Through the Maildir source the
worker reads, as in production."""
from __future__ import annotations

import mailbox
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbm import inbox
from pbm.mail.reading import html_budget
from pbm.models import InboundRow, OutboxRow
from pbm.worker import Worker

from tests.support.helpers import make_game
from tests.support.mail import (  # noqa: F401  (fast_passwords is a fixture)
    ROLES, TUESDAY_0930_ROME, deliver, fast_passwords, latest_sent, run_mail, seat, votes,
)

CAP = 300_000


@pytest.fixture
def app(make_app):
    return make_app(INBOUND_MAX_BYTES=CAP)


@pytest.fixture
def worker(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1: a vote is open
    return worker


def reply(factory, name: str, body: str = "VOTO Anna", html: str | None = None,
          attachment: bytes | None = None) -> bytes:
    address, _ = seat(factory, name)
    sent = latest_sent(factory, address)
    msg = EmailMessage()
    msg["From"] = address
    msg["To"] = sent.reply_to
    msg["Subject"] = "Re: " + sent.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = sent.message_id
    msg.set_content(body)
    if html is not None:
        msg.add_alternative(html, subtype="html")
        msg.get_body(("plain",)).set_content("")  # an HTML-only reply, as many phones send
    if attachment is not None:
        msg.add_attachment(attachment, maintype="application", subtype="octet-stream", filename="foto.jpg")
    return bytes(msg)


def test_a_message_over_the_cap_is_kept_answered_once_and_never_parsed(app, factory, worker, monkeypatch):
    parsed_sizes = []
    from pbm.inbox import game_names, router
    real_parse = router.parse_message
    for module in (router, game_names):  # where a message is parsed
        monkeypatch.setattr(module, "parse_message", lambda raw, *a, **k: parsed_sizes.append(len(raw))
                            or real_parse(raw, *a, **k))
    raw = reply(factory, "Dario", attachment=b"\xff" * CAP)
    assert len(raw) > CAP
    deliver(app, raw)
    deliver(app, raw)  # the same message again: answered once
    run_mail(app, worker)
    assert votes(factory) == []
    assert all(size <= CAP for size in parsed_sizes)
    dario, _ = seat(factory, "Dario")
    with factory() as s:
        rows = s.query(InboundRow).order_by(InboundRow.id).all()
        assert [r.status for r in rows] == ["refused", "duplicate"]
        # Only the headers were read and kept; the message stays in the Maildir.
        head = raw[:raw.index(b"\n\n") + 2]
        assert rows[0].raw == head and rows[0].size == len(raw) > CAP
        assert "too large" in rows[0].result["errors"][0]
        (answer,) = s.query(OutboxRow).filter_by(to_addr=dario, kind="receipt_error").all()
    assert "troppo grande" in answer.body and "0.3 MB" in answer.body
    box = mailbox.Maildir(app.config["MAIL_SOURCE"]["path"], create=False)
    kept = [box.get_bytes(key) for key in box.keys()]
    assert kept == [raw, raw]


def test_a_message_under_the_cap_is_played(app, factory, worker):
    deliver(app, reply(factory, "Dario", attachment=b"\xff" * (CAP // 3)))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]


def test_mail_is_fetched_in_batches(app, factory, worker, monkeypatch):
    for _ in range(2 * inbox.FETCH_BATCH + 7):
        deliver(app, reply(factory, "Carla", "VOTO Bruno"))
    from pbm.mail.sources.maildir import MaildirSource
    handed_out = []
    real_fetch = MaildirSource.fetch_new

    def fetch_new(self, limit=None, max_bytes=None):
        mails = real_fetch(self, limit, max_bytes)
        handed_out.append((limit, len(mails)))
        assert max_bytes == CAP  # a message above it would come as its headers only
        return mails
    monkeypatch.setattr(MaildirSource, "fetch_new", fetch_new)
    assert run_mail(app, worker) == 2 * inbox.FETCH_BATCH + 7
    assert all(limit == inbox.FETCH_BATCH and n <= limit for limit, n in handed_out)
    assert [n for _, n in handed_out][:3] == [inbox.FETCH_BATCH, inbox.FETCH_BATCH, 7]


def big_html(vote: str) -> str:
    filler = "<div><p>ciao a tutti <b>dal</b> villaggio <a href='x'>link</a></p></div>" * 2_000  # over INLINE, under CAP
    return f"<html><body><p>VOTO {vote}</p><blockquote>{filler}</blockquote></body></html>"


def test_html_is_converted_outside_the_lock_the_boundary_waits_on(app, factory, worker, monkeypatch):
    held_while_converting = []
    real_within = html_budget._within

    def within(markup, converter, budget):
        held_while_converting.append(worker.mail_lock.locked())
        return real_within(markup, converter, budget)
    monkeypatch.setattr(html_budget, "_within", within)
    deliver(app, reply(factory, "Dario", html=big_html("Anna")))
    run_mail(app, worker)
    assert held_while_converting == [False]  # once, before the lock; the parse under it found the text
    assert votes(factory) == [("Dario", "Anna", "mail")]


def test_html_that_outlasts_its_budget_is_still_read(app, factory, worker, monkeypatch):
    monkeypatch.setattr(html_budget, "BUDGET", 0.001)
    deliver(app, reply(factory, "Elena", html=big_html("Bruno")))
    run_mail(app, worker)
    assert votes(factory) == [("Elena", "Bruno", "mail")]
