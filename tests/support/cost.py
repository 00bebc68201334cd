"""What a request or a tick costs the database, counted rather than timed (so a
test holds on a loaded machine): the SQL statements sent, and the ORM objects loaded."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from pbm.models import Base


class Cost:
    def __init__(self) -> None:
        self.statements = 0
        self.loaded: Counter[str] = Counter()
        self.sent: list[str] = []  # the statements' text, in order (``counting``)

    def asked(self, start: str) -> int:
        """How many of the statements sent begin with ``start`` ("SELECT absences.")."""
        return sum(1 for text in self.sent if text.lstrip().startswith(start))


@contextmanager
def counting(app) -> Iterator[Cost]:
    """Statements sent (and their text) and ORM objects loaded while the block runs."""
    cost = Cost()
    engine = app.extensions["pbm_engine"]

    def statement(_conn, _cursor, text, *_args) -> None:
        cost.statements += 1
        cost.sent.append(text)

    def loaded(target, _context) -> None:
        cost.loaded[type(target).__name__] += 1

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(Base, "load", loaded, propagate=True)
    try:
        yield cost
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(Base, "load", loaded)


@contextmanager
def database_work(app) -> Iterator[Cost]:
    """How much the database walked while the block runs (``Cost.statements`` holds it):
    what a query costs however few rows it returns (a count over a whole room is one row,
    and thousands of rows walked). Each engine measures its own way, in units of about
    the same size: SQLite the thousands of its virtual machine's instructions, PostgreSQL
    the rows that went through every node of the plans of the block's SELECTs, in
    hundreds (each SELECT run again under EXPLAIN ANALYZE once the block is over)."""
    engine = app.extensions["pbm_engine"]
    if engine.dialect.name == "postgresql":
        with _postgresql_rows(engine) as cost:
            yield cost
        return
    cost = Cost()

    def step() -> int:
        cost.statements += 1
        return 0

    def checkout(dbapi_connection, _record, _proxy) -> None:
        dbapi_connection.set_progress_handler(step, 1000)

    def checkin(dbapi_connection, _record) -> None:
        dbapi_connection.set_progress_handler(None, 1000)

    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)
    try:
        yield cost
    finally:
        event.remove(engine, "checkout", checkout)
        event.remove(engine, "checkin", checkin)


@contextmanager
def _postgresql_rows(engine) -> Iterator[Cost]:
    cost = Cost()
    asked: list[tuple[str, Any]] = []

    def statement(_conn, _cursor, text, parameters, *_args) -> None:
        if text.lstrip().upper().startswith("SELECT"):
            asked.append((text, parameters))

    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield cost
    finally:
        event.remove(engine, "before_cursor_execute", statement)
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        rows = 0
        for text, parameters in asked:
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + text, parameters)
            rows += _rows_walked(cursor.fetchone()[0][0]["Plan"])
        cost.statements = rows // 100
        connection.rollback()
    finally:
        connection.close()


def _rows_walked(plan: dict[str, Any]) -> int:
    return int(plan.get("Actual Rows", 0) * plan.get("Actual Loops", 1)) + sum(
        _rows_walked(child) for child in plan.get("Plans", []))
