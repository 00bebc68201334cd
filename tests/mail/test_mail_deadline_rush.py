"""Mail at the deadline: when a round of mail takes its time, what it stamps, what it
holds and what a boundary waits for (bench/bench_rush.py measures the same under load).

- a message is stored and stamped when its batch is, not when the round began: one that
  reached the mailbox after the deadline, read later in a round that began before it,
  is late;
- a batch holds a game's phase row only while that game's mail is applied: the mail of
  one game is committed before the next game's is read, and the worker's mail lock (the
  one a boundary waits on) is free in between;
- a boundary reads the mail of its deadline, not the mail that keeps arriving after it.
"""
from __future__ import annotations

import os
import threading
from datetime import timedelta

import pytest

from pbm.inbox import apply, store
from pbm.mail.sources import open_source
from pbm.models import ActionRow, InboundRow, PhaseRow
from pbm.worker import Worker

from tests.support.helpers import make_game
from tests.support.mail import (  # noqa: F401 (fixtures)
    ROLES, TUESDAY_0930_ROME, fast_passwords, latest_sent, message, seat, votes,
)

OTHER_ROLES = {"Fabio": "Lupo Mannaro", "Gino": "Contadino", "Ilaria": "Veggente", "Lino": "Contadino",
               "Marco": "Contadino"}


@pytest.fixture
def two_games(app, factory, clock):
    """Two five-player games on their first day, and the worker."""
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    make_game(factory, app.config, clock.now(), OTHER_ROLES, mayor="Gino", master_email="other@example.org")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1, in both
    return worker


def deadline(factory):
    with factory() as s:
        return s.query(PhaseRow).filter_by(status="open").order_by(PhaseRow.id).first().ends_at


def mail_vote(app, factory, voter: str, target: str, arrived=None) -> None:
    """``voter``'s reply to their latest results mail, delivered to the Maildir, arrived
    at ``arrived`` (the file's time, which the Maildir source reads as the arrival)."""
    address, _token = seat(factory, voter)
    sent = latest_sent(factory, address)
    box = app.config["MAIL_SOURCE"]["path"]
    import mailbox
    key = mailbox.Maildir(box, create=True).add(message(address, sent.reply_to, f"VOTO {target}",
                                                        reply_to_row=sent))
    if arrived is not None:
        stamp = arrived.timestamp()
        os.utime(os.path.join(box, "new", key), (stamp, stamp))


class SlowRound:
    """The Maildir source, a round reading a long mailbox: before each fetch after the
    first, the clock moves on by the next of ``arriving``'s seconds and its mail is
    delivered meanwhile."""

    def __init__(self, app, clock, arriving) -> None:
        self.real = open_source(app.config["MAIL_SOURCE"])
        self.clock, self.arriving, self.fetches = clock, list(arriving), 0

    def fetch_new(self, *args, **kwargs):
        if self.fetches and self.arriving:
            seconds, deliver = self.arriving.pop(0)
            self.clock.advance(seconds=seconds)
            deliver()
        self.fetches += 1
        return self.real.fetch_new(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_mail_read_late_in_a_round_begun_before_the_deadline_is_stamped_when_stored(
        app, factory, clock, two_games, monkeypatch):
    worker = two_games
    ends = deadline(factory)
    monkeypatch.setattr(store, "FETCH_BATCH", 1)  # one message a batch: the round reads three
    clock.set(ends - timedelta(seconds=10))
    mail_vote(app, factory, "Anna", "Bruno", arrived=ends - timedelta(seconds=20))
    # While the round reads, Carla's vote comes 5 s before the deadline, Dario's 5 s after.
    source = SlowRound(app, clock, [
        (5, lambda: mail_vote(app, factory, "Carla", "Bruno", arrived=ends - timedelta(seconds=5))),
        (10, lambda: mail_vote(app, factory, "Dario", "Bruno", arrived=ends + timedelta(seconds=5))),
    ])
    try:
        worker.mail_once(source)
    finally:
        source.close()

    assert sorted(votes(factory)) == [("Anna", "Bruno", "mail"), ("Carla", "Bruno", "mail")]
    with factory() as s:
        stamped = {r.seat.name: r.submitted_at for r in s.query(ActionRow).filter_by(kind="vote")}
        received = sorted(r.received_at for r in s.query(InboundRow))
    # Each stamped when its batch was stored: Carla's not before her mail arrived.
    assert stamped == {"Anna": ends - timedelta(seconds=10), "Carla": ends - timedelta(seconds=5)}
    assert received == [ends - timedelta(seconds=20), ends - timedelta(seconds=5), ends + timedelta(seconds=5)]


def test_a_batch_commits_each_games_mail_before_reading_the_next_games(app, factory, clock, two_games,
                                                                      monkeypatch):
    worker = two_games
    mail_vote(app, factory, "Anna", "Bruno")
    mail_vote(app, factory, "Fabio", "Gino")
    mail_vote(app, factory, "Carla", "Bruno")
    seen: dict[str, object] = {}
    real_process = apply.route

    def looking(session, config, row, now):
        if b"fabio@" in row.raw:
            seen["committed"] = sorted(votes(factory))  # another connection's view
        return real_process(session, config, row, now)

    monkeypatch.setattr(apply, "route", looking)
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        worker.mail_once(source)
    finally:
        source.close()

    # Anna's and Carla's game first (its first message came first), committed, and its
    # phase row let go, before Fabio's game's mail is read.
    assert seen["committed"] == [("Anna", "Bruno", "mail"), ("Carla", "Bruno", "mail")]
    assert sorted(votes(factory)) == [("Anna", "Bruno", "mail"), ("Carla", "Bruno", "mail"),
                                      ("Fabio", "Gino", "mail")]


def test_a_boundary_waiting_for_the_mail_lock_gets_it_between_two_games_mail(app, factory, clock, two_games,
                                                                           monkeypatch):
    worker = two_games
    mail_vote(app, factory, "Anna", "Bruno")
    mail_vote(app, factory, "Fabio", "Gino")
    order: list[str] = []
    waiting = threading.Event()
    real_process = apply.route

    def boundary_waits():
        waiting.set()
        with worker.mail_lock:
            order.append("boundary")

    def noting(session, config, row, now):
        if b"anna@" in row.raw:
            threading.Thread(target=boundary_waits).start()
            waiting.wait(5)
            for _ in range(100):  # the boundary queued for the lock before this game's mail ends
                if worker.mail_lock.waiting:
                    break
                threading.Event().wait(0.01)
        order.append("fabio" if b"fabio@" in row.raw else "anna")
        return real_process(session, config, row, now)

    monkeypatch.setattr(apply, "route", noting)
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        worker.mail_once(source)
    finally:
        source.close()
    for _ in range(50):
        if "boundary" in order:
            break
        threading.Event().wait(0.1)
    assert order == ["anna", "boundary", "fabio"]


def test_a_boundary_reads_the_mail_of_its_deadline_not_the_mail_that_keeps_coming(app, factory, clock, two_games,
                                                                                  monkeypatch):
    worker = two_games
    ends = deadline(factory)
    monkeypatch.setattr(store, "FETCH_BATCH", 1)
    mail_vote(app, factory, "Anna", "Bruno", arrived=ends - timedelta(seconds=30))
    mail_vote(app, factory, "Fabio", "Gino", arrived=ends - timedelta(seconds=2))
    after = ["Bruno", "Carla", "Dario", "Elena", "Gino", "Ilaria", "Lino", "Marco"]
    for n, voter in enumerate(after):  # a backlog that reached the mailbox after the deadline
        mail_vote(app, factory, voter, "Anna" if voter in ROLES else "Fabio",
                  arrived=ends + timedelta(seconds=1 + n))
    clock.set(ends + timedelta(seconds=40))

    worker.boundaries(read_mail=True)

    with factory() as s:
        closed = s.query(PhaseRow).filter(PhaseRow.ends_at == ends, PhaseRow.status == "published").count()
        read = s.query(InboundRow).count()
    assert closed == 2  # both games' day resolved
    # The two votes of before the deadline are in the resolution; of the backlog after
    # it, at most the batch that showed the round had reached it was read.
    assert sorted(votes(factory)) == [("Anna", "Bruno", "mail"), ("Fabio", "Gino", "mail")]
    assert read <= 3
