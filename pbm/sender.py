"""Drains the outbox through Flask-Mail, one SMTP connection per batch.

A message is marked sent right after the server accepts it, one commit per
message, so a crash re-sends at most the message in flight (with the same
Message-ID, which mail clients de-duplicate). While the server is down,
messages wait with exponential back-off; nothing is dropped.
"""
from __future__ import annotations

import logging
import smtplib
import socket
from datetime import datetime, timedelta

from flask import Flask
from flask_mail import Mail, Message
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from .models import OutboxRow, User

log = logging.getLogger(__name__)

MAX_BACKOFF = timedelta(hours=1)
BATCH = 200


def backoff(attempts: int) -> timedelta:
    return min(timedelta(seconds=15 * 2 ** max(attempts - 1, 0)), MAX_BACKOFF)


def to_message(row: OutboxRow) -> Message:
    msg = Message(subject=row.subject, recipients=[row.to_addr], body=row.body,
                  sender=row.from_addr, reply_to=row.reply_to,
                  extra_headers=dict(row.headers or {}), charset="utf-8")
    msg.msgId = row.message_id
    return msg


def due(session: Session, now: datetime, limit: int = BATCH) -> list[OutboxRow]:
    return list(session.scalars(select(OutboxRow).where(
        OutboxRow.status == "pending", OutboxRow.next_attempt_at <= now)
        .order_by(OutboxRow.id).limit(limit)))


def drain(app: Flask, factory: sessionmaker[Session], now: datetime) -> int:
    """Send what is due; return how many were sent."""
    mail: Mail = app.extensions["mail"]
    sent = 0
    with factory() as session:
        rows = due(session, now)
        if not rows:
            return 0
        try:
            with app.app_context(), mail.connect() as conn:
                for row in rows:
                    try:
                        conn.send(to_message(row))
                    except smtplib.SMTPRecipientsRefused as exc:
                        _permanent_failure(session, row, str(exc))
                    else:
                        row.status = "sent"
                        row.sent_at = now
                        row.attempts += 1
                        sent += 1
                    session.commit()
        except (OSError, smtplib.SMTPException, socket.timeout) as exc:
            session.rollback()
            _retry_later(session, [r for r in rows if r.status == "pending"], now, exc)
    return sent


def _permanent_failure(session: Session, row: OutboxRow, error: str) -> None:
    row.status = "failed"
    row.attempts += 1
    row.last_error = error[:2000]
    user = session.scalar(select(User).where(User.email == row.to_addr))
    if user is not None:
        user.address_failing = True


def _retry_later(session: Session, rows: list[OutboxRow], now: datetime, exc: Exception) -> None:
    log.warning("SMTP unavailable (%s); %d messages wait", exc, len(rows))
    for row in rows:
        row = session.merge(row)
        row.attempts += 1
        row.last_error = repr(exc)[:2000]
        row.next_attempt_at = now + backoff(row.attempts)
    session.commit()
