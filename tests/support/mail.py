"""Mail into a game for tests: a started five-player game, messages written as a
client writes them, delivered to the Maildir and read by the worker's poller."""
from __future__ import annotations

import mailbox
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from werkzeug.security import generate_password_hash

from pbm import models
from pbm.mail.sources import open_source
from pbm.models import ActionRow, OutboxRow, Seat
from pbm.worker import Worker

from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino"}
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def fast_passwords(monkeypatch):
    """Mail tests never log in: a cheap hash saves two seconds of scrypt per game.
    Other mail test modules import this fixture to get the same."""
    monkeypatch.setattr(models, "generate_password_hash",
                        lambda password, *args, **kwargs: generate_password_hash(password, "pbkdf2:sha256:1000"))


@pytest.fixture
def game(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1
    return gid, worker


def seat(factory, name):
    with factory() as s:
        row = s.query(Seat).filter_by(name=name).one()
        return row.user.email, row.token


def latest_sent(factory, address, kind="phase_results"):
    with factory() as s:
        return (s.query(OutboxRow).filter_by(to_addr=address, kind=kind)
                .order_by(OutboxRow.id.desc()).first())


def deliver(app, raw: bytes) -> None:
    mailbox.Maildir(app.config["MAIL_SOURCE"]["path"], create=True).add(raw)


def message(sender, to, body, *, reply_to_row=None, subject="Re: partita", headers=None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    if reply_to_row is not None:
        msg["In-Reply-To"] = reply_to_row.message_id
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body)
    return bytes(msg)


def run_mail(app, worker):
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        return worker.mail_once(source)
    finally:
        source.close()


def receipts(factory, address):
    with factory() as s:
        return [r.body for r in s.query(OutboxRow).filter(
            OutboxRow.to_addr == address, OutboxRow.kind.in_(["receipt", "receipt_error"]))
            .order_by(OutboxRow.id)]


def votes(factory):
    with factory() as s:
        return [(r.seat.name, r.args.get("vote"), r.source) for r in s.query(ActionRow).filter_by(kind="vote")]
