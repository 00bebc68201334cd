"""The sender's marks: they keep up with the wire (a crash re-sends at most
pbm.mail.outbound.send.MARK_EVERY), their commits do not wait for the disk while every other
transaction's does, and what the server accepted stays marked sent when the
connection then fails."""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from pbm.mail.outbound import send
from pbm.models import OutboxRow, RelayState
from pbm.mail.outbound.relay_limits import pause_for, relay_key
from tests.fixtures.smtp import free_port
from tests.support.helpers import make_game
from tests.support.mail import ROLES, fast_passwords  # noqa: F401  (a fixture)


def queue_games(app, clock, games: int) -> int:
    factory = app.extensions["pbm_sessions"]
    for g in range(games):
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=f"m{g}@example.org")
    with factory() as s:
        return s.scalar(select(func.count()).select_from(OutboxRow))


def sent_in_database(factory) -> int:
    with factory() as s:
        return s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "sent"))


class _Watching:
    """Accepts every message and, before accepting each, reads from a
    connection of its own how many the database already holds as sent."""

    def __init__(self, factory) -> None:
        self.factory = factory
        self.lag: list[int] = []  # messages accepted before this one, not yet marked

    async def handle_DATA(self, server, session, envelope):
        self.lag.append(len(self.lag) - sent_in_database(self.factory))
        return "250 OK"


def test_the_marks_keep_up_with_the_wire(make_app, clock):
    port = free_port()
    app = make_app(MAIL_PORT=port)
    total = queue_games(app, clock, 4)
    assert total > 3 * send.MARK_EVERY
    factory = app.extensions["pbm_sessions"]
    handler = _Watching(factory)
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        assert send.drain(app, factory, clock.now()) == total
    finally:
        controller.stop()
    assert len(handler.lag) == total
    # What a crash at any moment would re-send: never more than MARK_EVERY...
    assert max(handler.lag) <= send.MARK_EVERY
    # ...and the marks are written as the batch goes, not all at its end.
    assert max(handler.lag) < total - 1
    with factory() as s:
        rows = s.scalars(select(OutboxRow)).all()
    assert {(r.status, r.attempts, r.sent_at) for r in rows} == {("sent", 1, clock.now())}


class _FailingAfter:
    """A relay that accepts ``accept`` messages, then answers 421 and hangs up."""

    def __init__(self, accept: int) -> None:
        self.accept = accept
        self.ids: list[str] = []

    async def handle_DATA(self, server, session, envelope):
        if len(self.ids) >= self.accept:
            return "421 4.3.2 Service shutting down"
        self.ids.append(_message_id(envelope.original_content or envelope.content))
        return "250 OK"


def _message_id(raw: bytes) -> str:
    for line in raw.split(b"\r\n"):
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().decode()
    raise AssertionError("no Message-ID")


def test_what_the_server_accepted_stays_sent_when_it_then_fails(make_app, clock, monkeypatch):
    # The second batch fails with marks still waiting; no third batch is tried.
    monkeypatch.setattr(send, "BATCH", 8)
    accept = 8 + 5
    port = free_port()
    app = make_app(MAIL_PORT=port)
    total = queue_games(app, clock, 3)
    assert total > accept + 8
    factory = app.extensions["pbm_sessions"]
    failing = _FailingAfter(accept)
    controller = Controller(failing, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        assert send.drain(app, factory, clock.now()) == accept
    finally:
        controller.stop()
    with factory() as s:
        rows = {r.message_id: r for r in s.scalars(select(OutboxRow))}
    sent = {m for m, r in rows.items() if r.status == "sent"}
    assert sent == set(failing.ids)
    assert all(rows[m].attempts == 1 and rows[m].sent_at == clock.now() for m in sent)
    waiting = [r for m, r in rows.items() if m not in sent]
    assert len(waiting) == total - accept
    assert {r.status for r in waiting} == {"pending"}
    # A 421 is the relay's "slow down", not this message's failure: the relay as a
    # whole pauses (pbm/mail/outbound/relay_limits.py), and every message waits in its place,
    # charged nothing, the failed batch's rest as the batches never tried.
    assert all(r.attempts == 0 and r.next_attempt_at == clock.now() and not r.last_error for r in waiting)
    with factory() as s:
        pause = s.get(RelayState, relay_key(app.config))
    assert pause.last_answer.startswith("421") and pause.strikes == 1
    assert pause.paused_until == clock.now() + pause_for(1)
    assert send.drain(app, factory, clock.now() + pause_for(1) - timedelta(seconds=1)) == 0  # still paused

    # The relay back: the rest goes out, and nothing already accepted goes out again.
    again = Controller(_FailingAfter(total), hostname="127.0.0.1", port=port)
    again.start()
    try:
        clock.advance(seconds=send.MAX_BACKOFF.total_seconds())
        assert send.drain(app, factory, clock.now()) == total - accept
    finally:
        again.stop()
    wire = Counter(failing.ids + again.handler.ids)
    assert set(wire) == set(rows) and set(wire.values()) == {1}
    assert sent_in_database(factory) == total


def test_one_drain_sends_batch_after_batch_while_they_come_full(make_app, clock, smtp_server, monkeypatch):
    """The worker's job runs every few seconds: one batch a run would cap the outbox."""
    monkeypatch.setattr(send, "BATCH", 4)
    app = make_app(MAIL_PORT=smtp_server.port)
    total = queue_games(app, clock, 1)
    assert total > 2 * 4
    connections = []
    real_connect = send.connect
    monkeypatch.setattr(send, "connect", lambda *a, **k: connections.append(1) or real_connect(*a, **k))
    assert send.drain(app, app.extensions["pbm_sessions"], clock.now()) == total
    assert len(connections) == -(-total // 4)  # one connection a batch
    wire = Counter(m.message["Message-ID"] for m in smtp_server.wait_for(total))
    assert len(wire) == total and set(wire.values()) == {1}
    assert sent_in_database(app.extensions["pbm_sessions"]) == total


def test_only_the_marks_commit_without_waiting_for_the_disk(make_app, clock, smtp_server):
    """SQLite's safety level of the transaction each statement runs in, read on its own
    connection as the statement runs: NORMAL (1) for the marks, FULL (2) for all else."""
    from sqlalchemy import event
    app = make_app(MAIL_PORT=smtp_server.port)
    total = queue_games(app, clock, 1)
    factory = app.extensions["pbm_sessions"]
    engine = app.extensions["pbm_engine"]
    if engine.dialect.name != "sqlite":
        return  # PostgreSQL: SET LOCAL, which ends with its transaction by definition
    levels: dict[str, set[int]] = {"mark": set(), "other": set()}

    def level(conn, cursor, statement, parameters, context, executemany):
        if statement.startswith(("PRAGMA", "BEGIN")):
            return
        raw = conn.connection.dbapi_connection.cursor()
        value = raw.execute("PRAGMA synchronous").fetchone()[0]
        raw.close()
        kind = "mark" if statement.startswith("UPDATE outbox SET status") else "other"
        levels[kind].add(value)

    event.listen(engine, "before_cursor_execute", level)
    try:
        assert send.drain(app, factory, clock.now()) == total
        with factory() as s:  # the next transaction on the pooled connection
            assert s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "sent")) == total
    finally:
        event.remove(engine, "before_cursor_execute", level)
    assert levels["mark"] == {1}
    assert levels["other"] == {2}
