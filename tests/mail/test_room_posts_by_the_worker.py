"""A post's mail is made by the worker, not by the request that stored it (issue 33):
the post is stored before its answer and waits, noted, for the worker; each reader who
chose every post then gets each post once, however the worker's runs go (one that
dies midway, one run after another, the digest that catches readers up later); a post
a Master held before the worker came is not mailed. Through the real sender to aiosmtpd."""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import select

from pbm.db import transaction
from pbm.models import Game, OutboxRow, User
from pbm.operations import rooms
from pbm.talk_models import PostRow, PostToMail
from pbm.telling import room_digests, room_mail
from pbm.worker import Worker

from tests.support.mail import fast_passwords  # noqa: F401
from tests.support.rooms import ROLES, player, send, start

ADDRESSES = {f"{n.lower()}@players.test" for n in ROLES}


@pytest.fixture
def talk(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port, MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    gid = start(app, factory, clock)
    worker = Worker(app, clock)
    smtp_server.wait_for(worker.outbox())
    smtp_server.clear()  # the welcomes and role letters
    return app, factory, gid, worker


def _posts_mail(factory) -> list[tuple[str, str]]:
    with factory() as s:
        return [(to, mid) for to, mid in s.execute(
            select(OutboxRow.to_addr, OutboxRow.message_id).where(OutboxRow.kind == "room_post"))]


def _post(app, factory, gid, name, text, clock) -> int:
    with transaction(factory) as s:
        game = s.get(Game, gid)
        seat = game.seat_by_name(name)
        return rooms.post(s, app.config, game, "piazza", text, user=seat.user, seat=seat, now=clock.now()).id


def test_a_post_is_stored_before_its_answer_and_mailed_by_the_worker(talk, clock, smtp_server):
    app, factory, gid, worker = talk
    answer = send(player(app, "Carla"), "piazza", "Buongiorno a tutti, chi ha sentito qualcosa?")
    assert answer.status_code == 302
    with factory() as s:
        stored = s.scalars(select(PostRow)).one()
        assert stored.body == "Buongiorno a tutti, chi ha sentito qualcosa?"
        assert s.scalars(select(PostToMail.post_id)).all() == [stored.id]
    assert _posts_mail(factory) == []  # the request made no mail: the worker does

    worker.outbox()
    got = smtp_server.wait_for(len(ADDRESSES) - 1)
    assert sorted(m.rcpt_tos[0] for m in got) == sorted(ADDRESSES - {"carla@players.test"})
    assert all("chi ha sentito qualcosa" in bytes(m.message).decode("utf-8", "replace") for m in got)
    with factory() as s:
        assert s.scalars(select(PostToMail)).all() == []


def test_each_reader_gets_each_post_once_though_the_worker_dies_midway(talk, clock, monkeypatch):
    app, factory, gid, worker = talk
    made = [_post(app, factory, gid, name, f"Messaggio di {name}", clock) for name in ("Anna", "Bruno", "Carla")]
    real = room_mail.mailer.queue_all
    calls = []

    def dying(session, messages):
        calls.append(len(messages))
        if len(calls) == 2:
            raise RuntimeError("the worker's process is killed")
        real(session, messages)

    monkeypatch.setattr(room_mail.mailer, "queue_all", dying)
    with pytest.raises(RuntimeError):
        worker.room_posts()
    assert _posts_mail(factory) == []  # the first post's mail went with the transaction it was made in
    monkeypatch.setattr(room_mail.mailer, "queue_all", real)
    worker.room_posts()
    worker.room_posts()  # nothing left to make
    clock.set(clock.now() + timedelta(hours=1))
    with transaction(factory) as s:  # the catch-up of readers of every post finds nothing behind
        room_digests.send_due(s, app.config, clock.now())
    worker.room_posts()

    mail = _posts_mail(factory)
    with factory() as s:
        authors = {p.id: s.get(User, p.author_id).email for p in s.scalars(select(PostRow))}
        assert not s.scalars(select(OutboxRow).where(OutboxRow.kind == "room_digest")).all()
    per_reader = Counter(to for to, _ in mail)
    assert per_reader == {to: sum(1 for post in made if authors[post] != to) for to in ADDRESSES}
    assert len({mid for _, mid in mail}) == len(mail)
    for post in made:  # each post once to each reader but its author
        readers = sorted(to for to, mid in mail if mid.startswith(f"<post-{post}-"))
        assert readers == sorted(ADDRESSES - {authors[post]})


def test_a_post_held_before_the_worker_came_is_not_mailed(talk, clock):
    app, factory, gid, worker = talk
    held = _post(app, factory, gid, "Elena", "Qualcosa che il Master trattiene", clock)
    shown = _post(app, factory, gid, "Dario", "Qualcosa di lecito", clock)
    with transaction(factory) as s:
        game = s.get(Game, gid)
        rooms.moderate(s, game, s.get(PostRow, held), "hold", s.get(User, game.masters[0].user_id), clock.now())
    worker.room_posts()
    mail = _posts_mail(factory)
    assert mail and all(mid.startswith(f"<post-{shown}-") for _, mid in mail)


def test_a_backlog_of_posts_is_mailed_batch_by_batch_with_a_pause_between(talk, clock, monkeypatch):
    """After a worker's downtime the posts' mail is made a batch to a transaction, and
    between two batches the worker pauses (``make_way``): on SQLite a request waiting
    for the one write lock (a vote, a post) goes first, as between a boundary's batches."""
    from pbm import worker as worker_module

    app, factory, gid, worker = talk
    made = [_post(app, factory, gid, name, f"Messaggio {i} di {name}", clock)
            for i, name in enumerate(("Anna", "Bruno", "Carla", "Dario", "Anna"))]
    monkeypatch.setattr(room_mail, "BATCH", 2)
    waiting_at_pauses = []

    def pause(_factory):
        with factory() as s:
            waiting_at_pauses.append(len(s.scalars(select(PostToMail.post_id)).all()))

    monkeypatch.setattr(worker_module, "make_way", pause)
    worker.room_posts()
    assert waiting_at_pauses == [3, 1]  # after each full batch, not after the last
    with factory() as s:
        assert s.scalars(select(PostToMail.post_id)).all() == []
    assert {mid.split("-")[1] for _, mid in _posts_mail(factory)} == {str(p) for p in made}
