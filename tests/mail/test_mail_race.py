"""Two workers (two processes, each with its poller) reading the same
mailbox: a stored message is applied and answered once, whoever gets it.
Run on PostgreSQL too (test_postgres.py), where the two really overlap."""
from __future__ import annotations

import threading

from sqlalchemy.exc import OperationalError

from pbm import inbox
from pbm.inbox import apply, store
from pbm.mail.sources import open_source
from pbm.models import ActionRow, InboundRow, OutboxRow

from tests.support.helpers import first_waits_for_second, run_overlapping
from tests.support.mail import deliver, fast_passwords, game, latest_sent, message, seat  # noqa: F401 (fixtures)


def dario_votes_anna(app, factory):
    """Dario's reply 'VOTO Anna', fetched from the mailbox and not yet stored."""
    address, _token = seat(factory, "Dario")
    sent = latest_sent(factory, address)
    deliver(app, message(address, sent.reply_to, "VOTO Anna", reply_to_row=sent))
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        (mail,) = source.fetch_new()
    finally:
        source.close()
    return address, mail


def test_two_workers_applying_one_stored_message_apply_it_once(app, factory, game, clock, monkeypatch):
    _gid, _worker = game
    address, mail = dario_votes_anna(app, factory)
    (inbound_id,) = inbox.store_many(factory, [mail], clock.now())

    slow_process, first_inside = first_waits_for_second(apply.route)
    monkeypatch.setattr(apply, "route", slow_process)

    def worker():
        inbox.process(factory, app.config, inbound_id, clock.now())

    # SQLite: the later writer fails, and the next round retries
    run_overlapping(worker, worker, first_inside, tolerate=(OperationalError,))
    inbox.process(factory, app.config, inbound_id, clock.now())  # the next round, for whoever failed

    with factory() as s:
        assert s.get(InboundRow, inbound_id).status == "processed"
        assert [(a.seat.name, a.args["vote"]) for a in s.query(ActionRow).filter_by(kind="vote")] == [("Dario", "Anna")]
        assert s.query(OutboxRow).filter_by(to_addr=address, kind="receipt").count() == 1


def test_two_workers_storing_the_same_new_message_store_it_once(app, factory, game, clock, monkeypatch):
    _address, mail = dario_votes_anna(app, factory)

    both_looked = threading.Barrier(2, timeout=5)
    real_key = store.dedupe_key
    calls: list[int] = []

    def key_after_both_looked(m):
        calls.append(1)
        if len(calls) <= 2:  # the first look of each worker: neither has stored it yet
            both_looked.wait()
        return real_key(m)

    monkeypatch.setattr(store, "dedupe_key", key_after_both_looked)
    results: list[object] = []

    def worker():
        try:
            results.append(inbox.store_many(factory, [mail], clock.now()))
        except OperationalError:  # SQLite: the later writer fails, and the next round fetches it again
            results.append("retry next round")

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)

    with factory() as s:
        rows = s.query(InboundRow).all()
        assert [r.status for r in rows] == ["stored"]
    assert [rows[0].id] in results and all(r in ([rows[0].id], "retry next round") for r in results)
    if app.config["DATABASE_URL"].startswith("postgresql"):
        assert results == [[rows[0].id], [rows[0].id]]  # no error: the second looks again


def test_two_pollers_reading_one_mailbox_apply_each_message_once(app, factory, game, clock, monkeypatch):
    """The batch path (inbox.ingest: one transaction for the batch, one mark for
    it), with the second poller starting while the first is inside the batch."""
    voters = ["Anna", "Bruno", "Carla", "Dario", "Elena"] * 4
    for n, name in enumerate(voters):
        address, _token = seat(factory, name)
        sent = latest_sent(factory, address)
        target = "Bruno" if name != "Bruno" else "Anna"
        deliver(app, message(address, sent.reply_to, f"VOTO {target}\n\n(numero {n})", reply_to_row=sent))

    slow_process, first_inside = first_waits_for_second(apply.route, patience=2.0)
    monkeypatch.setattr(apply, "route", slow_process)

    def poller():
        source = open_source(app.config["MAIL_SOURCE"])
        try:
            inbox.ingest(factory, app.config, source, clock.now())
        finally:
            source.close()

    # SQLite: the later writer fails, and its next round finds the rest
    run_overlapping(poller, poller, first_inside, tolerate=(OperationalError,))
    poller()

    with factory() as s:
        assert [r.status for r in s.query(InboundRow)] == ["processed"] * len(voters)
        assert s.query(ActionRow).filter_by(kind="vote").count() == len(voters)
        assert s.query(OutboxRow).filter_by(kind="receipt").count() == len(voters)
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        assert source.fetch_new() == []
    finally:
        source.close()
