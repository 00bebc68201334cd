"""The Master's mailbox, read through one interface.

The poller does not care whether mail for the Master sits on a real IMAP
account or in the Maildir that the embedded SMTP server writes to: both are a
``MailSource``.  The contract that keeps mail safe across crashes:

    batch = source.fetch_new(limit=50, max_bytes=cap)
    store every mail.raw and its Message-ID (skip a Message-ID already stored), commit
    apply the commands, commit
    source.mark_processed_many(batch)

Marking follows the commit, so a message is never marked before it is
stored; a batch is marked in one go (one IMAP STORE), not one by one.

``fetch_new`` returns every message not yet marked processed, including ones
it returned before, so a crash between the commit and ``mark_processed`` only
means the message comes back and is recognised by its Message-ID.  Two copies
of the same message (same Message-ID) are both returned: de-duplicating is the
caller's job, because only the caller knows what was committed.

A message larger than ``max_bytes`` is not downloaded: the source reads its
size and its header section only (at most ``HEADER_LIMIT`` bytes), and hands
it out with ``headers_only`` set, so the service can record it and answer its
sender without ever holding its body.

This module knows nothing of Flask or of the database.
"""
from __future__ import annotations

import email.message
import email.parser
import email.policy
from dataclasses import dataclass, field
from functools import cached_property
from datetime import datetime
from typing import Protocol, runtime_checkable

PROCESSED_KEYWORD = "$LupusDone"
# What is read of a message too large to download: enough for any honest
# header section (From, Subject, Message-ID, the reply address...), and a
# bound on what a message made of headers alone can cost.
HEADER_LIMIT = 64 * 1024


class MailSourceError(RuntimeError):
    """The mailbox cannot be read now (server down, login refused...)."""


@dataclass(frozen=True)
class IncomingMail:
    """One message as found in the mailbox.

    ``source_key`` is stable and unique within the source:
    ``imap:{account}:{uidvalidity}:{uid}`` or ``maildir:{path}:{key}``.
    A UIDVALIDITY change gives the same message a new key; Message-ID is
    what identifies it across such changes.
    """

    source_key: str
    raw: bytes = field(repr=False)
    uidvalidity: int | None = None
    uid: int | None = None
    maildir_key: str | None = None
    # When the mailbox received it (IMAP INTERNALDATE, the Maildir file's
    # time): a vote that reached the Master before the deadline counts even
    # if it is read after it, as long as the phase is not yet resolved.
    arrived_at: datetime | None = None
    # The whole message's size as the mailbox reports it (IMAP RFC822.SIZE);
    # when it is above the cap the source was given, ``raw`` holds the
    # header section only and ``headers_only`` is set.
    size: int | None = None
    headers_only: bool = False

    @property
    def full_size(self) -> int:
        """The bytes in ``raw``, or the size reported for a message of which
        only the headers were read (a server's RFC822.SIZE can be a little
        off, so it is trusted only where nothing else is known)."""
        if self.headers_only and self.size is not None:
            return max(self.size, len(self.raw) + 1)
        return len(self.raw)

    @cached_property
    def message_id(self) -> str | None:
        """The Message-ID header as written (angle brackets kept), or None."""
        value = headers_of(self.raw).get("Message-ID")
        if value is None:
            return None
        value = " ".join(str(value).split())
        return value or None


@runtime_checkable
class MailSource(Protocol):
    def fetch_new(self, limit: int | None = None, max_bytes: int | None = None) -> list[IncomingMail]:
        """Every message not marked processed, oldest first (at most ``limit``);
        one larger than ``max_bytes`` comes with its header section only."""

    def mark_processed(self, mail: IncomingMail) -> bool:
        """Flag the message done; False if it is no longer there as fetched
        (moved, deleted, or its UIDVALIDITY changed: it will be fetched again
        under a new key and must be recognised by Message-ID)."""

    def mark_processed_many(self, mails: list[IncomingMail]) -> list[bool]:
        """``mark_processed`` for a batch, in one go where the server allows;
        one answer per mail, in order."""

    def wait_for_mail(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds for mail that arrived after the last
        ``fetch_new``; True means "fetch now" (it can be a false alarm)."""

    def close(self) -> None:
        ...


def headers_of(raw: bytes) -> email.message.Message:
    """The headers at the start of a raw message (no more than HEADER_LIMIT bytes
    read), parsed as written: what a step needs that reads a header or two, never
    the body."""
    return email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(
        header_section(raw[:HEADER_LIMIT]))


def header_section(data: bytes) -> bytes:
    """The header section at the start of ``data``, with the empty line that
    ends it (what IMAP's BODY[HEADER] returns); all of ``data`` if it has no end."""
    ends = [i + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (i := data.find(sep)) >= 0]
    return data[:min(ends)] if ends else data
