"""The rooms by mail (issue 30), through the service's real sender to aiosmtpd and
replies read back from a real Dovecot: a post reaches each member who chose every post
and nobody else, from the author's name and the game's, with a reply address of that
room and that reader and no member's address anywhere; a reply posts into the same room
with its quote removed, threaded under the post it answers; a reply that reads as
commands is not a command; a reply from another address, to a closed room, or empty
is refused with why and the text handed back."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid, parseaddr

import pytest
from sqlalchemy import select

from pbm.db import transaction
from pbm.mail.sources import open_source
from pbm.models import ActionRow, Game, OutboxRow, User
from pbm.operations import rooms
from pbm.talk_models import DIGEST, PostRow, RoomReader
from pbm.worker import Worker

from tests.support.helpers import make_game
from tests.support.mail import fast_passwords  # noqa: F401

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino"}
ADDRESSES = {f"{n.lower()}@players.test" for n in ROLES}


@pytest.fixture
def talk(make_app, clock, smtp_server, imap_account):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_SOURCE=imap_account.source_config(),
                   MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    smtp_server.wait_for(worker.outbox())
    smtp_server.clear()  # the welcomes and role letters
    return app, factory, gid, worker


def _post(app, factory, gid, name, key, text, clock):
    with transaction(factory) as s:
        game = s.get(Game, gid)
        seat = game.seat_by_name(name)
        return rooms.post(s, app.config, game, key, text, user=seat.user, seat=seat, now=clock.now()).id


def _reply(original, sender: str, text: str, quoted: str = "") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = original.message["Reply-To"]
    msg["Subject"] = "Re: " + str(original.message["Subject"])
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = original.message["Message-ID"]
    msg["References"] = original.message["Message-ID"]
    quote = "\n".join("> " + line for line in (quoted or original.message.get_body(("plain",)).get_content())
                      .splitlines())
    msg.set_content(f"{text}\n\nIl giorno lun 23 nov 2026, Anna ha scritto:\n{quote}\n")
    return bytes(msg)


def _read_mail(app, worker):
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        worker.mail_once(source)
    finally:
        source.close()


def test_a_post_reaches_its_room_and_nobody_else_and_shows_no_address(talk, clock, smtp_server):
    app, factory, gid, worker = talk
    _post(app, factory, gid, "Anna", "lupi", "Stanotte Carla, d'accordo?", clock)
    worker.outbox()
    den = smtp_server.wait_for(1)
    assert [list(m.rcpt_tos) for m in den] == [["bruno@players.test"]]  # the den: the other wolf only
    mail = den[0].message
    name, address = parseaddr(str(mail["From"]))
    assert name == "Anna (Test game)" or name.startswith("Anna (")
    assert address.startswith("lupus+") and address.endswith("@lupus.test")
    assert mail["Reply-To"] == address
    whole = bytes(mail).decode("utf-8", "replace").lower()
    for other in ADDRESSES - {"bruno@players.test"}:
        assert other not in whole  # no member's address in any header or body
    assert "stanotte carla" in whole
    smtp_server.clear()
    _post(app, factory, gid, "Carla", "piazza", "Buongiorno a tutti", clock)
    worker.outbox()
    square = smtp_server.wait_for(4)
    assert sorted(m.rcpt_tos[0] for m in square) == sorted(ADDRESSES - {"carla@players.test"})


def test_a_reply_posts_into_the_same_room_without_its_quote_threaded(talk, clock, smtp_server, imap_account):
    app, factory, gid, worker = talk
    first = _post(app, factory, gid, "Anna", "lupi", "Stanotte Carla, d'accordo?", clock)
    worker.outbox()
    (to_bruno,) = smtp_server.wait_for(1)
    imap_account.deliver(_reply(to_bruno, "Bruno <bruno@players.test>", "Sì, Carla. Domani la accusiamo."))
    _read_mail(app, worker)
    with factory() as s:
        posts = s.scalars(select(PostRow).order_by(PostRow.id)).all()
        assert [p.body for p in posts] == ["Stanotte Carla, d'accordo?", "Sì, Carla. Domani la accusiamo."]
        assert posts[1].via == "mail" and posts[1].parent_id == first and posts[1].signature == "Bruno"
        assert posts[1].room.key == "lupi"
    smtp_server.clear()
    worker.outbox()
    (to_anna,) = smtp_server.wait_for(1)
    assert list(to_anna.rcpt_tos) == ["anna@players.test"]
    # Threaded under Anna's own post, as her copy of it was named.
    assert f"<post-{first}-" in str(to_anna.message["In-Reply-To"])


def test_a_reply_of_commands_is_no_command_and_says_where_commands_go(talk, clock, smtp_server, imap_account):
    app, factory, gid, worker = talk
    _post(app, factory, gid, "Anna", "piazza", "Chi sospettate?", clock)
    worker.outbox()
    to_carla = next(m for m in smtp_server.wait_for(4) if list(m.rcpt_tos) == ["carla@players.test"])
    smtp_server.clear()
    imap_account.deliver(_reply(to_carla, "Carla <carla@players.test>", "VOTO Anna"))
    _read_mail(app, worker)
    with factory() as s:
        assert s.scalar(select(ActionRow).where(ActionRow.game_id == gid)) is None  # nothing recorded
        assert len(s.scalars(select(PostRow)).all()) == 1  # nothing posted
        receipt = s.scalars(select(OutboxRow).where(OutboxRow.to_addr == "carla@players.test",
                                                    OutboxRow.kind == "receipt_error")).one()
    assert "/g/" in receipt.body and ("comandi" in receipt.body.lower())


def test_a_reply_from_another_address_is_refused_and_told_to_the_reader(talk, clock, smtp_server, imap_account):
    app, factory, gid, worker = talk
    _post(app, factory, gid, "Anna", "lupi", "Stanotte Carla?", clock)
    worker.outbox()
    (to_bruno,) = smtp_server.wait_for(1)
    imap_account.deliver(_reply(to_bruno, "Mallory <mallory@evil.test>", "Votate Bruno!"))
    _read_mail(app, worker)
    with factory() as s:
        assert len(s.scalars(select(PostRow)).all()) == 1
        told = s.scalars(select(OutboxRow).where(OutboxRow.kind == "receipt_error")).all()
    assert [m.to_addr for m in told] == ["bruno@players.test"]  # the reader, never the sender
    assert "mallory" not in told[0].body.lower()


def test_a_refused_post_by_mail_hands_the_text_back(talk, clock, smtp_server, imap_account):
    app, factory, gid, worker = talk
    _post(app, factory, gid, "Anna", "lupi", "Stanotte Carla?", clock)
    worker.outbox()
    (to_bruno,) = smtp_server.wait_for(1)
    with transaction(factory) as s:
        game = s.get(Game, gid)
        master = s.scalars(select(User).where(User.email == "master@example.org")).one()
        rooms.lock(s, game, rooms.room_row(s, game, "lupi", clock.now()), True, master, clock.now())
    imap_account.deliver(_reply(to_bruno, "Bruno <bruno@players.test>", "Allora Carla, siamo d'accordo."))
    _read_mail(app, worker)
    with factory() as s:
        assert len(s.scalars(select(PostRow)).all()) == 1
        told = s.scalars(select(OutboxRow).where(OutboxRow.kind == "receipt_error")).one()
    assert told.to_addr == "bruno@players.test"
    assert "Allora Carla, siamo d'accordo." in told.body


def test_a_digest_reader_gets_the_posts_at_their_hour_and_not_one_by_one(talk, clock, smtp_server):
    app, factory, gid, worker = talk
    with transaction(factory) as s:
        game = s.get(Game, gid)
        bruno = game.seat_by_name("Bruno")
        reader = rooms.reader_of(s, rooms.room_row(s, game, "piazza", clock.now()), bruno.user)
        rooms.choose_delivery(reader, DIGEST, hours=[20])
    for text in ("Uno", "Due", "Tre"):
        _post(app, factory, gid, "Anna", "piazza", text, clock)
    worker.outbox()
    assert all(list(m.rcpt_tos) != ["bruno@players.test"] for m in smtp_server.wait_for(9))
    assert worker.send_room_digests() == 0  # 10:00 in Rome: not his hour yet
    clock.advance(hours=10, minutes=5)  # 20:05 in Rome
    assert worker.send_room_digests() == 1
    with factory() as s:
        digest = s.scalars(select(OutboxRow).where(OutboxRow.kind == "room_digest")).one()
        assert digest.to_addr == "bruno@players.test"
        assert "3 messaggi" in digest.subject or "3 messages" in digest.subject
        assert all(t in digest.body for t in ("Uno", "Due", "Tre"))
        assert s.scalars(select(RoomReader).where(RoomReader.user_id == bruno.user_id)).one().mailed_through_id > 0
    assert worker.send_room_digests() == 0  # nothing twice
