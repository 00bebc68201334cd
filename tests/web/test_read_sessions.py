"""A GET only reads (pbm.db.read_sessions): its session refuses any write, on both
engines, and on PostgreSQL its statements run outside a transaction (a page's
BEGIN and ROLLBACK were two of its eight round trips: issue 33).

On PostgreSQL, at READ COMMITTED, every statement reads a snapshot of its own with or
without a transaction around it; a write in autocommit would be kept at once, where
the GET's transaction used to throw it away: hence the refusal, checked on both.
"""
from __future__ import annotations

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import event, select, update

from pbm.db import ReadOnly, read_sessions
from pbm.models import Game, Seat
from tests.web.test_reserved_page_cost import day_one
from tests.support.forms import area, flash_of, logged_in, post_form


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("postgres_url")
    (tmp_path / "instance").mkdir(exist_ok=True)
    return f"sqlite:///{tmp_path / 'instance' / 'test.sqlite3'}"


def test_a_reading_session_refuses_a_flushed_change_a_new_row_and_a_statement_that_writes(app, factory, clock):
    gid = day_one(app, factory, clock)
    reading = read_sessions(app.extensions)
    with reading() as s:
        s.get(Game, gid).name = "Renamed by a page"
        with pytest.raises(ReadOnly):
            s.flush()
    with reading() as s:
        with pytest.raises(ReadOnly):
            s.execute(update(Game).where(Game.id == gid).values(name="Renamed by a statement"))
    with reading() as s:
        s.add(Seat(game_id=gid, name="Intruso"))
        with pytest.raises(ReadOnly):
            s.flush()
    with reading() as s:  # reading, and a flush with nothing changed, is what it is for
        game = s.get(Game, gid)
        game.name = game.name  # set, not changed
        s.flush()
        assert s.scalar(select(Seat.name).where(Seat.game_id == gid, Seat.name == "Bruno")) == "Bruno"
    with factory() as s:
        assert s.get(Game, gid).name != "Renamed by a statement"
        assert s.scalar(select(Seat).where(Seat.name == "Intruso")) is None


def test_the_reserved_page_reads_outside_a_transaction_on_postgresql_and_a_vote_inside_one(app, factory, clock):
    day_one(app, factory, clock)
    bruno = logged_in(app, "Bruno")
    engine = app.extensions["pbm_engine"]
    seen: list[tuple[str, object]] = []

    def status(conn, _cursor, statement, *_args) -> None:
        driver = conn.connection.driver_connection
        seen.append((statement.split()[0], driver.info.transaction_status
                     if engine.dialect.name == "postgresql" else driver.in_transaction))

    event.listen(engine, "before_cursor_execute", status)
    try:
        page = area(bruno)
        read = list(seen)
        seen.clear()
        assert "Registrato" in flash_of(post_form(bruno, "form-vote", {"vote": "Anna"}))
        written = list(seen)
    finally:
        event.remove(engine, "before_cursor_execute", status)
    assert "form-vote" in page and len(read) >= 4
    if engine.dialect.name == "postgresql":
        # No BEGIN went before the page's statements: each ran on an idle connection.
        assert {s for _, s in read} == {TransactionStatus.IDLE}, read
        # The vote is one transaction: the INSERT inside the one that locked the phase.
        assert [s for kind, s in written if kind == "INSERT"] == [TransactionStatus.INTRANS]
    else:
        # SQLite keeps the page's transaction: one snapshot for all its reads.
        assert all(s for _, s in read[1:]), read
