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


@contextmanager
def counting(app) -> Iterator[Cost]:
    """Statements sent and ORM objects loaded while the block runs."""
    cost = Cost()
    engine = app.extensions["pbm_engine"]

    def statement(*_args) -> None:
        cost.statements += 1

    def loaded(target, _context) -> None:
        cost.loaded[type(target).__name__] += 1

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(Base, "load", loaded, propagate=True)
    try:
        yield cost
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(Base, "load", loaded)
