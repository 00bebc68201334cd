"""Mail to the Master, kept: a batch fetched from the mailbox, each raw message
stored, then applied, then marked processed in the mailbox.

Order of work, so nothing is lost and nothing counts twice (docs/mail-channel.md):
1. store the raw messages of a fetched batch (one commit), each unless its
   source key is known; a second copy of a Message-ID is kept as 'duplicate';
2. apply every message's commands and queue its receipt, a commit per game
   (its phase row held only while its own messages are applied), each message
   in a savepoint of its own so that one that fails is recorded as an error and
   the others still count (apply.py);
3. only then mark the batch processed in the mailbox (one IMAP STORE).
A message stored but not yet applied (a crash between 1 and 2) is applied
when it comes back, and by ``process_stored`` on the worker's every round.
A message over INBOUND_MAX_BYTES is never downloaded: the source hands out
its headers and size, which are stored, and its sender is told once.
"""
from __future__ import annotations

import hashlib
import logging
import re
from contextlib import AbstractContextManager, nullcontext
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..models import InboundRow
from ..mail.reading.parse_body import body_text, parse_bytes
from .apply import apply_many
from ..mail.sources.mailbox import IncomingMail, MailSource, headers_of

log = logging.getLogger(__name__)


def dedupe_key(mail: IncomingMail) -> str:
    """Message-ID, or a hash of the bytes for a message without one (so a
    UIDVALIDITY change, which renames every message, still finds it)."""
    if not mail.message_id:
        return "sha256:" + hashlib.sha256(mail.raw).hexdigest()
    return fit_key(message_id_key(mail.message_id))


def message_id_key(value: str) -> str:
    """A Message-ID as RFC 5322 compares two: the part before the @ as written, the
    domain without case (``<A1@Mail.Example>`` is ``<A1@mail.example>``), the angle
    brackets and what is around them aside. Compared exactly, a copy whose domain a
    relay wrote in capitals was applied a second time."""
    found = re.search(r"<([^<>]*)>", value)
    inner = (found.group(1) if found else value).strip()
    local, at, domain = inner.rpartition("@")
    return f"<{local}@{domain.lower()}>" if at else f"<{inner}>"


def fit_key(key: str, limit: int = 400) -> str:
    """The key itself, or its hash when it is longer than the column: anyone
    can send a 1,000-character Message-ID, and a database that refused to
    store it would stop the mailbox at that message for ever."""
    if len(key) <= limit:
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def store_many(factory: sessionmaker[Session], mails: list[IncomingMail],
               now: datetime) -> list[int | None]:
    """Keep the raw messages, in one commit (the commit that must reach the disk
    before anything else happens is paid once per batch, not per message); for
    each, the id of a row still to be applied, or None if this message was
    already applied (same source key or same Message-ID). A row stored by a run
    that died before applying it is returned again, so ingest alone never loses it."""
    try:
        return _store_many(factory, mails, now)
    except IntegrityError:
        # Another worker reading the same mailbox stored some of these between
        # our look and our insert: look again, now that they are there.
        return _store_many(factory, mails, now)


def _store_many(factory: sessionmaker[Session], mails: list[IncomingMail],
                now: datetime) -> list[int | None]:
    # Two looks for the whole batch (its source keys, then the Message-IDs of
    # the new ones) and one flush of the new rows, not three statements a message.
    with factory() as session, session.begin():
        source_keys = [fit_key(mail.source_key) for mail in mails]
        known = {key: (row_id, status) for key, row_id, status in session.execute(
            select(InboundRow.source_key, InboundRow.id, InboundRow.status)
            .where(InboundRow.source_key.in_(source_keys)))}
        keys = {i: dedupe_key(mail) for i, mail in enumerate(mails) if source_keys[i] not in known}
        firsts: dict[str, tuple[int, str]] = {}
        if keys:
            # Rows stored before the keys were compared as RFC 5322 does kept the
            # Message-ID as written: asked for in that form too.
            written = {fit_key(m.message_id) for i, m in enumerate(mails) if i in keys and m.message_id}
            for key, row_id, status in session.execute(
                    select(InboundRow.message_id, InboundRow.id, InboundRow.status)
                    .where(InboundRow.message_id.in_(set(keys.values()) | written)).order_by(InboundRow.id)):
                firsts.setdefault(key if key.startswith("sha256:") else message_id_key(key), (row_id, status))
        out: list[int | None | InboundRow] = []
        seen: set[str] = set()
        for i, mail in enumerate(mails):
            if i not in keys:
                row_id, status = known[source_keys[i]]
                out.append(row_id if status == "stored" else None)
                continue
            key = keys[i]
            first = None if key in seen else firsts.get(key)
            duplicate = key in seen or first is not None
            seen.add(key)
            row = InboundRow(source_key=source_keys[i], message_id=key, raw=mail.raw,
                             size=mail.full_size, received_at=arrival(mail, now),
                             status="duplicate" if duplicate else "stored")
            session.add(row)
            if not duplicate:
                out.append(row)  # its id once flushed
            elif first is not None and first[1] == "stored":
                # The first copy was stored by a run that died before applying
                # it, and now comes back renamed (UIDVALIDITY): apply that one.
                out.append(first[0])
            else:
                out.append(None)
        session.flush()
        return [entry.id if isinstance(entry, InboundRow) else entry for entry in out]


def arrival(mail: IncomingMail, now: datetime) -> datetime:
    """When the mailbox received the message: what the deadline is compared to.
    Never later than now (a clock ahead of ours cannot push a vote forward)."""
    return min(mail.arrived_at, now) if mail.arrived_at is not None else now


# Messages fetched, stored and applied together: a mailbox of 10,000 unread
# messages is read 50 at a time, never all into memory at once.
FETCH_BATCH = 50


def ingest(factory: sessionmaker[Session], config: dict[str, Any], source: MailSource,
           now: datetime | Callable[[], datetime], lock: AbstractContextManager[Any] | None = None,
           until: datetime | None = None) -> int:
    """Read every new message from the source, a batch at a time; return how
    many new (not duplicate) messages were processed, whatever their outcome.

    Per batch: fetch it (a message over INBOUND_MAX_BYTES as its headers only)
    and turn its HTML into text (the slow part, with a time budget) outside
    ``lock``, the lock a boundary waits on to read the mail first; then,
    holding it, store every raw message (one commit), apply them (a commit per
    game, apply.py) and only then mark the batch processed in the mailbox.

    ``now``: the clock (a callable), read afresh for each batch as it is stored,
    or one fixed time. A round of many batches lasts; a message fetched in a
    later batch arrived later, and is stored and stamped when it is: never
    with the time the round began, which could be before a deadline the
    message itself came after (``arrival`` would then move it back in time).
    ``until``: stop once a batch holds a message that reached the mailbox at or
    after this time (a boundary reads the mail of its deadline, not the mail
    that keeps coming after it: that is the poller's).
    """
    clock = now if callable(now) else (lambda: now)
    lock = lock or nullcontext()
    cap = int(config["INBOUND_MAX_BYTES"])
    count = 0
    seen: set[str] = set()
    while True:
        fetched = source.fetch_new(limit=FETCH_BATCH, max_bytes=cap)
        batch = [m for m in fetched if m.source_key not in seen]
        if not batch:
            return count  # nothing new (or only what could not be marked: next round)
        seen.update(m.source_key for m in batch)
        for mail in batch:
            if not mail.headers_only:
                prepare(mail.raw, config)
        with lock:
            stored_at = clock()
            ids = [i for i in store_many(factory, batch, stored_at) if i is not None]
        # The lock again around each game's messages, not the batch: a boundary
        # waiting to read its mail waits for one game's, at most.
        apply_many(factory, config, ids, stored_at, lock=lock)
        count += len(ids)
        # Stored and applied, committed: now the mailbox may forget them.
        source.mark_processed_many(batch)
        if len(fetched) < FETCH_BATCH:
            return count
        if until is not None and any(arrival(m, stored_at) >= until for m in batch):
            return count  # the mail of the deadline is in; what came after is the poller's


def process_stored(factory: sessionmaker[Session], config: dict[str, Any], now: datetime,
                   lock: AbstractContextManager[Any] | None = None) -> int:
    """Apply the messages stored but never applied (a run that died between the two
    commits), a batch at a time: the worker does it on every round. ``lock``: as
    ``apply_many`` takes it, around each game's messages."""
    with factory() as session:
        ids = list(session.scalars(select(InboundRow.id).where(InboundRow.status == "stored")
                                   .order_by(InboundRow.id)))
    for start in range(0, len(ids), FETCH_BATCH):
        apply_many(factory, config, ids[start:start + FETCH_BATCH], now, lock=lock)
    return len(ids)


def prepare(raw: bytes, config: dict[str, Any]) -> None:
    """Do the slow part of reading a message (HTML to text, within its time
    budget) ahead of the parse, which then finds the text converted."""
    if len(raw) > int(config["INBOUND_MAX_BYTES"]) or not _may_hold_html(raw):
        return
    try:
        msg = parse_bytes(raw)
        _, attached, _ = body_text(msg)
        for inner in attached[:2]:
            body_text(inner)
    except Exception:  # the parse proper will meet it again, and deal with it
        log.debug("could not prepare a message", exc_info=True)


def _may_hold_html(raw: bytes) -> bool:
    """False for a message that is one plain-text part (most replies from a
    mail program): nothing to convert, and no need to parse it twice."""
    kind = headers_of(raw).get_content_type()
    return kind != "text/plain"
