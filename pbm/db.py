"""Engines and plain SQLAlchemy sessions, shared by the web app, the worker and the CLI."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction, sessionmaker


def make_engine(url: str) -> Engine:
    kwargs: dict = {}
    if url.startswith("sqlite"):
        # Several processes (web, worker) share the file: wait on locks instead of failing.
        kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):
            # pysqlite's own transaction handling is quirky (it skips BEGIN
            # before reads); SQLAlchemy's documented recipe takes it over.
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn):
            # SQLite's safety level can only change outside a transaction: each
            # BEGIN sets the one its transaction asks for (``unflushed``).
            level = "NORMAL" if conn.get_execution_options().get(UNFLUSHED) else "FULL"
            if conn.info.get("synchronous") != level:
                conn.exec_driver_sql(f"PRAGMA synchronous={level}")
                conn.info["synchronous"] = level
            if conn.get_execution_options().get(WRITES):
                _begin_immediate(conn)
            else:
                conn.exec_driver_sql("BEGIN")
    return engine


# SQLite's own wait for a lock (busy_timeout) sleeps up to 100 ms between tries, and
# the worker resolving many boundaries leaves the write lock free for microseconds
# between two transactions: a request waiting for it missed every gap, 11 s behind
# 1,000 boundaries (bench/bench_busy_service.py), and would fail after 30 s. So a
# writer asks for the lock itself every LOCK_POLL_SECONDS, as long as its connection's
# busy_timeout, and a long run of writes pauses longer than that between its
# transactions (``make_way``).
LOCK_POLL_SECONDS = 0.002
MAKE_WAY_SECONDS = 0.005


def _begin_immediate(conn: Connection) -> None:
    """BEGIN IMMEDIATE, waiting for the write lock as long as the connection's
    busy_timeout says, polled every LOCK_POLL_SECONDS instead of SQLite's 100 ms.
    Each try is a statement SQLAlchemy sees (and tests count); the timeout's
    setting and resetting are the connection's, sent beside them."""
    raw = conn.connection.dbapi_connection
    assert raw is not None
    if "busy_timeout_ms" not in conn.info:  # as the connect listeners left it (tests shorten it)
        conn.info["busy_timeout_ms"] = raw.execute("PRAGMA busy_timeout").fetchone()[0]
    waits_ms = conn.info["busy_timeout_ms"]
    raw.execute("PRAGMA busy_timeout=0")
    try:
        deadline = time.monotonic() + waits_ms / 1000
        while True:
            try:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                return
            except OperationalError as exc:
                if "locked" not in str(exc.orig) or time.monotonic() >= deadline:
                    raise
            time.sleep(LOCK_POLL_SECONDS)
    finally:
        raw.execute(f"PRAGMA busy_timeout={int(waits_ms)}")


def make_way(factory: sessionmaker[Session]) -> None:
    """Between two transactions of a long run of writes (a boundary's batches): on
    SQLite, a pause longer than a waiting writer's poll, so a request waiting for the
    database's one write lock takes it now rather than after the whole run.
    PostgreSQL locks rows, not the database: no pause."""
    bind = factory.kw.get("bind")
    if bind is not None and bind.dialect.name == "sqlite":
        time.sleep(MAKE_WAY_SECONDS)


# The execution option of transactions that write (SQLite: BEGIN IMMEDIATE).
WRITES = "pbm_writes"


def writing(engine: Engine) -> Engine:
    """The engine for the sessions of a process that writes while others do (the
    worker; a web request other than GET): the same connections, each transaction
    begun with SQLite's one write lock taken (BEGIN IMMEDIATE), waiting for it
    (busy_timeout) behind a boundary being resolved.

    A transaction begun deferred, which reads first and writes later, cannot wait:
    if another connection has committed since its first read, SQLite refuses its
    first write at once, whatever the timeout ("database is locked": the worker's
    heartbeat, a login whose password check met a commit). Sessions that only read
    (a GET, a test looking at the database) stay deferred: they take no lock, and
    a writer never waits for them. PostgreSQL ignores the option."""
    return engine.execution_options(**{WRITES: True})


def write_sessions(extensions: dict) -> sessionmaker[Session]:
    """The app's sessionmaker for writing processes (``writing``), made on first use
    from its engine (``extensions``: the Flask app's)."""
    if "pbm_write_sessions" not in extensions:
        extensions["pbm_write_sessions"] = make_sessionmaker(writing(extensions["pbm_engine"]))
    return extensions["pbm_write_sessions"]


def read_sessions(extensions: dict) -> sessionmaker[Session]:
    """The app's sessionmaker for a request that only reads (a GET), made on first use.

    On PostgreSQL its statements run in autocommit. At READ COMMITTED (PostgreSQL's
    default, which the service keeps) every statement takes a snapshot of its own
    inside a transaction too, so a page's transaction bought no consistency and cost
    two of its eight round trips (BEGIN, then ROLLBACK at the end), paid by every page
    of the deadline rush (issue 33). On SQLite the deferred transaction stays: there
    it is what lets a page's statements read one snapshot, and it costs no round trip.

    Such a session refuses to write, on both (``ReadOnly``): in autocommit a write
    would be kept statement by statement, where a GET's transaction used to throw it
    away. A GET that must write (a room marked read) takes a writing session of its
    own (``write_sessions``)."""
    if "pbm_read_sessions" not in extensions:
        engine: Engine = extensions["pbm_engine"]
        if engine.dialect.name == "postgresql":
            engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        factory = make_sessionmaker(engine)
        event.listen(factory, "do_orm_execute", _refuse_statement_writes)
        event.listen(factory, "before_flush", _refuse_flushes)
        extensions["pbm_read_sessions"] = factory
    return extensions["pbm_read_sessions"]


class ReadOnly(RuntimeError):
    """A write asked of a session that only reads (``read_sessions``): a bug of the
    code that asked, never of the reader's request."""


def _refuse_statement_writes(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        raise ReadOnly(f"a reading session was asked to write: {str(state.statement)[:80]}")


def _refuse_flushes(session: Session, _flush: UOWTransaction, _instances: object) -> None:
    changed = [*session.new, *session.deleted, *(obj for obj in session.dirty if session.is_modified(obj))]
    if changed:
        raise ReadOnly(f"a reading session was asked to write: {changed[:3]!r}")


# The execution option of a transaction whose commit need not wait for the disk.
UNFLUSHED = "pbm_unflushed"


def unflushed(session: Session) -> None:
    """The session's transaction (the one open, or the next) commits without waiting
    for the disk: what it writes survives a crash of this process, not a power cut.
    Only for writes whose loss costs a repeat, never a loss (the sender's marks).
    PostgreSQL: ``synchronous_commit`` off for that transaction alone; SQLite in WAL
    mode: ``synchronous=NORMAL`` for it, which only a transaction not yet begun can
    take (one already open commits flushed, as every other)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL synchronous_commit TO OFF"))
    elif not session.in_transaction():
        session.connection(execution_options={UNFLUSHED: True})


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any error."""
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
