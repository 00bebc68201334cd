"""What a request or a tick costs the database, counted rather than timed (so a
test holds on a loaded machine): the SQL statements sent, and the ORM objects loaded."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

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
def sqlite_steps(app) -> Iterator[Cost]:
    """How much work SQLite did while the block runs, in thousands of its virtual
    machine's instructions (``Cost.statements`` holds them): what a query costs however
    few rows it returns (a count over a whole room is one row, and thousands of steps)."""
    cost = Cost()
    engine = app.extensions["pbm_engine"]

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
