"""Raw mail is kept RAW_MAIL_DAYS, then emptied by the worker's hourly job.

Emptied: the raw bytes of an inbound message (player's mail, a bounce, a
stranger's mail, a message too large to read: all are kept in
``InboundRow.raw``), and the bodies of a mail sent or refused for good
(``OutboxRow.body`` and ``body_html``: role letters, private results, links
to choose a password). What was read from them stays: the inbound row (who
wrote, when, to which game, with what outcome and errors), the actions it
recorded, the outbox row (to whom, when, which subject, its Message-ID, which
bounces are matched against). ``pruned_at`` says when, for the pages that
would have shown the text.

Never emptied: an inbound message not processed yet (``stored``), a mail not
sent yet (``pending``), however old.

Rows are emptied a few hundred at a time, each batch its own short
transaction: the boundary and the mail round wait on the same database lock.
On SQLite the freed pages are overwritten (``secure_delete``): emptied must
mean gone from the file, not only unreachable. Backups keep what they held.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session, sessionmaker

from .models import InboundRow, OutboxRow

log = logging.getLogger(__name__)

CHUNK = 200


@dataclass(frozen=True)
class Pruned:
    inbound: int
    outbox: int


def cutoff(config: dict[str, Any], now: datetime) -> datetime:
    """Mail that arrived, or was queued, before this is emptied."""
    return now - timedelta(days=int(config["RAW_MAIL_DAYS"]))


def prune(factory: sessionmaker[Session], config: dict[str, Any], now: datetime) -> Pruned:
    before = cutoff(config, now)
    inbound = _in_chunks(factory, InboundRow, now, {"raw": b""},
                         InboundRow.received_at < before, InboundRow.status != "stored")
    outbox = _in_chunks(factory, OutboxRow, now, {"body": "", "body_html": None},
                        OutboxRow.created_at < before, OutboxRow.status != "pending")
    if inbound or outbox:
        log.info("raw mail older than %s days emptied: %d received, %d sent",
                 config["RAW_MAIL_DAYS"], inbound, outbox)
    return Pruned(inbound, outbox)


def _in_chunks(factory: sessionmaker[Session], model: type[InboundRow] | type[OutboxRow], now: datetime,
               emptied: dict[str, Any], *due: Any) -> int:
    total = 0
    while True:
        with factory() as session:
            # No ORDER BY: the index on (pruned_at, arrival) finds them; sorting would
            # collect every due row first.
            ids = list(session.scalars(select(model.id).where(model.pruned_at.is_(None), *due).limit(CHUNK)))
            if not ids:
                return total
            was = None
            if session.get_bind().dialect.name == "sqlite":
                # The space the old text frees is zeroed as it is freed, in this
                # statement (Debian's SQLite does it always; a stock build does not).
                was = session.execute(text("PRAGMA secure_delete")).scalar()
                session.execute(text("PRAGMA secure_delete=ON"))
            # pruned_at still empty: another worker pruning at once counts nothing twice.
            total += session.execute(
                update(model).where(model.id.in_(ids), model.pruned_at.is_(None))
                .values(pruned_at=now, **emptied).execution_options(synchronize_session=False)).rowcount
            if was is not None:  # the pooled connection as it was
                session.execute(text(f"PRAGMA secure_delete={int(was)}"))
            session.commit()
        if len(ids) < CHUNK:
            return total
