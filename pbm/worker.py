"""`pbm worker`: the scheduler process (APScheduler 3), never part of the web app.

Jobs: resolve every phase whose deadline has passed (oldest first, so a worker
that was down catches up in order), make the mail of the rooms' new posts and drain
the outbox, empty raw mail older
than RAW_MAIL_DAYS (hourly), the daily digests of bulletins, the rooms' digests (every five
minutes, at each reader's hours) and the Masters'
warnings of a relay quota too small for their next boundary (every ten
minutes), and a poller thread that waits on the Master's mailbox (IMAP IDLE or
Maildir polling) and ingests mail.
"""
from __future__ import annotations

import logging
import signal
import threading
from datetime import datetime, timedelta
from typing import Any

from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask
from sqlalchemy.exc import OperationalError

from . import health, operations, retention
from .operations import reminders
from .db import make_way, transaction, write_sessions
from .clock import Clock
from .handoff_lock import HandoffLock
from . import inbox
from .mail.sources import MailSourceError, open_source
from .mail.outbound import digests, send
from .telling import quota_warning, room_digests, room_mail

log = logging.getLogger(__name__)

# In a thread of its own, so a long boundary does not make the worker look dead.
HEARTBEAT_SECONDS = 10


class Worker:
    def __init__(self, app: Flask, clock: Clock | None = None) -> None:
        self.app = app
        self.config: dict[str, Any] = app.config
        # Every job writes, beside the web's requests: each transaction takes the
        # write lock as it begins (pbm.db.writing), never fails on a commit under it.
        self.factory = write_sessions(app.extensions)
        self.clock = clock or app.extensions["pbm_clock"]
        self.stopping = threading.Event()
        # One mail round at a time: the poller thread's and the one before a boundary,
        # handed over in turn so the boundary's waits for one game's mail at most.
        self.mail_lock = HandoffLock()
        self.name = health.worker_name()
        self.started_at = self.clock.now()

    # one pass of each job, also used by tests with an injected clock
    def boundaries(self, read_mail: bool = False) -> list[int]:
        """Resolve what is due; with read_mail, first read the mailbox, so a vote
        that arrived just before the deadline is in the queue when the phase closes.
        Only as far as the mail of the deadline: the round stops at the first batch
        holding a message that came at or after the latest deadline due (a vote
        after it is refused anyway), so mail that keeps arriving, and a backlog of
        it, is the poller's and never holds the boundary back."""
        now = self.clock.now()
        if read_mail:
            with self.factory() as session:
                deadline = operations.latest_due_deadline(session, now)
            if deadline is not None:
                self.mail_round(until=deadline)
            # Only what was due when the mail was read: a deadline that passed during
            # the round has mail the round did not wait for (the next tick's).
        done = operations.resolve_due(self.factory, self.config, now)
        if done:
            log.info("resolved phases %s", done)
        return done

    def heartbeat(self) -> None:
        """A sign of life for /healthz. One the database cannot take now (its write lock
        held past busy_timeout, the disk full) is said in one line, and the next beat,
        HEARTBEAT_SECONDS later, tries again: no traceback for what is not a bug."""
        try:
            health.beat(self.factory, self.name, self.started_at, self.clock.now())
        except OperationalError as exc:
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
            log.warning("heartbeat not recorded (%s); trying again in %d s", reason, HEARTBEAT_SECONDS)

    def remind(self) -> int:
        with transaction(self.factory) as session:
            return reminders.send_due(session, self.config, self.clock.now())

    def send_digests(self) -> int:
        with transaction(self.factory) as session:
            return digests.send_due(session, self.config, self.clock.now())

    def send_room_digests(self) -> int:
        with transaction(self.factory) as session:
            return room_digests.send_due(session, self.config, self.clock.now())

    def watch_quota(self) -> int:
        with transaction(self.factory) as session:
            return quota_warning.warn_masters(session, self.config, self.clock.now())

    def room_posts(self) -> int:
        """The mail of the rooms' posts made since the last run (never by the request
        that stored a post: room_mail.mail_waiting)."""
        queued = 0
        while True:
            with transaction(self.factory) as session:
                made = room_mail.mail_waiting(session, self.config, self.clock.now())
            queued += made.mails
            if made.posts < room_mail.BATCH:
                return queued
            make_way(self.factory)  # a backlog: a request waiting for SQLite's write lock goes first

    def outbox(self) -> int:
        """The posts' mail made, then what is due sent: a post is in its readers'
        mailboxes one run of this job after it was stored."""
        self.room_posts()
        return send.drain(self.app, self.factory, self.clock.now(), clock=self.clock.now)

    def prune_raw_mail(self) -> retention.Pruned:
        return retention.prune(self.factory, self.config, self.clock.now())

    def mail_once(self, source: Any, until: datetime | None = None) -> int:
        """One round of mail: what a crash left stored, then the mailbox's new mail
        (``until``: see ``inbox.ingest``). The mail lock is taken around storing a
        batch and around applying each game's messages, never a whole round, and
        the clock is read for each batch as it is stored (``inbox.ingest``)."""
        inbox.process_stored(self.factory, self.config, self.clock.now(), lock=self.mail_lock)
        return inbox.ingest(self.factory, self.config, source, self.clock.now, lock=self.mail_lock,
                              until=until)

    def mail_round(self, until: datetime | None = None) -> int:
        """Read the mailbox on a connection of its own (the poller's may be idling)."""
        try:
            source = open_source(self.config["MAIL_SOURCE"], self.config.get("MAIL_CA_FILE"))
        except (MailSourceError, OSError) as exc:
            log.warning("mailbox unavailable before a boundary: %s", exc)
            return 0
        try:
            return self.mail_once(source, until=until)
        finally:
            source.close()

    def poll_forever(self) -> None:
        source = None
        while not self.stopping.is_set():
            try:
                if source is None:
                    source = open_source(self.config["MAIL_SOURCE"], self.config.get("MAIL_CA_FILE"))
                self.mail_once(source)
                source.wait_for_mail(timeout=30)
            except MailSourceError as exc:
                log.warning("mailbox unavailable: %s", exc)
                source = None
                self.stopping.wait(10)
            except Exception:  # keep polling: one bad message must not stop the game
                log.exception("mail ingest failed")
                self.stopping.wait(5)

    def run(self) -> None:
        """Until SIGINT or SIGTERM (in the main thread): then the jobs running and
        the mail round in progress finish, and the process ends. A second signal
        ends it at once (nothing is lost either way: see docs/mailbox.md)."""
        scheduler = BlockingScheduler(timezone="UTC")
        scheduler.add_job(self.boundaries, "interval", seconds=10, id="boundaries",
                          kwargs={"read_mail": True},
                          max_instances=1, coalesce=True, next_run_time=self.clock.now())
        scheduler.add_job(self.outbox, "interval", seconds=5, id="outbox",
                          max_instances=1, coalesce=True)
        scheduler.add_job(self.remind, "interval", seconds=60, id="reminders",
                          max_instances=1, coalesce=True)
        scheduler.add_job(self.send_digests, "interval", minutes=10, id="digests",
                          max_instances=1, coalesce=True)
        scheduler.add_job(self.send_room_digests, "interval", minutes=5, id="room-digests",
                          max_instances=1, coalesce=True)
        scheduler.add_job(self.watch_quota, "interval", minutes=10, id="quota-watch",
                          max_instances=1, coalesce=True)
        scheduler.add_job(self.prune_raw_mail, "interval", hours=1, id="raw-mail-retention",
                          max_instances=1, coalesce=True,
                          next_run_time=self.clock.now() + timedelta(minutes=1))
        scheduler.add_job(self.heartbeat, "interval", seconds=HEARTBEAT_SECONDS, id="heartbeat",
                          max_instances=1, coalesce=True, next_run_time=self.clock.now())
        threading.Thread(target=self.poll_forever, name="mail-poller", daemon=True).start()
        previous = {}
        if threading.current_thread() is threading.main_thread():
            previous = {sig: signal.signal(sig, _stop_requested) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            scheduler.start()
        except _StopRequested:
            log.info("stopping: waiting for the jobs running")
        finally:
            self.stopping.set()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            if scheduler.running:
                scheduler.shutdown(wait=True)
            if self.mail_lock.acquire(timeout=60):  # a mail round in progress ends first
                self.mail_lock.release()
            try:
                health.forget(self.factory, self.name)
            except Exception:  # the database is gone: the heartbeat will simply age
                log.exception("could not remove this worker's heartbeat")


class _StopRequested(Exception):
    pass


def _stop_requested(_signum: int, _frame: Any) -> None:
    # Raised in the main thread, out of the scheduler's wait: its jobs run in
    # threads of their own and are waited for, not interrupted.
    raise _StopRequested
