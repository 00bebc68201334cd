"""Raw mail is kept RAW_MAIL_DAYS, then emptied by the worker's hourly job.

Emptied: the raw bytes of an inbound message (player's mail, a bounce, a
stranger's mail, a message too large to read: all are kept in
``InboundRow.raw``), and the bodies of a mail sent or refused for good
(``OutboxRow.body`` and ``body_html``: role letters, private results, links
to choose a password; and the shared ends of HTML alternatives, ``OutboxPart``,
once no mail left points to them). What was read from them stays: the inbound row (who
wrote, when, to which game, with what outcome and errors), the actions it
recorded, the outbox row (to whom, when, which subject, its Message-ID, which
bounces are matched against). ``pruned_at`` says when, for the pages that
would have shown the text.

Never emptied: an inbound message not processed yet (``stored``), a mail not
sent yet (``pending``), however old.

Sooner than that, a link that logs its reader in (set-password, reset, sign-up
confirmation) leaves the stored body as soon as its mail is sent: the sender
calls ``forget_login_links`` in the transaction that marks the mail sent. The
mail went out whole; the stored copy keeps the rest of its words, so whoever
reads the database (or a backup of it) later takes no account with it.

Rows are emptied a few hundred at a time, each batch its own short
transaction: the boundary and the mail round wait on the same database lock.
On SQLite the freed pages are overwritten (``secure_delete``): emptied must
mean gone from the file, not only unreachable. Backups keep what they held.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, exists, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from .models import InboundRow, OutboxPart, OutboxRow

log = logging.getLogger(__name__)

CHUNK = 200


@dataclass(frozen=True)
class Pruned:
    inbound: int
    outbox: int


# A link carrying a token signed by pbm/accounts/tokens.py (itsdangerous: payload, timestamp
# and signature in URL-safe base64, joined by dots, the payload dot-prefixed when
# compressed): every such link logs its reader in or takes a seat, whatever its path.
_LOGIN_LINK = re.compile(r"https?://[^\s\"'<>]+?/\.?[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
LINK_REMOVED = "[link rimosso dopo l'invio / link removed once sent]"


def forget_login_links(session: Session, ids: Iterable[int]) -> None:
    """Take the login links out of the stored bodies of these mails, just sent (in
    the caller's transaction). The sender's session holds the rows it sent, so
    reading them costs no query; only a body that held a link is written."""
    for row_id in ids:
        row = session.get(OutboxRow, row_id)
        if row is None:
            continue
        body = _LOGIN_LINK.sub(LINK_REMOVED, row.body)
        html = _LOGIN_LINK.sub(LINK_REMOVED, row.body_html) if row.body_html else row.body_html
        if body != row.body or html != row.body_html:
            session.execute(update(OutboxRow).where(OutboxRow.id == row_id).values(body=body, body_html=html)
                            .execution_options(synchronize_session=False))


# How long a link lives at most (pbm/accounts/tokens.py MAX_AGE, 14 days for a welcome's): the
# hourly job looks that far back, in the mails marked as carrying one
# (``OutboxRow.login_link``), for links the sender did not take out: in mail refused
# for good, or sent before it did so.
LINK_LIFE = timedelta(days=15)


def _forget_left_login_links(factory: sessionmaker[Session], now: datetime) -> None:
    with factory() as session:
        ids = list(session.scalars(select(OutboxRow.id).where(
            OutboxRow.login_link.is_(True), OutboxRow.status != "pending", OutboxRow.pruned_at.is_(None),
            OutboxRow.created_at >= now - LINK_LIFE)))
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start:start + CHUNK]
            list(session.scalars(select(OutboxRow).where(OutboxRow.id.in_(chunk))))
            forget_login_links(session, chunk)
            session.commit()


def cutoff(config: dict[str, Any], now: datetime) -> datetime:
    """Mail that arrived, or was queued, before this is emptied."""
    return now - timedelta(days=int(config["RAW_MAIL_DAYS"]))


def prune(factory: sessionmaker[Session], config: dict[str, Any], now: datetime) -> Pruned:
    before = cutoff(config, now)
    inbound = _in_chunks(factory, InboundRow, now, {"raw": b""},
                         InboundRow.received_at < before, InboundRow.status != "stored")
    outbox = _in_chunks(factory, OutboxRow, now, {"body": "", "body_html": None, "html_part_id": None},
                        OutboxRow.created_at < before, OutboxRow.status != "pending")
    _drop_orphan_parts(factory, before)
    _forget_left_login_links(factory, now)
    if inbound or outbox:
        log.info("raw mail older than %s days emptied: %d received, %d sent",
                 config["RAW_MAIL_DAYS"], inbound, outbox)
    return Pruned(inbound, outbox)


def _drop_orphan_parts(factory: sessionmaker[Session], before: datetime) -> None:
    """Delete the old shared ends of HTML alternatives (OutboxPart) that no mail
    points to any more: each mail lets go of its part when it is emptied, and a
    mail not sent yet is never emptied, so it keeps its part."""
    with factory() as session:
        orphan = ~exists().where(OutboxRow.html_part_id == OutboxPart.id)
        with _secure_delete(session):
            session.execute(delete(OutboxPart).where(OutboxPart.created_at < before, orphan)
                            .execution_options(synchronize_session=False))
            session.commit()


@contextmanager
def _secure_delete(session: Session) -> Iterator[None]:
    """On SQLite, the space the old text frees zeroed as it is freed, in the
    statements run within (Debian's SQLite does it always; a stock build does not);
    the pooled connection left as it was."""
    was = None
    if session.get_bind().dialect.name == "sqlite":
        was = session.execute(text("PRAGMA secure_delete")).scalar()
        session.execute(text("PRAGMA secure_delete=ON"))
    yield
    if was is not None:
        session.execute(text(f"PRAGMA secure_delete={int(was)}"))


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
            with _secure_delete(session):
                # pruned_at still empty: another worker pruning at once counts nothing twice.
                done = session.execute(
                    update(model).where(model.id.in_(ids), model.pruned_at.is_(None))
                    .values(pruned_at=now, **emptied).execution_options(synchronize_session=False))
                total += cast(CursorResult[Any], done).rowcount  # an UPDATE's result counts its rows
                session.commit()
        if len(ids) < CHUNK:
            return total
