"""How bulletins reach a player (``User.bulletins``, chosen on the account page):

- "each": every phase's results by mail, as they are published (the default);
- "digest": the bulletins of a day in one mail, at DIGEST_HOUR in the reader's zone;
- "web": none by mail; the game's pages show them.

Private results are always mailed at once, whatever the choice: a phase's mail
that carries lines for this reader alone is sent as usual (its bulletin with
it). A bulletin for a digest reader is queued as any other, but ``held``
(OutboxRow.status), which the sender never picks; the worker's digest job
(``send_due``) puts a reader's held bulletins into one mail and marks them
``digested``, in one transaction: a crash sends the digest whole or not at all.
"""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from ...models import OutboxRow, User
from .outbox import queue

EACH, DIGEST, WEB = "each", "digest", "web"
MODES = (EACH, DIGEST, WEB)
# What boundary.py does with one reader's results mail.
MAIL, HOLD, WEB_ONLY = "mail", "hold", "web"
HELD, DIGESTED = "held", "digested"


def delivery(user: User, private: bool) -> str:
    """MAIL, HOLD (for the digest) or WEB_ONLY (not mailed) for a phase's results."""
    if private or user.bulletins not in (DIGEST, WEB):
        return MAIL
    return HOLD if user.bulletins == DIGEST else WEB_ONLY


def mark(how: str, message: dict[str, Any]) -> dict[str, Any]:
    """A composed message (mailer.compose), held for the digest when ``how`` says so."""
    if how == HOLD:
        message["status"] = HELD
    return message


def last_digest_time(now: datetime, hour: int, zone: str) -> datetime:
    """The latest DIGEST_HOUR in ``zone`` at or before ``now``."""
    tz = ZoneInfo(zone)
    local = now.astimezone(tz)
    at = datetime.combine(local.date(), time(hour), tzinfo=tz)
    if at > local:
        at = datetime.combine(local.date() - timedelta(days=1), time(hour), tzinfo=tz)
    return at


def _zone(user: User | None, config: dict[str, Any]) -> str:
    for name in ((user.tz if user else ""), config["DEFAULT_TIMEZONE"]):
        if name:
            try:
                ZoneInfo(name)
                return name
            except (ZoneInfoNotFoundError, ValueError):
                continue
    return "UTC"


def send_due(session: Session, config: dict[str, Any], now: datetime) -> int:
    """Queue each reader's digest whose hour has come: all their held bulletins,
    oldest first, in one mail. How many digests were queued."""
    held = session.scalars(select(OutboxRow).where(OutboxRow.status == HELD, OutboxRow.created_at <= now)
                           .order_by(OutboxRow.to_addr, OutboxRow.id)
                           .with_for_update()).all()
    if not held:
        return 0
    by_address: dict[str, list[OutboxRow]] = defaultdict(list)
    for row in held:
        by_address[row.to_addr].append(row)
    users = {u.email.lower(): u for u in session.scalars(
        select(User).where(func.lower(User.email).in_([a.lower() for a in by_address])))}
    hour = int(config["DIGEST_HOUR"])
    queued = 0
    done: list[int] = []
    for address, rows in by_address.items():
        user = users.get(address.lower())
        due = last_digest_time(now, hour, _zone(user, config))
        if rows[0].created_at > due:
            continue  # the oldest came after today's digest hour: tomorrow's
        queue(session, config, to=address, template="digest", lang=user.lang if user else "it", now=now,
                     context={"name": user.name if user else "", "items": [
                         {"subject": _untagged(r.subject), "body": _unsigned(r.body)} for r in rows]})
        done += [r.id for r in rows]
        queued += 1
    if done:
        session.execute(update(OutboxRow).where(OutboxRow.id.in_(done), OutboxRow.status == HELD)
                        .values(status=DIGESTED).execution_options(synchronize_session=False))
    return queued


def _unsigned(body: str) -> str:
    """A results mail's body without the lines under its signature that tell how to
    reply to it (the digest is no reply to it, and says how to play: issue 31); the
    game's name and address, the signature's first line, stay."""
    text, sep, signature = body.partition("\n-- \n")
    return f"{text}{sep}{signature.splitlines()[0]}\n" if sep and signature else body


def _untagged(subject: str) -> str:
    """A results mail's subject without its reply tag: the digest is not a reply to it."""
    return subject.split(" [lupus:", 1)[0]
