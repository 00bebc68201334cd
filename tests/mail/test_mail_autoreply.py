"""Nothing answers automatic mail or bounces; bounces (the project's own, in the shapes
of nine mail servers, tests/data/mail/bounces; and, as an extra check, sisimai's and
mailgun-flanker's real ones from ../shared/email-corpus), the failed recipient rewritten
to a player's address, mark the player's address failing; error replies to one address
are capped per day."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbm.models import InboundRow, MasterLog, OutboxRow, User

from tests.support.mail import (  # noqa: F401  (game is a fixture)
    deliver, fast_passwords, game, latest_sent, message, receipts, run_mail, seat, votes,
)

from tests.support.external import EMAIL_CORPUS, extra_check

DATA = Path(__file__).resolve().parents[1] / "data" / "mail"
BOUNCES = DATA / "bounces"
AUTOMATIC = DATA / "automatic"
SISIMAI = EMAIL_CORPUS / "sisimai-set-of-emails/maildir/bsd"
FLANKER = EMAIL_CORPUS / "mailgun-flanker/tests/fixtures/messages/bounce"
REAL = extra_check(EMAIL_CORPUS)
CAP = 3


@pytest.fixture
def app(make_app):
    return make_app(ERROR_REPLIES_PER_DAY=CAP)


def all_outbox_since(factory, first_id):
    with factory() as s:
        return [(r.to_addr, r.kind) for r in s.query(OutboxRow).filter(OutboxRow.id > first_id)]


def last_outbox_id(factory):
    with factory() as s:
        return s.query(OutboxRow.id).order_by(OutboxRow.id.desc()).first()[0]


def failing(factory):
    with factory() as s:
        return sorted(u.email for u in s.query(User).filter_by(address_failing=True))


@pytest.mark.parametrize("headers,subject", [
    ({"Auto-Submitted": "auto-replied"}, "Re: partita"),
    ({"Auto-Submitted": "auto-generated"}, "Re: partita"),
    ({"Precedence": "bulk"}, "Re: partita"),
    ({"Precedence": "junk"}, "Re: partita"),
    ({"Precedence": "list"}, "Re: partita"),
    ({"X-Autoreply": "yes"}, "Re: partita"),
    ({}, "Fuori sede: Re: partita"),
    ({}, "Automatic reply: partita"),
    ({}, "Out of Office: partita"),
])
def test_automatic_mail_gets_no_answer_and_applies_nothing(app, factory, game, headers, subject):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    before = last_outbox_id(factory)
    # An out-of-office message quoting the bulletin, votes and all.
    deliver(app, message(email, sent.reply_to, "Sono fuori sede.\n\nVOTO Anna\n",
                         reply_to_row=sent, subject=subject, headers=headers))
    run_mail(app, worker)
    assert votes(factory) == []
    assert all_outbox_since(factory, before) == []
    with factory() as s:
        assert [r.status for r in s.query(InboundRow)] == ["ignored"]


_MESSAGE_ID = re.compile(rb"^(Message-I[dD]:[ \t]*)(<[^>]+>)", re.MULTILINE | re.IGNORECASE)


def corpus_bounce(path: Path, failed: str, player: str, ours: str | None = None) -> bytes:
    """A real bounce naming ``player``, made (given ``ours``) to return our mail
    with that Message-ID, as a bounce of a mail we sent does."""
    raw = path.read_bytes()
    assert failed.encode() in raw
    raw = raw.replace(failed.encode(), player.encode())
    if ours is None:
        return raw
    end_of_headers = re.search(rb"\r?\n\r?\n", raw).end()
    returned = [m for m in _MESSAGE_ID.finditer(raw) if m.start() > end_of_headers]
    if not returned:  # the bounce kept no copy of the message: append its headers
        return raw.rstrip() + b"\n\nMessage-ID: " + ours.encode() + b"\n\n"
    last = returned[-1]
    return raw[:last.start(2)] + ours.encode() + raw[last.end(2):]


@pytest.mark.parametrize("path,failed", [
    (BOUNCES / "gmail.eml", "nicolo.esposito.typo@gmail.example"),
    (BOUNCES / "exim.eml", "carla.verdi@example.net"),
    (BOUNCES / "sendmail.eml", "dario.neri@example.com"),
    (BOUNCES / "qmail.eml", "elena.gallo@example.it"),
    (BOUNCES / "mailbox_full.eml", "luisa.ferrari@example.com"),
    (BOUNCES / "office365.eml", "francesca.ricci@contoso.example"),
    (BOUNCES / "exchange_it.eml", "gianluca.moretti@comune.example"),
    pytest.param(SISIMAI / "lhost-gmail-01.eml", "userunknown@example.jp", marks=REAL),
    pytest.param(SISIMAI / "lhost-exim-01.eml", "kijitora@example.ed.jp", marks=REAL),
    pytest.param(SISIMAI / "lhost-sendmail-01.eml", "userunknown@bouncehammer.jp", marks=REAL),
    pytest.param(FLANKER / "gmail-invalid-address.eml", "awfawfawfawfawfaw@someserverhere.com", marks=REAL),
    pytest.param(FLANKER / "mailbox-full.eml", "user@aol.com", marks=REAL),
    pytest.param(FLANKER / "office365.eml", "noname@example.com", marks=REAL),
], ids=lambda v: f"{v.parent.name}-{v.stem}" if isinstance(v, Path) else None)
def test_real_bounces_mark_the_players_address_and_get_no_answer(app, factory, game, path, failed):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    before = last_outbox_id(factory)
    deliver(app, corpus_bounce(path, failed, "Dario@players.test", latest_sent(factory, dario).message_id))
    run_mail(app, worker)
    assert failing(factory) == [dario]
    assert all_outbox_since(factory, before) == []
    with factory() as s:
        (row,) = s.query(InboundRow).all()
        assert row.status == "ignored" and "bounce" in row.result["errors"]
        (entry,) = s.query(MasterLog).filter_by(action="address_failing").all()
        assert entry.details == {"player": "Dario", "address": dario}


@pytest.mark.parametrize("path", [BOUNCES / "gmail.eml", pytest.param(SISIMAI / "lhost-gmail-01.eml", marks=REAL)],
                         ids=["own", "sisimai"])
def test_bounce_naming_a_stranger_marks_nobody(app, factory, game, path):
    _, worker = game
    deliver(app, path.read_bytes())
    run_mail(app, worker)
    assert failing(factory) == []


@pytest.mark.parametrize("path, inner", [
    (BOUNCES / "gmail.eml", b"<20261124083002.5.bollettino@lupus-pbm.example>"),
    pytest.param(FLANKER / "gmail-invalid-address.eml",
                 b"<CAKsfaBUUGqVZiaMrmH3TRPfq1odQPtM7Ey5YW1SgyJJRHtAjgw@mail.gmail.com>", marks=REAL),
], ids=["own", "flanker"])
def test_bounce_is_traced_to_the_player_by_the_returned_message_id(app, factory, game, path, inner):
    """The DSN names an address the player's mail forwards to; the returned
    copy of our message names the mail we sent, hence the player."""
    _, worker = game
    carla, _ = seat(factory, "Carla")
    ours = latest_sent(factory, carla)
    raw = path.read_bytes()
    assert inner in raw
    deliver(app, raw.replace(inner, ours.message_id.encode()))
    run_mail(app, worker)
    assert failing(factory) == [carla]
    with factory() as s:
        assert s.get(OutboxRow, ours.id).last_error.startswith("bounced")


@pytest.mark.parametrize("path, failed", [
    (BOUNCES / "postfix.eml", "bruno.bianchi@example.org"),
    pytest.param(SISIMAI / "lhost-postfix-01.eml", "kijitora@example.org", marks=REAL),
], ids=["own", "sisimai"])
def test_bounce_after_alias_expansion_names_the_address_we_sent_to(app, factory, game, path, failed):
    _, worker = game
    elena, _ = seat(factory, "Elena")
    deliver(app, corpus_bounce(path, failed, elena, latest_sent(factory, elena).message_id))
    run_mail(app, worker)
    assert failing(factory) == [elena]


def test_error_replies_are_capped_per_day(app, factory, game, clock):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    for _ in range(CAP + 2):
        deliver(app, message(dario, sent.reply_to, "VOTO Zorro", reply_to_row=sent))
    run_mail(app, worker)
    assert len(receipts(factory, dario)) == CAP
    with factory() as s:
        assert s.query(InboundRow).filter_by(status="processed").count() == CAP + 2

    # A receipt for commands that were recorded is never held back.
    deliver(app, message(dario, sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    assert len(receipts(factory, dario)) == CAP + 1
    assert votes(factory) == [("Dario", "Anna", "mail")]

    # Still capped later the same day; answered again a day later.
    clock.advance(hours=6)
    deliver(app, message(dario, sent.reply_to, "VOTO Zorro", reply_to_row=sent))
    run_mail(app, worker)
    assert len(receipts(factory, dario)) == CAP + 1
    clock.advance(hours=19)
    deliver(app, message(dario, sent.reply_to, "VOTO Zorro", reply_to_row=sent))
    run_mail(app, worker)
    assert len(receipts(factory, dario)) == CAP + 2


def test_refusals_sent_to_a_player_count_against_the_cap(app, factory, game):
    """Someone flooding a player's token from elsewhere cannot flood the player."""
    _, worker = game
    carla, _ = seat(factory, "Carla")
    sent = latest_sent(factory, carla)
    for i in range(CAP + 3):
        deliver(app, message(f"mallory{i}@evil.test", sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    assert len(receipts(factory, carla)) == CAP
    assert votes(factory) == []


@pytest.mark.parametrize("path,sender", [
    (AUTOMATIC / "sieve_vacation_it.eml", "anna.rossi@example.org"),
    (AUTOMATIC / "exchange_ooo_en.eml", "bruno.bianchi@contoso.example"),
    (AUTOMATIC / "exchange_ooo_it.eml", "carla.verdi@comune.example"),
    (AUTOMATIC / "icloud_vacation.eml", "dario.neri@icloud.example"),
    (AUTOMATIC / "gmail_vacation.eml", "elena.gallo@gmail.example"),
    (AUTOMATIC / "unix_vacation.eml", "paolo.marino@unix.example"),
    (AUTOMATIC / "x_autoreply.eml", "maria.conti@helpdesk.example"),
    pytest.param(SISIMAI / "rfc3834-01.eml", "kijitora@example.net", marks=REAL),
    pytest.param(SISIMAI / "rfc3834-02.eml", "nekonyaan@example.org", marks=REAL),
    pytest.param(SISIMAI / "rfc3834-03.eml", "kijitora@apple.example.com", marks=REAL),
    pytest.param(SISIMAI / "rfc3834-04.eml", "kijitora@example.org", marks=REAL),
    pytest.param(SISIMAI / "rfc3834-05.eml", "foo@bar.net", marks=REAL),
], ids=lambda v: f"{v.parent.name}-{v.stem}" if isinstance(v, Path) else None)
def test_real_auto_replies_from_a_players_address_get_nothing(app, factory, game, path, sender):
    """Vacation answers as mail servers and clients write them (and, as an extra check,
    sisimai's real RFC 3834 set), as if the player's own mailbox had answered a
    bulletin: ignored, not refused."""
    _, worker = game
    dario, _ = seat(factory, "Dario")
    before = last_outbox_id(factory)
    deliver(app, corpus_bounce(path, sender, dario))
    run_mail(app, worker)
    assert all_outbox_since(factory, before) == []
    with factory() as s:
        (row,) = s.query(InboundRow).all()
        assert (row.from_addr, row.status) == (dario, "ignored")


@pytest.mark.parametrize("first, second", [
    ((BOUNCES / "gmail.eml", "nicolo.esposito.typo@gmail.example"),
     (BOUNCES / "office365.eml", "francesca.ricci@contoso.example")),
    pytest.param((SISIMAI / "lhost-gmail-01.eml", "userunknown@example.jp"),
                 (FLANKER / "office365.eml", "noname@example.com"), marks=REAL),
], ids=["own", "sisimai-flanker"])
def test_a_strangers_fake_bounce_naming_a_player_marks_nobody(app, factory, game, first, second):
    """The attack: a delivery report written by anyone, naming Dario."""
    _, worker = game
    dario, _ = seat(factory, "Dario")
    deliver(app, corpus_bounce(*first, dario, "<made-up-1234@lupus.localhost>"))
    deliver(app, corpus_bounce(*second, dario, "<another-guess@example.com>"))
    run_mail(app, worker)
    assert failing(factory) == []


@pytest.mark.parametrize("path, failed", [
    (BOUNCES / "exim.eml", "carla.verdi@example.net"),
    pytest.param(SISIMAI / "lhost-exim-01.eml", "kijitora@example.ed.jp", marks=REAL),
], ids=["own", "sisimai"])
def test_a_bounce_quoting_our_mail_marks_only_the_address_that_mail_went_to(app, factory, game, path, failed):
    """A player returning their own mail in a forged report naming another player."""
    _, worker = game
    carla, _ = seat(factory, "Carla")
    dario, _ = seat(factory, "Dario")
    deliver(app, corpus_bounce(path, failed, dario, latest_sent(factory, carla).message_id))
    run_mail(app, worker)
    assert failing(factory) == [carla]
