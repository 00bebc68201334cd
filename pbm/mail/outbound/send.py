"""Drains the outbox: each row written as a message (wire.py), one SMTP connection
per batch of BATCH, batch after batch while they come full.

A message is marked sent after the server accepts it, in a commit of its
own that does not wait for the disk (``db.unflushed``): a mark lost to a
power cut (never to a crash of this process, whose writes the operating
system already holds) costs one message sent twice, never one lost, and a
flush costs more than the SMTP exchange. A sender killed after the server
accepted a message and before its mark was committed re-sends that message
when its claim runs out, with the same Message-ID (mail clients fold the
copies). What the server accepted is marked even when the connection then
fails.

While the server is down or answers 4xx, messages wait with exponential
back-off; nothing is dropped. Only a permanent (5xx) refusal ends a message:
it is marked failed, and a refused recipient's address is marked failing for
the Masters to see. A refusal is that message's alone: after any refused
command the transaction is reset (RSET, or a new connection where the relay
does not take it), so the next message opens a transaction of its own (left
open, the next MAIL FROM got "503 nested MAIL command" and the whole batch, of
every game, waited). An address the relay cannot be given (pbm/addresses.py: a
domain with no IDNA form, letters outside ASCII before the @ for a relay without
SMTPUTF8) is refused before any command is sent for it.

The relay's limits (relay_limits.py): a batch is no larger than what the
relay's minute and day still allow, and what waits goes in its class's order
(classes.py: receipts and links, then private results, then
bulletins), oldest first. A throttling answer (421, 450-452, 454) pauses the relay
as a whole: the batch stops, its messages wait for the pause to end, in their
places. Only a throttling answer to one recipient (RCPT) also counts against
that message, so one mailbox that stays unavailable cannot hold up the rest.

Two workers may drain at once: each first claims its batch (moving the rows'
next attempt a LEASE ahead, in one short transaction) and sends only what it
claimed, so no message goes out twice. A worker that dies holding a claim
leaves its messages pending: they go out when the lease runs out.
"""
from __future__ import annotations

import logging
import smtplib
import socket
import ssl
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from email.utils import parseaddr

from flask import Flask
from flask_mail import Mail
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from ... import addresses, retention, tls
from ...db import unflushed
from ...models import OutboxRow, User
from . import classes, relay_limits
from .wire import to_message

log = logging.getLogger(__name__)

MAX_BACKOFF = timedelta(hours=1)
BATCH = 200
# Flask-Mail opens its connections without a timeout; a server that accepts
# the connection and then hangs would stall the worker's outbox job for ever.
SMTP_TIMEOUT = 30.0
# How long a claimed batch is this worker's; it stops sending at half of it.
LEASE = timedelta(minutes=10)
# One drain goes on to the next batch while they come full, for at most this
# long: a boundary of many games queues thousands of messages, and the worker's
# job runs every 5 s (one batch a run would cap the outbox at 40 messages/s).
# Its next run goes on. Given the clock, a drain reads it again for each batch and
# for each mark (``drain``).
DRAIN_SECONDS = 60.0
# The marks of accepted messages are committed every MARK_EVERY messages (the
# most a crash can re-send), or after a message that ends MARK_SECONDS after
# the last commit, whichever comes first: one by one, as their commits do not
# wait for the disk.
MARK_EVERY = 1
MARK_SECONDS = 0.5


def backoff(attempts: int) -> timedelta:
    """15 s after the first failure, doubling, at most an hour."""
    # The exponent is capped: a server down for days must not overflow timedelta.
    return min(timedelta(seconds=15 * 2 ** min(max(attempts - 1, 0), 20)), MAX_BACKOFF)


def due(session: Session, now: datetime, limit: int | None = None, general: int | None = None) -> list[OutboxRow]:
    """What may go now: the first class first, the oldest first within it; of the
    kinds outside the quota's reserve (classes.RESERVED_KINDS), at most ``general``."""
    limit = limit or BATCH
    waiting = select(OutboxRow).where(OutboxRow.status == "pending", OutboxRow.next_attempt_at <= now) \
        .order_by(OutboxRow.priority, OutboxRow.id)
    if general is None or general >= limit:
        return list(session.scalars(waiting.limit(limit)))
    found = list(session.scalars(waiting.where(OutboxRow.kind.in_(classes.RESERVED_KINDS)).limit(limit)))
    if general:
        found += session.scalars(waiting.where(OutboxRow.kind.not_in(classes.RESERVED_KINDS)).limit(general))
    return sorted(found, key=lambda r: (r.priority, r.id))[:limit]


def claim(session: Session, rows: list[OutboxRow], now: datetime) -> list[OutboxRow]:
    """The rows no other worker has taken, now taken by this one until now + LEASE."""
    # End the read first: the claim must be the first statement of its own
    # transaction, or SQLite would refuse it after another worker's commit.
    session.commit()
    if not rows:
        return []
    taken = set(session.scalars(
        update(OutboxRow).where(OutboxRow.id.in_([r.id for r in rows]), OutboxRow.status == "pending",
                                OutboxRow.next_attempt_at <= now)
        .values(next_attempt_at=now + LEASE).returning(OutboxRow.id)
        .execution_options(synchronize_session=False)))
    session.commit()
    return [r for r in rows if r.id in taken]


def _release(session: Session, rows: list[OutboxRow], now: datetime) -> None:
    """Claimed rows this round did not reach: due again at once."""
    if rows:
        session.execute(update(OutboxRow).where(OutboxRow.id.in_([r.id for r in rows]),
                                                OutboxRow.status == "pending")
                        .values(next_attempt_at=now).execution_options(synchronize_session=False))
        session.commit()


def connect(mail: Mail, timeout: float = SMTP_TIMEOUT, ca_file: str | None = None) -> smtplib.SMTP:
    """An SMTP connection with Flask-Mail's settings and a timeout; TLS (SMTPS
    or STARTTLS) verified against the system's authorities or ``ca_file``."""
    context = tls.client_context(ca_file)
    host: smtplib.SMTP
    try:
        if mail.use_ssl:
            host = smtplib.SMTP_SSL(mail.server, mail.port, timeout=timeout, context=context)
        else:
            host = smtplib.SMTP(mail.server, mail.port, timeout=timeout)
    except ssl.SSLCertVerificationError as exc:
        raise _unverified(mail, exc) from exc
    try:
        if mail.use_tls:
            host.starttls(context=context)
        if mail.username and mail.password:
            host.login(mail.username, mail.password)
    except ssl.SSLCertVerificationError as exc:
        host.close()
        raise _unverified(mail, exc) from exc
    except BaseException:
        host.close()
        raise
    return host


def _unverified(mail: Mail, exc: ssl.SSLCertVerificationError) -> tls.CertificateNotVerified:
    error = tls.not_verified("SMTP relay", mail.server, mail.port, exc, "MAIL_CA_FILE")
    log.error("%s", error)
    return error


class _Connection:
    """A batch's SMTP connection, put back in a clean state after a refusal."""

    def __init__(self, open_connection: Callable[[], smtplib.SMTP]) -> None:
        self._open = open_connection
        self.host = open_connection()

    @property
    def smtputf8(self) -> bool:
        return bool(self.host.has_extn("smtputf8"))

    def reset(self) -> None:
        """After a refused command: RSET, so that the next message's MAIL FROM opens a
        transaction of its own; a relay that does not take it gets a new connection
        (an error opening it is the caller's, as the first connection's is)."""
        try:
            code, _text = self.host.rset()
            if code == 250:
                return
        except (OSError, smtplib.SMTPException):
            pass
        _quit(self.host)
        self.host = self._open()

    def close(self) -> None:
        _quit(self.host)


class _ServerGone(Exception):
    """The connection or the server failed: every message still pending waits."""


class _Throttled(Exception):
    """The relay answered "slow down" (421, 450-452, 454): all mail waits, not this
    message alone. ``row``: the message it answered for one recipient, which
    waits its own back-off too."""

    def __init__(self, code: int, text: bytes | str, row: OutboxRow | None = None) -> None:
        detail = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
        super().__init__(f"{code} {detail}")
        self.code, self.row = code, row


def drain(app: Flask, factory: sessionmaker[Session], now: datetime,
          clock: Callable[[], datetime] | None = None) -> int:
    """Send what is due, a batch (one SMTP connection) after another while
    they come full, for at most DRAIN_SECONDS; return how many were sent.

    ``clock`` (the worker's): read again for each batch, and for each mark, so that a
    message's sent_at is when the relay took it. The relay's minute counts from there:
    stamped with the moment the run began, a run that took the relay a while looked a
    minute old too soon, and the next run met a 421. Without it, ``now`` throughout."""
    read = clock or (lambda: now)
    sent = 0
    began = time.monotonic()
    while True:
        batch_sent, more = _drain_batch(app, factory, read(), read)
        sent += batch_sent
        if not more or time.monotonic() - began > DRAIN_SECONDS:
            return sent


def _drain_batch(app: Flask, factory: sessionmaker[Session], now: datetime,
                 clock: Callable[[], datetime]) -> tuple[int, bool]:
    """Claim and send one batch: (how many were sent, whether more may be due)."""
    mail: Mail = app.extensions["mail"]
    relay = relay_limits.relay_key(app.config)
    limits = relay_limits.Limits.from_config(app.config)
    with relay_limits.sole_sender(factory, limits) as sending, factory() as session:
        if not sending:  # another worker is sending within the relay's limits
            return 0, False
        pause = relay_limits.state(session, relay)
        if pause is not None and pause.paused_until is not None and pause.paused_until > now:
            return 0, False
        limit, general = relay_limits.rooms(session, limits, now)
        if limit == 0:
            return 0, False
        limit = BATCH if limit is None else min(limit, BATCH)
        found = due(session, now, limit, general)
        more = len(found) == limit
        rows = claim(session, found, now)
        if not rows:
            return 0, more
        marks = _Marks(session, clock)
        handled: set[int] = set()
        started = time.monotonic()
        try:
            with app.app_context():
                link = _Connection(lambda: connect(mail, ca_file=app.config.get("MAIL_CA_FILE")))
                try:
                    suspect: _Throttled | None = None
                    for row in rows:
                        if time.monotonic() - started > LEASE.total_seconds() / 2:
                            break  # a slow server: leave the rest before the claim runs out
                        try:
                            accepted = _send_one(session, link, row, now, app.config)
                        except _Throttled as exc:
                            if exc.row is None or suspect is not None:
                                raise
                            # One recipient's "try later": the relay's, or that mailbox's?
                            # The next message tells; until then this one keeps its place.
                            suspect = exc
                            continue
                        if suspect is not None:  # the relay took the next: it was the mailbox
                            _mailbox_busy(session, suspect, handled, now)
                            suspect = None
                        handled.add(row.id)
                        if accepted:
                            marks.add(row.id)
                        else:  # refused: that message alone, the next starts clean
                            link.reset()
                        marks.write_if_due()
                    if suspect is not None:  # the batch's last message: told apart by no other
                        _mailbox_busy(session, suspect, handled, now)
                    marks.write()
                finally:
                    link.close()
        except _Throttled as exc:
            _throttled(session, marks, relay, rows, handled, now, exc)
            return marks.sent, False
        except (OSError, smtplib.SMTPException, _ServerGone) as exc:
            code = getattr(exc, "smtp_code", None)
            if relay_limits.is_throttling(code):  # at the greeting or login
                _throttled(session, marks, relay, rows, handled, now, _Throttled(code, getattr(exc, "smtp_error", b"")))
                return marks.sent, False
            marks.write()  # what the server accepted before it failed stays sent
            _retry_later(session, [r for r in rows if r.id not in handled], now, exc)
            return marks.sent, False
        except BaseException:
            marks.write_before_raising()
            raise
        if marks.sent and pause is not None and pause.strikes:
            relay_limits.relieved(session, relay)
            session.commit()
        unreached = [r for r in rows if r.id not in handled]
        _release(session, unreached, now)
    return marks.sent, more and not unreached


def _mailbox_busy(session: Session, suspect: _Throttled, handled: set[int], now: datetime) -> None:
    """A "try later" for one recipient while the relay took other mail: that
    message alone waits, with its own back-off."""
    assert suspect.row is not None
    _refused(session, suspect.row, suspect.code, str(suspect).split(" ", 1)[-1], now, recipient=True)
    handled.add(suspect.row.id)


def _throttled(session: Session, marks: "_Marks", relay: str, rows: list[OutboxRow], handled: set[int],
               now: datetime, exc: _Throttled) -> None:
    """The relay throttles: what it accepted stays sent, the relay pauses, and
    every message not sent waits in its place (the pause, not its own back-off)."""
    marks.write()
    if marks.sent:  # it took mail before saying so: a new run of answers, its pause starts short
        relay_limits.relieved(session, relay)
    relay_limits.throttled(session, relay, now, str(exc))
    session.commit()
    _release(session, [r for r in rows if r.id not in handled], now)


class _Marks:
    """The messages the server accepted, marked sent in one UPDATE and one
    commit every MARK_EVERY messages or MARK_SECONDS, stamped with the clock as
    they are written; refusals recorded on the rows meanwhile are committed with them."""

    def __init__(self, session: Session, clock: Callable[[], datetime]) -> None:
        self.session, self.clock = session, clock
        self.waiting: list[int] = []
        self.sent = 0
        self.since = time.monotonic()

    def add(self, row_id: int) -> None:
        self.waiting.append(row_id)
        self.sent += 1

    def write_if_due(self) -> None:
        if len(self.waiting) >= MARK_EVERY or time.monotonic() - self.since >= MARK_SECONDS:
            self.write()

    def write(self) -> None:
        if self.waiting:
            unflushed(self.session)
            # Still pending: a claim that ran out and went to another worker
            # (which then sent the message too) is not counted twice.
            self.session.execute(
                update(OutboxRow).where(OutboxRow.id.in_(self.waiting), OutboxRow.status == "pending")
                .values(status="sent", sent_at=self.clock(), attempts=OutboxRow.attempts + 1)
                .execution_options(synchronize_session=False))
            retention.forget_login_links(self.session, self.waiting)  # sent: no copy of them stays
        self.session.commit()
        self.waiting = []
        self.since = time.monotonic()

    def write_before_raising(self) -> None:
        """An unexpected error: keep the marks if the database still can."""
        try:
            self.write()
        except Exception:
            log.exception("could not mark %d accepted messages sent; they will be sent again",
                          len(self.waiting))


# What a refused message records, for an address the relay cannot be given.
_UNSENDABLE = {
    addresses.NEEDS_SMTPUTF8: "letters outside ASCII before the @, and the relay does not offer SMTPUTF8",
    addresses.BAD_DOMAIN: "the domain has no IDNA form",
    addresses.INVISIBLE: "invisible characters in the address",
    addresses.NOT_PLAIN: "not one plain address",
}


def _send_one(session: Session, link: _Connection, row: OutboxRow, now: datetime,
              config: dict) -> bool:
    """True when the server accepted the message (its mark is the caller's);
    a refusal is recorded on the row (the caller resets the transaction)."""
    try:
        to = addresses.for_relay(row.to_addr, link.smtputf8)
    except addresses.AddressError as exc:
        # Refused before MAIL FROM: it would come first in every batch, and an
        # address SMTP cannot write once the transaction is open left it open.
        _refused(session, row, 553, f"cannot be sent: {_UNSENDABLE[exc.code]}", now, recipient=True)
        return False
    try:
        data = to_message(row, to).as_bytes()
        host = link.host
        host.sendmail(envelope_from(row, config), [to], data,
                      mail_options=["SMTPUTF8"] if addresses.needs_smtputf8(to) else [])
    except (UnicodeError, ValueError) as exc:
        # A message that cannot be written: it would come first in every batch
        # and hold up all the mail behind it.
        _refused(session, row, 553, f"cannot be sent: {exc}", now, recipient=True)
        return False
    except smtplib.SMTPRecipientsRefused as exc:
        code, text = next(iter(exc.recipients.values()))
        if relay_limits.is_throttling(code):
            # 421 closes the connection: the relay's, whoever it was sent for.
            raise _Throttled(code, text, None if code == 421 else row) from exc
        _refused(session, row, code, text, now, recipient=True)
        return False
    except smtplib.SMTPDataError as exc:
        if relay_limits.is_throttling(exc.smtp_code):
            raise _Throttled(exc.smtp_code, exc.smtp_error) from exc
        _refused(session, row, exc.smtp_code, exc.smtp_error, now, recipient=False)
        return False
    except smtplib.SMTPSenderRefused as exc:
        if relay_limits.is_throttling(exc.smtp_code):
            raise _Throttled(exc.smtp_code, exc.smtp_error) from exc
        # Our own sender refused: the whole batch would fail the same way.
        raise _ServerGone(f"sender refused: {exc.smtp_code} {exc.smtp_error!r}") from exc
    except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, OSError, socket.timeout) as exc:
        raise _ServerGone(repr(exc)) from exc
    return True


def envelope_from(row: OutboxRow, config: dict) -> str:
    """Where bounces go: always a mailbox the inbox reads, so a bounce marks
    the address failing. Receipts show the no-reply address in From, but
    their bounces go to the Master's address."""
    address = parseaddr(row.from_addr)[1]
    if address.lower() == str(config.get("NOREPLY_ADDRESS", "")).lower():
        return config["MASTER_ADDRESS"]
    return address


def _refused(session: Session, row: OutboxRow, code: int, text: bytes | str, now: datetime,
             recipient: bool) -> None:
    detail = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    error = f"{code} {detail}"[:2000]
    row.attempts += 1
    row.last_error = error
    if 400 <= code < 500:
        # Greylisting, a full mailbox, a busy server: try again later.
        row.next_attempt_at = now + backoff(row.attempts)
        log.info("SMTP %s for %s; retrying at %s", error, row.to_addr, row.next_attempt_at)
        return
    row.status = "failed"
    log.warning("SMTP refused mail %s to %s for good: %s", row.message_id, row.to_addr, error)
    if recipient:
        user = session.scalar(select(User).where(func.lower(User.email) == row.to_addr.lower()))
        if user is not None:
            user.address_failing = True


def _retry_later(session: Session, rows: list[OutboxRow], now: datetime, exc: Exception) -> None:
    log.warning("SMTP unavailable (%s); %d messages wait", exc, len(rows))
    for row in rows:
        row.attempts += 1
        row.last_error = repr(exc)[:2000]
        row.next_attempt_at = now + backoff(row.attempts)
    session.commit()


def _quit(host: smtplib.SMTP) -> None:
    try:
        host.quit()
    except (OSError, smtplib.SMTPException):
        host.close()
