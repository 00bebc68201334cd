"""The outbox after a 10,000-game boundary: how long its 410,000 mails take to leave,
through a relay that takes them at once and through one that allows N a minute.

The fill (not timed), on a throwaway PostgreSQL cluster (bench_boundary_1000's: the
tests' PostgresServer, fsync off), the engine a deployment of that size runs on: 10
games of 40 players at their first day's deadline (bench_boundary_1000.seed, every
vote in) turn over in one real boundary (operations.resolve_due), which queues their
410 mails as the service writes them: each player's results (private results for a
player with lines of their own, the bulletin for the rest), the Masters' reports, with
their HTML alternatives, shared parts, headers and classes. One INSERT ... SELECT then
copies those rows round until the outbox holds ``--mails`` pending ones (410,000 by
default: what 10,000 such games leave): each copy has its own Message-ID and its own
recipient (the copy's number in front of the address), the rest is the boundary's row
as it was. The ten games' next deadlines are moved a month on, so that no boundary
falls during a drain. Each run starts from a copy of that database.

1. To aiosmtpd: 1, then 2, `pbm worker` processes (the deployment's own scheduler,
   its outbox job every 5 s, on the real clock) send to an aiosmtpd server in a process
   of its own that accepts each message at once (bench_mail_out.py's: a relay that
   queues fast). Timed from the first message the server accepted to the moment no
   row is pending any more (polled every 0.25 s); the rate of each half of the run
   is printed too (a rate that holds from the first half to the second is what lets
   a smaller size stand for 410,000). Also the CPU each process spent: the workers,
   the SMTP server, PostgreSQL. Checked: the server got as many distinct Message-IDs
   as there are rows, none twice, and every row is marked sent.
2. To a relay that allows N a minute (``--per-minute``, the service told the same
   MAIL_RATE_PER_MINUTE): tests/fixtures/quota_relays.py's RateLimitedRelay (aiosmtpd,
   421 beyond N in the last minute), its minute and the service's the injected clock,
   as in bench_mail_quota.py, but a clock that moves with the real time while the
   worker's outbox job runs and jumps to the job's next tick (every 5 s) between runs,
   as `pbm worker`'s scheduler sees time: a clock that stood still during a run would
   hide that the relay takes a run's messages over seconds, not at one instant. One
   worker, then two (threads, on the one injected clock), ``--relay-mails`` (ten
   minutes' worth of N by default). Checked: each message accepted once, never more
   than N in any minute of the relay's clock; printed: the relay's refusals (421),
   and the pace, what went after the first minute's worth over the time from the first
   send to the last. From that pace and the rate of part 1, what 410,000 mails of
   this composition take at N and at the published limits of typical relays, the
   private class (pbm/mail/outbound/classes.py) first.

The figures go to bench/results.json as ``outbox_drain`` (410,000 mails) or
``outbox_drain_<N>_mails``.

    .venv/bin/python bench/bench_outbox_drain.py [--mails 410000] [--workers 1 2]
        [--per-minute 1000] [--relay-mails 10000] [--no-relay] [--quick]
"""
from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from _support import ROOT, record, scratch, service_app  # first: it puts the checkout on sys.path

from sqlalchemy import create_engine, func, select, text, update
from sqlalchemy.engine import Engine

from bench_boundary_1000 import MONDAY_2100, PLAYERS, Databases, databases, seed
from bench_mail_out import received, start_smtpd
from bench_mail_quota import STEP
from bench_rush import Service
from pbm import operations
from pbm.app import create_app
from pbm.clock import Clock, FixedClock
from pbm.mail.outbound import classes
from pbm.migrate import upgrade
from pbm.models import OutboxRow, PhaseRow
from pbm.worker import Worker
from tests.fixtures.postgres import PostgresServer
from tests.fixtures.quota_relays import RateLimitedRelay
from tests.fixtures.smtp import free_port

BOUNDARY_MAILS = 410_000  # 10,000 games of 40 players and their Masters
MODEL_GAMES = 10
POLL = 0.25
PROGRESS = 10.0  # seconds between counts of what was sent
CLASS_NAMES = {classes.URGENT: "receipts and links", classes.PRIVATE: "private results and the Masters' reports",
               classes.BULK: "bulletins", classes.TALK: "talk"}


# --------------------------------------------------------------------------- the fill

def model_boundary(dbs: Databases, folder: Path) -> str:
    """A database whose outbox holds what one real boundary of MODEL_GAMES queued."""
    url = dbs.new()
    upgrade(url)
    app = create_app({"DATABASE_URL": url}, instance=folder, clock=FixedClock(MONDAY_2100))
    factory = app.extensions["pbm_sessions"]
    seed(factory, app.config, MODEL_GAMES)
    done = operations.resolve_due(factory, app.config, MONDAY_2100)
    assert len(done) == MODEL_GAMES, done
    engine = app.extensions["pbm_engine"]
    with engine.begin() as conn:
        # The nights just opened: a month away, so no `pbm worker` resolves one meanwhile.
        conn.execute(update(PhaseRow).where(PhaseRow.status == "open")
                     .values(ends_at=datetime.now(timezone.utc) + timedelta(days=30)))
    engine.dispose()
    return url


def fill(dbs: Databases, model: str, mails: int) -> str:
    """A copy of the model boundary whose outbox holds ``mails`` pending rows: the
    boundary's own rows copied round, each copy its own Message-ID and recipient."""
    url = dbs.copy(model)
    engine = create_engine(url)
    columns = [c.name for c in OutboxRow.__table__.columns if c.name != "id"]
    made = {"to_addr": "'c' || n || '.' || m.to_addr",
            "message_id": "'<' || md5(n || '.' || m.id) || '@lupus.test>'"}
    with engine.begin() as conn:
        last_model = conn.scalar(select(func.max(OutboxRow.id)))
        per_copy = conn.scalar(select(func.count()).select_from(OutboxRow))
        conn.execute(text(
            f"INSERT INTO outbox ({', '.join(columns)}) "
            f"SELECT {', '.join(made.get(c, 'm.' + c) for c in columns)} "
            f"FROM generate_series(1, :copies) AS n CROSS JOIN outbox AS m WHERE m.id <= :last "
            f"ORDER BY n, m.id LIMIT :mails"),
            {"copies": math.ceil(mails / per_copy), "last": last_model, "mails": mails})
        conn.execute(text("DELETE FROM outbox WHERE id <= :last"), {"last": last_model})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM ANALYZE outbox"))
    engine.dispose()
    return url


def composition(engine: Engine) -> dict[str, Any]:
    """The outbox's rows by class and kind, and the average size of what they keep."""
    with engine.connect() as conn:
        by_class = dict(conn.execute(select(OutboxRow.priority, func.count()).group_by(OutboxRow.priority)).all())
        by_kind = dict(conn.execute(select(OutboxRow.kind, func.count()).group_by(OutboxRow.kind)).all())
        body, html = conn.execute(select(func.avg(func.length(OutboxRow.body)),
                                         func.avg(func.length(OutboxRow.body_html)))).one()
    return {"by_class": {int(k): v for k, v in sorted(by_class.items())}, "by_kind": by_kind,
            "body_chars": round(float(body or 0)), "html_own_chars": round(float(html or 0))}


# --------------------------------------------------------------------------- 1. to aiosmtpd

def waiting(conn) -> bool:
    return conn.scalar(select(OutboxRow.id).where(OutboxRow.status == "pending").limit(1)) is not None


def drain_to_aiosmtpd(url: str, folder: Path, workers: int, mails: int, pg: PostgresServer) -> dict[str, Any]:
    """``workers`` `pbm worker` processes drain the outbox to aiosmtpd."""
    port = free_port()
    server = start_smtpd(port)
    env = {name: value for name, value in os.environ.items() if not name.startswith("PBM_")}
    (folder / "maildir").mkdir(exist_ok=True)
    env.update({"PBM_INSTANCE": str(folder), "PBM_DATABASE_URL": url,
                "PBM_MAIL_SOURCE": json.dumps({"kind": "maildir", "path": str(folder / "maildir")}),
                "PBM_MAIL_SERVER": "127.0.0.1", "PBM_MAIL_PORT": str(port),
                "PBM_MASTER_ADDRESS": "lupus@lupus.test", "PBM_NOREPLY_ADDRESS": "noreply@lupus.test",
                "PBM_BASE_URL": "http://lupus.test"})
    service = Service(folder, env, 0)
    names = [f"worker{i + 1}" for i in range(workers)]
    # bench_rush's Service reads a process's CPU (and its children's) from /proc: the
    # SMTP server and PostgreSQL's postmaster (its backends are its children) are
    # looked at through it too, for the moment of reading only.
    others: dict[str, Any] = {"smtpd": server,
              "postgres": SimpleNamespace(pid=int((pg.data / "postmaster.pid").read_text().split()[0]))}

    def cpu(name: str) -> float:
        service.processes[name] = others[name]
        try:
            return service.cpu_seconds(name)
        finally:
            del service.processes[name]

    engine = create_engine(url)
    loads = [os.getloadavg()[0]]
    postgres_before = cpu("postgres")
    started = time.time()
    progress: list[tuple[float, int]] = []
    try:
        for name in names:
            log = open(folder / f"{name}.log", "w")
            service.processes[name] = subprocess.Popen([sys.executable, "-m", "pbm.cli", "worker"], env=env,
                                                       cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        last_said = last_counted = time.monotonic()
        with engine.connect() as conn:
            while waiting(conn):
                conn.rollback()
                for name, process in service.processes.items():
                    if process.poll() is not None:
                        raise SystemExit(f"pbm {name} exited: {(folder / f'{name}.log').read_text()[-2000:]}")
                time.sleep(POLL)
                if time.monotonic() - last_counted >= PROGRESS:
                    last_counted = time.monotonic()
                    progress.append((time.time(), conn.scalar(select(func.count()).select_from(OutboxRow)
                                                              .where(OutboxRow.status == "sent"))))
                    loads.append(os.getloadavg()[0])
                if time.monotonic() - last_said >= 60:
                    last_said = time.monotonic()
                    print(f"    {time.time() - started:5.0f} s: {progress[-1][1]} sent (load average {loads[-1]:.1f})",
                          flush=True)
        done = time.time()
        loads.append(os.getloadavg()[0])
        worker_cpu = [service.cpu_seconds(name) for name in names]
        smtpd_cpu = cpu("smtpd")
        postgres_cpu = cpu("postgres") - postgres_before
    finally:
        service.stop()
        got = received(server)
    with engine.connect() as conn:
        status = dict(conn.execute(select(OutboxRow.status, func.count()).group_by(OutboxRow.status)).all())
    engine.dispose()
    rows = sum(status.values())
    if not (rows == mails and status.get("sent") == rows and got.messages == got.distinct == rows):
        raise SystemExit(f"expected {mails} mails each sent once: rows {status}, the server got {got.messages} "
                         f"({got.distinct} distinct Message-IDs)")
    seconds = done - got.first
    half = halfway(progress, got.first, rows)
    return {"workers": workers, "mails": rows, "seconds": round(seconds, 1),
            "messages_per_second": round(rows / seconds, 1),
            "first_half_per_second": round(rows / 2 / (half - got.first), 1),
            "second_half_per_second": round(rows / 2 / (done - half), 1),
            "seconds_from_the_workers_start": round(done - started, 1),
            "octets_a_message": round(got.octets / got.messages),
            "cpu_seconds_per_worker": [round(c, 1) for c in worker_cpu],
            "worker_cpu_ms_a_message": round(1000 * sum(worker_cpu) / rows, 2),
            "smtpd_cpu_seconds": round(smtpd_cpu, 1), "postgres_cpu_seconds": round(postgres_cpu, 1),
            "load_average": [round(min(loads), 1), round(max(loads), 1)]}


def halfway(progress: list[tuple[float, int]], first: float, rows: int) -> float:
    """When half the rows had been marked sent, between the two counts around it."""
    before = (first, 0)
    for at, sent in progress:
        if sent >= rows / 2:
            (t0, n0), (t1, n1) = before, (at, sent)
            return t0 + (t1 - t0) * (rows / 2 - n0) / max(n1 - n0, 1)
        before = (at, sent)
    return before[0]


# --------------------------------------------------------------------------- 2. a relay of N a minute

class _PacedRelay(RateLimitedRelay):
    """RateLimitedRelay's rule, its count of the last minute found by bisection: its
    own sums the whole list for every message, which at thousands of messages would make
    the relay, not the service, the figure."""

    def _refusal(self, stage: str) -> str | None:
        if stage != "MAIL":
            return None
        since = self.now() - timedelta(minutes=1)
        recent = len(self.accepted) - bisect.bisect_right(self.accepted, since, key=lambda a: a[1])
        if recent >= self.per_minute:
            return "421 4.7.0 Too many messages, try again later; closing connection"
        return None


def busiest_minute(times: list[datetime]) -> int:
    """The most messages accepted within any 60 s (the relay's rule: after since, up to now)."""
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - timedelta(minutes=1):
            first += 1
        most = max(most, last - first + 1)
    return most


class SchedulerClock(Clock):
    """The injected clock of the paced runs, as `pbm worker`'s scheduler sees time: its
    outbox job starts on ticks every 5 s (bench_mail_quota.STEP), and while a run lasts the
    clock moves with the real time (a run that overruns its ticks skips them, as
    APScheduler's coalesced job does). A clock that stood still during a run would hide
    that the relay took the run's messages over some seconds, not at its first instant."""

    def __init__(self, start: datetime) -> None:
        self.start, self.base, self.mark = start, start, time.perf_counter()

    def now(self) -> datetime:
        return self.base + timedelta(seconds=time.perf_counter() - self.mark)

    def next_tick(self) -> None:
        step = STEP.total_seconds()
        self.base = self.start + timedelta(seconds=step * (1 + (self.now() - self.start).total_seconds() // step))
        self.mark = time.perf_counter()


def drain_to_paced_relay(url: str, folder: Path, per_minute: int, workers: int) -> dict[str, Any]:
    """``workers`` outbox jobs (threads: they share the injected clock) against a relay of
    ``per_minute``, the service told the same."""
    clock = SchedulerClock(MONDAY_2100)
    with _PacedRelay(per_minute, clock.now) as relay:
        app = service_app(folder, clock, DATABASE_URL=url, MAIL_PORT=relay.port, MAIL_RATE_PER_MINUTE=per_minute)
        factory = app.extensions["pbm_sessions"]
        jobs = [Worker(app, clock) for _ in range(workers)]
        began = time.perf_counter()
        while True:
            runs = [threading.Thread(target=job.outbox) for job in jobs]
            for run in runs:
                run.start()
            for run in runs:
                run.join()
            with factory() as s:
                if s.scalar(select(OutboxRow.id).where(OutboxRow.status == "pending").limit(1)) is None:
                    break
            clock.next_tick()
        wall = time.perf_counter() - began
        with factory() as s:
            rows = dict(s.execute(select(OutboxRow.message_id, OutboxRow.priority)).all())
            status = dict(s.execute(select(OutboxRow.status, func.count()).group_by(OutboxRow.status)).all())
        app.extensions["pbm_engine"].dispose()
    sent = Counter(relay.ids)
    if set(sent) != set(rows) or set(sent.values()) != {1} or status != {"sent": len(rows)}:
        raise SystemExit(f"expected each of {len(rows)} mails once: {len(sent)} distinct, "
                         f"{sum(sent.values())} sent; rows {status}")
    times = [at for _, at in relay.accepted]
    # The pace: a minute's worth goes at once, the rest as the relay's minute lets it;
    # what came after the first minute's worth, over the time from the first send to the last.
    span = (times[-1] - times[0]).total_seconds() / 60
    after_first_minute = len(times) - min(per_minute, len(times))
    when = dict(relay.accepted)
    per_class = {c: round((max(when[m] for m, p in rows.items() if p == c) - MONDAY_2100).total_seconds() / 60, 1)
                 for c in sorted(set(rows.values()))}
    return {"workers": workers, "per_minute": per_minute, "mails": len(rows), "refused_by_relay": relay.throttled,
            "busiest_minute": busiest_minute(times), "pace_per_minute": round(after_first_minute / span, 1),
            "all_sent_minutes_by_class": per_class, "wall_seconds": round(wall, 1),
            "clock_minutes": round((times[-1] - MONDAY_2100).total_seconds() / 60, 1)}


# --------------------------------------------------------------------------- 410,000 at typical relays

# (name, messages a minute, recipients a day, where the figures are published); 0: none published.
RELAYS = [
    ("Gmail, a personal account", 0, 500, "support.google.com/mail/answer/22839"),
    ("Google Workspace, one user", 0, 2_000, "support.google.com/a/answer/166852"),
    ("Microsoft 365 (Exchange Online), one mailbox", 30, 10_000,
     "learn.microsoft.com/office365/servicedescriptions/exchange-online-service-description/exchange-online-limits"),
]


def hours_for(mails: int, per_minute: int, per_day: int, pace_share: float, own_rate: float) -> float:
    """Hours to send ``mails`` from an empty quota: each day's share at the pace measured
    (``pace_share`` of the minute's limit, or the service's own rate, messages/s, without
    one), then a wait for the next day."""
    rate = min(per_minute * pace_share / 60, own_rate) if per_minute else own_rate
    if not per_day or mails <= per_day:
        return mails / rate / 3600
    days = (mails - 1) // per_day
    return days * 24.0 + (mails - days * per_day) / rate / 3600


def projection(private: int, pace_share: float, per_minute: int, own_rate: float) -> list[dict[str, Any]]:
    """BOUNDARY_MAILS of the measured composition, the private class first, at N and at RELAYS."""
    return [{"relay": name, "per_minute": minute, "per_day": day, "source": source,
             "private_hours": round(hours_for(private, minute, day, pace_share, own_rate), 2),
             "all_hours": round(hours_for(BOUNDARY_MAILS, minute, day, pace_share, own_rate), 2)}
            for name, minute, day, source in [(f"a relay of {per_minute:,} a minute", per_minute, 0, "measured"),
                                              *RELAYS]]


def say_hours(hours: float) -> str:
    if hours < 1:
        return f"{hours * 60:.0f} min"
    if hours < 48:
        return f"{hours:.1f} h"
    return f"{hours / 24:.0f} days"


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=BOUNDARY_MAILS, help="pending mails to drain (default 410000)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="workers, a run each (default 1 2)")
    parser.add_argument("--per-minute", type=int, default=1000, help="the paced relay's limit (default 1000)")
    parser.add_argument("--relay-mails", type=int, default=None,
                        help="mails through the paced relay (default: ten minutes' worth)")
    parser.add_argument("--no-relay", action="store_true", help="only the drain to aiosmtpd")
    parser.add_argument("--quick", action="store_true", help="5,000 mails; 1,500 through a relay of 300 a minute")
    args = parser.parse_args(argv)
    if args.quick:
        args.mails, args.per_minute, args.relay_mails = 5_000, 300, 1_500
    relay_mails = args.relay_mails or 10 * args.per_minute
    if relay_mails < 3 * args.per_minute:
        parser.error("--relay-mails: at least three minutes' worth of --per-minute, to see a pace")
    folder = scratch()
    figures: dict[str, Any] = {"mails": args.mails}
    with databases("postgresql", folder) as dbs:
        began = time.perf_counter()
        model = model_boundary(dbs, folder)
        filled = fill(dbs, model, args.mails)
        engine = create_engine(filled)
        made = composition(engine)
        engine.dispose()
        private = round(BOUNDARY_MAILS * made["by_class"].get(classes.PRIVATE, 0) / args.mails)
        print(f"the outbox of a boundary: {args.mails} pending mails on PostgreSQL, copied from a real boundary of "
              f"{MODEL_GAMES} games of {PLAYERS} players ({time.perf_counter() - began:.0f} s): "
              + ", ".join(f"{n} {kind}" for kind, n in sorted(made["by_kind"].items()))
              + "; by class " + ", ".join(f"{c}: {n}" for c, n in made["by_class"].items())
              + f"; {made['body_chars']} characters of text and {made['html_own_chars']} of its own HTML a mail",
              flush=True)
        figures["composition"] = made
        runs = {}
        for count in args.workers:
            url = dbs.copy(filled)
            print(f"  {count} pbm worker{'s' if count > 1 else ''} -> aiosmtpd (its own process) ...", flush=True)
            run = runs[count] = drain_to_aiosmtpd(url, folder, count, args.mails, dbs.pg)
            print(f"  {count} worker{'s' if count > 1 else ''}: {run['mails']} mails in {run['seconds']:.1f} s = "
                  f"{run['messages_per_second']:.1f} messages/s (first half {run['first_half_per_second']:.1f}/s, "
                  f"second half {run['second_half_per_second']:.1f}/s), every one sent once; "
                  f"{run['octets_a_message']} octets a message on the wire; CPU: worker{'s' if count > 1 else ''} "
                  f"{' + '.join(f'{c:.1f}' for c in run['cpu_seconds_per_worker'])} s "
                  f"({run['worker_cpu_ms_a_message']:.1f} ms a message), aiosmtpd {run['smtpd_cpu_seconds']:.1f} s, "
                  f"PostgreSQL {run['postgres_cpu_seconds']:.1f} s; load average {run['load_average'][0]}-"
                  f"{run['load_average'][1]}", flush=True)
            if args.mails != BOUNDARY_MAILS:
                print(f"    at this rate {BOUNDARY_MAILS:,} would take "
                      f"{BOUNDARY_MAILS / run['messages_per_second'] / 60:.1f} min", flush=True)
        figures["aiosmtpd"] = {str(k): v for k, v in runs.items()}
        if 1 in runs:
            for count, run in runs.items():
                if count > 1:
                    print(f"  {count} workers: {run['messages_per_second'] / runs[1]['messages_per_second']:.2f}x "
                          f"the rate of one")
        paced: dict[int, dict[str, Any]] = {}
        if not args.no_relay:
            relayed = fill(dbs, model, relay_mails)
            for count in args.workers:
                print(f"  a relay of {args.per_minute} a minute, the service told so, {relay_mails} mails, {count} "
                      f"worker{'s' if count > 1 else ''}, on the injected clock ...", flush=True)
                one = paced[count] = drain_to_paced_relay(dbs.copy(relayed), folder, args.per_minute, count)
                print(f"  paced, {count} worker{'s' if count > 1 else ''}: {one['mails']} mails, "
                      f"{one['refused_by_relay']} refused by the relay (421), each accepted once; at most "
                      f"{one['busiest_minute']} in any minute; pace {one['pace_per_minute']:.0f} a minute "
                      f"({100 * one['pace_per_minute'] / args.per_minute:.0f} % of {args.per_minute}); all sent "
                      f"{one['clock_minutes']:.1f} min after the boundary on the relay's clock "
                      f"(wall time {one['wall_seconds']:.0f} s)", flush=True)
                for c, minutes in one["all_sent_minutes_by_class"].items():
                    print(f"    class {c} ({CLASS_NAMES[c]}): all sent {minutes:.1f} min after the boundary")
            figures["paced_relay"] = {str(k): v for k, v in paced.items()}
    if paced and runs:
        first = paced[min(paced)]
        pace_share = min(first["pace_per_minute"] / args.per_minute, 1.0)
        own_rate = max(run["messages_per_second"] for run in runs.values())
        rows = figures["projection_410000"] = projection(private, pace_share, args.per_minute, own_rate)
        print(f"  {BOUNDARY_MAILS:,} mails of this composition, the {private:,} of class {classes.PRIVATE} "
              f"({CLASS_NAMES[classes.PRIVATE]}) first, at {100 * pace_share:.0f} % of a minute's limit "
              f"(the pace measured) or {own_rate:.0f}/s (the service's own, measured) without one:")
        for row in rows:
            limits = " and ".join(x for x in (f"{row['per_minute']:,} a minute" if row["per_minute"] else "",
                                              f"{row['per_day']:,} a day" if row["per_day"] else "") if x)
            print(f"    {row['relay']} ({limits}; {row['source']}): class {classes.PRIVATE} all sent in "
                  f"{say_hours(row['private_hours'])}, everything in {say_hours(row['all_hours'])}")
    record("outbox_drain" if args.mails == BOUNDARY_MAILS else f"outbox_drain_{args.mails}_mails", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
