"""The SMTP relay's limits: how many messages it takes a minute and a day, and
its own back-off when it answers "slow down".

A real relay caps its sender (a personal Gmail account about 500 messages a
day, Google Workspace about 2,000, many also so many a minute: docs/deploy.md).
The sender (send.py) asks ``allowance`` before each batch and sends no
more than it says: the count is of the outbox's own rows marked sent in the
last minute and in the quota's day, so it holds across workers and restarts,
and reads the injected clock (tests move a fake one instead of sleeping).
Mail over the allowance stays pending, in its class's order, until the minute
or the day has room again: it is never dropped.

The last MAIL_QUOTA_RESERVE_PERCENT of the day's quota (20 % by default) is kept
for the mail a game cannot go on without (classes.RESERVED_KINDS: phase results,
the Masters' reports, a window, role letters): everything else (receipts, links,
reminders, notices) stops at the quota less the reserve (``rooms``), so a flood of
receipts or of anonymous requests never delays a boundary by a day.

A relay that answers 421, 450, 451, 452 or 454 ("too many messages", "try again
later") is throttling: all mail waits (``throttled``), for 15 s, doubling while
such answers go on, at most an hour; the first message accepted ends the run.
The pause is a row of the database (RelayState), seen by every worker, and
each pause is logged once, not once per message.

Under a limit, one worker sends at a time (``sole_sender``): the room is reckoned
from what was sent, and two workers reckoning it at once each sent it whole.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from ...models import OutboxRow, RelayState

log = logging.getLogger(__name__)

# 454: Amazon SES's "Throttling failure: Maximum sending rate exceeded" (and "Daily
# message quota exceeded"), after DATA; elsewhere a temporary failure of the whole
# session (TLS, authentication), which waiting on the relay suits as well.
THROTTLING = frozenset({421, 450, 451, 452, 454})
MINUTE = timedelta(minutes=1)
DAY = timedelta(days=1)
FIRST_PAUSE = timedelta(seconds=15)
LONGEST_PAUSE = timedelta(hours=1)
ROLLING = "rolling"
DEFAULT_RESERVE_PERCENT = 20
_CLOCK_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


class LimitsError(ValueError):
    """A relay limit set to something that is not one: the service refuses to start
    (config.py reads the limits with ``Limits.from_config`` and reports this as its own
    ConfigError; this module imports nothing of the configuration's)."""


@dataclass(frozen=True)
class Limits:
    """MAIL_RATE_PER_MINUTE and MAIL_DAILY_QUOTA (0: no limit, the embedded
    server's default); the quota's day is MAIL_QUOTA_RESET: "rolling" (the last
    24 hours, as Gmail counts) or a time of day, "00:00", in MAIL_QUOTA_TIMEZONE."""

    per_minute: int = 0
    per_day: int = 0
    reset_at: time | None = None  # None: a rolling 24 hours
    zone: ZoneInfo = ZoneInfo("UTC")
    reserve: int = 0  # of per_day, for classes.RESERVED_KINDS alone

    @classmethod
    def from_config(cls, config: dict) -> "Limits":
        per_minute = config.get("MAIL_RATE_PER_MINUTE") or 0
        per_day = config.get("MAIL_DAILY_QUOTA") or 0
        for key, value in (("MAIL_RATE_PER_MINUTE", per_minute), ("MAIL_DAILY_QUOTA", per_day)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise LimitsError(f"{key} = {value!r} should be a whole number of messages, 0 for no limit.")
        reset = str(config.get("MAIL_QUOTA_RESET") or ROLLING).strip()
        reset_at = None
        if reset != ROLLING:
            found = _CLOCK_TIME.match(reset)
            if not found:
                raise LimitsError(f"MAIL_QUOTA_RESET = {reset!r} should be \"rolling\" or a time of day "
                                  "such as \"00:00\".")
            reset_at = time(int(found.group(1)), int(found.group(2)))
        percent = config.get("MAIL_QUOTA_RESERVE_PERCENT", DEFAULT_RESERVE_PERCENT)
        if not isinstance(percent, int) or isinstance(percent, bool) or not 0 <= percent <= 90:
            raise LimitsError(f"MAIL_QUOTA_RESERVE_PERCENT = {percent!r} should be a whole number from 0 to 90 "
                              "(the part of the daily quota kept for phase results and the Masters' reports).")
        name = str(config.get("MAIL_QUOTA_TIMEZONE") or "UTC")
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise LimitsError(f"MAIL_QUOTA_TIMEZONE = {name!r} is not a time zone (e.g. America/Los_Angeles).") from None
        return cls(per_minute, per_day, reset_at, zone, per_day * percent // 100)

    @property
    def limited(self) -> bool:
        return bool(self.per_minute or self.per_day)

    def day_began(self, now: datetime) -> datetime:
        """Where the quota's day that holds ``now`` began (sends from it on count)."""
        if self.reset_at is None:
            return now - DAY
        local = now.astimezone(self.zone)
        began = datetime.combine(local.date(), self.reset_at, tzinfo=self.zone)
        if began > local:
            began = datetime.combine(local.date() - timedelta(days=1), self.reset_at, tzinfo=self.zone)
        return began

    def next_reset(self, now: datetime) -> datetime | None:
        """When a fixed quota day next begins (None for a rolling one)."""
        if self.reset_at is None:
            return None
        local = self.day_began(now).astimezone(self.zone)
        return datetime.combine(local.date() + timedelta(days=1), self.reset_at, tzinfo=self.zone)


# The PostgreSQL advisory lock of the one sender under a relay's limits: the
# resolvers' namespace ("LU"), a key no phase has (pbm/operations/boundary.py).
SENDER_LOCK = (0x4C55, -2)


@contextmanager
def sole_sender(factory: sessionmaker[Session], limits: Limits) -> Iterator[bool]:
    """Whether this worker may send now, held until the block ends. Under a relay's
    limits one worker sends at a time: each reckons the minute's and the day's room
    from what was sent, and two reckoning at once each sent the same room (18 refused
    of 10,000 at a relay of 1,000 a minute, bench_outbox_drain.py), which costs the
    relay's pause. On PostgreSQL the first takes a lock, held by a transaction of its
    own until its batch ends; the others pass this round (there the relay sets the
    pace, not the worker: one worker sends some 90 a second). Without limits every
    worker sends. SQLite lets one writer through at a time, not one sender: two
    workers on one SQLite file may still each send a minute's room (its deployment,
    the embedded default, runs one)."""
    if not limits.limited:
        yield True
        return
    with factory() as holder:
        if holder.get_bind().dialect.name != "postgresql":
            yield True
            return
        yield bool(holder.scalar(select(func.pg_try_advisory_xact_lock(*SENDER_LOCK))))


def sent_since(session: Session, since: datetime) -> int:
    """Messages the relay accepted at ``since`` or after (the index on sent_at).
    At: a send stamped at the very reset counts in the day it opens, and one
    stamped a minute ago still counts in the last minute (the safe side)."""
    return session.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.sent_at >= since)) or 0


def used_today(session: Session, limits: Limits, now: datetime) -> int:
    return sent_since(session, limits.day_began(now))


def allowance(session: Session, limits: Limits, now: datetime) -> int | None:
    """How many messages may go now (None: no limit)."""
    return rooms(session, limits, now)[0]


def rooms(session: Session, limits: Limits, now: datetime) -> tuple[int | None, int | None]:
    """How many messages may go now: of any kind, and of a kind outside the reserve
    (classes.RESERVED_KINDS); None: no limit."""
    room, general = [], []
    if limits.per_minute:
        minute = limits.per_minute - sent_since(session, now - MINUTE)
        room.append(minute)
        general.append(minute)
    if limits.per_day:
        used = used_today(session, limits, now)
        if used >= limits.per_day:
            _log_quota_spent(limits, now)
        room.append(limits.per_day - used)
        general.append(limits.per_day - limits.reserve - used)
    if not room:
        return None, None
    return max(min(room), 0), max(min(general), 0)


_quota_logged: set[datetime] = set()


def _log_quota_spent(limits: Limits, now: datetime) -> None:
    """Once per quota day (per process): the day's quota is spent, mail waits."""
    day = limits.day_began(now) if limits.reset_at is not None else now.replace(minute=0, second=0, microsecond=0)
    if day not in _quota_logged:
        _quota_logged.add(day)
        reset = limits.next_reset(now)
        log.warning("the relay's daily quota of %d messages is spent; mail waits %s", limits.per_day,
                    f"until {reset.isoformat()}" if reset else "for the oldest sends of the last 24 hours to age out")


def is_throttling(code: object) -> bool:
    return isinstance(code, int) and code in THROTTLING


def pause_for(strikes: int) -> timedelta:
    """15 s at the first throttling answer, doubling while they go on, at most an hour."""
    return min(FIRST_PAUSE * 2 ** min(max(strikes - 1, 0), 20), LONGEST_PAUSE)


def relay_key(config: dict) -> str:
    return f"{config.get('MAIL_SERVER')}:{config.get('MAIL_PORT')}"


def state(session: Session, relay: str) -> RelayState | None:
    return session.get(RelayState, relay)


def paused_until(session: Session, relay: str, now: datetime) -> datetime | None:
    row = state(session, relay)
    if row is not None and row.paused_until is not None and row.paused_until > now:
        return row.paused_until
    return None


def throttled(session: Session, relay: str, now: datetime, answer: str) -> datetime:
    """The relay said "slow down": pause all mail to it; the caller commits."""
    row = state(session, relay)
    if row is None:
        row = RelayState(relay=relay, strikes=0, last_answer="")
        session.add(row)
    row.strikes = (row.strikes or 0) + 1
    row.paused_until = now + pause_for(row.strikes)
    row.last_answer = answer[:2000]
    log.warning("the relay %s is throttling (%s): all mail waits until %s (pause %d in a row)",
                relay, answer, row.paused_until.isoformat(), row.strikes)
    return row.paused_until


def relieved(session: Session, relay: str) -> None:
    """A message accepted after throttling answers: the next pause starts short
    again. Writes only when there was a run to end; the caller commits."""
    row = state(session, relay)
    if row is not None and row.strikes:
        log.info("the relay %s accepts mail again after %d throttling answers", relay, row.strikes)
        row.strikes = 0
        row.paused_until = None
