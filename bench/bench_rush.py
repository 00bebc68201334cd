"""The deadline rush: everybody at once in the last two minutes, then the boundary.

Set-up (not timed): a throwaway PostgreSQL (the tests' PostgresServer), 50 games
of 40 players on their first day (bench_boundary_1000.seed, no votes yet; the
reminders marked as sent, as they were two hours before); `pbm web --workers 2`
(gunicorn, 4 threads each), `pbm worker`, a private Dovecot as the Master's
mailbox and an SMTP server taking the outgoing mail, all on 127.0.0.1; every
player logged in (bench/rush_players.py: Locust users, one per player).

The rush: the 50 deadlines are set RUSH seconds ahead (whole second). In those
seconds every player votes once on the web (the moments crowd towards the
deadline: their density rises linearly; ``--arrivals uniform`` spreads them evenly), half of them change their vote later,
and LATE_SHARE of them try once more in the seconds after the deadline. Each vote
is what a browser does: the reserved page, then the form posted by the page's
script, answered in place with "Registrato" (refused: the page that says "Non
registrato"); with ``--no-script``, a browser without it: the form posted, the
redirect followed to "Registrato" or "Non registrato". Meanwhile MAILS replies with a vote
(``VOTO Pnn``, to lupus+TOKEN@) are appended to the Master's mailbox, spread over
the rush, the last two seconds before the deadline. Then the worker's boundary.

Report: p50/p95/p99 of the web requests of the rush; the mail lag (from the
append to the mailbox to the vote stored); the boundary (from the deadline to the
50 games published, which includes the wait for the worker's 10-second tick); and
the accounting, from the outside: every vote answered "Registrato", and every mail
that reached the mailbox before the deadline, must be what the resolution counted
for that player (the last of them: where two could have been stored in either
order, either), and no vote sent after the deadline may be recorded or counted.
Every vote's target is different from that player's others, so the resolution's
"votes" (the pyre event) say which one it counted.

Targets on the 2-core machine: web p99 under 250 ms, mail lag p99 under 30 s,
none lost, none accepted late. The exit status is 1 when the accounting fails.

    .venv/bin/pip install -e '.[bench]'      # Locust
    .venv/bin/python bench/bench_rush.py [--games 50] [--rush 120] [--mails 1000] [--seed 1]
                                         [--arrivals rising|uniform] [--no-script]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from _support import ROOT, fast_passwords, median, percentile, record, scratch  # first: it puts the checkout on sys.path

from sqlalchemy import create_engine, func, select, text, update
from werkzeug.security import generate_password_hash

from bench_boundary_1000 import PLAYERS, player_address, seed
from pbm.app import create_app
from pbm.clock import FixedClock
from pbm.migrate import upgrade
from pbm.models import ActionRow, EventRow, Game, InboundRow, OutboxRow, PhaseRow, Seat
from tests.fixtures.dovecot import DovecotServer
from tests.fixtures.postgres import PostgresServer
from tests.fixtures.smtp import SmtpServer, free_port

PASSWORD = "bench-password"  # rush_players.py logs in with it
MASTER = "lupus@lupus.test"
LATE_SHARE = 0.05
LATE_WINDOW = 5.0        # the late tries: up to this many seconds after the deadline
LAST_MAIL = 2.0          # the last mail arrives this many seconds before the deadline
TARGETS = {"web_p99_ms": 250, "mail_lag_p99_s": 30, "lost": 0, "accepted_late": 0}


# --------------------------------------------------------------------------- set-up

def set_up_database(url: str, folder: Path, games: int) -> None:
    upgrade(url)
    app = create_app({"DATABASE_URL": url}, instance=folder, clock=FixedClock(datetime.now(timezone.utc)))
    seed(app.extensions["pbm_sessions"], app.config, games, votes=False,
         password_hash=generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000"))
    engine = app.extensions["pbm_engine"]
    far = datetime.now(timezone.utc) + timedelta(days=1)
    with engine.begin() as conn:
        conn.execute(update(PhaseRow).values(ends_at=far))
        # The reminders went out two hours before the deadline, not in the rush.
        for phase_id, game_id in conn.execute(select(PhaseRow.id, PhaseRow.game_id)).all():
            seats = conn.scalars(select(Seat.id).where(Seat.game_id == game_id)).all()
            conn.execute(update(PhaseRow).where(PhaseRow.id == phase_id).values(reminded=list(seats)))
    engine.dispose()


def players(url: str) -> list[dict[str, Any]]:
    """Every seat: its game's slug and number, name, address and reply token."""
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(select(Game.slug, Seat.name, Seat.token, Seat.position)
                            .join(Seat, Seat.game_id == Game.id).order_by(Game.id, Seat.position)).all()
    engine.dispose()
    return [{"slug": slug, "player": name, "token": token,
             "email": player_address(int(slug[1:]), position)} for slug, name, token, position in rows]


def plan(seats: list[dict[str, Any]], rush: float, mails: int, rng: random.Random,
         arrivals: str = "rising") -> tuple[list, list]:
    """Each player's web steps (seconds from the deadline) and the mails (who, when, whom).
    ``arrivals``: "rising", first votes crowd towards the deadline (density rising
    linearly, twice the mean in the last seconds: how people leave it to the end), or
    "uniform", spread evenly over the rush (the issue's words read literally)."""
    web, mail = [], []
    mailers = set(rng.sample(range(len(seats)), mails))
    for n, seat in enumerate(seats):
        others = [f"P{i:02d}" for i in range(PLAYERS) if f"P{i:02d}" != seat["player"]]
        targets = rng.sample(others, 4)  # first, change, mail, late: each tells itself apart
        draw = rng.random()
        first = -rush + rush * (draw ** 0.5 if arrivals == "rising" else draw)
        steps = [{"at": first, "target": targets[0], "label": "first"}]
        if n % 2 == 0:
            steps.append({"at": first + (-first) * rng.uniform(0.2, 0.95), "target": targets[1],
                          "label": "change"})
        if rng.random() < LATE_SHARE:
            steps.append({"at": rng.uniform(0.2, LATE_WINDOW), "target": targets[3], "label": "late"})
        web.append({**seat, "steps": steps})
        if n in mailers:
            mail.append({**seat, "at": -rush + (rush - LAST_MAIL) * rng.random(), "target": targets[2]})
    mail.sort(key=lambda m: m["at"])
    return web, mail


def reply(seat: dict[str, Any], target: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{seat['player']} <{seat['email']}>"
    msg["To"] = MASTER.replace("@", f"+{seat['token']}@")
    msg["Subject"] = f"Re: Partita {seat['slug'][1:]}"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"VOTO {target}\n\nInviato da iPhone\n")
    return bytes(msg)


class Service:
    """`pbm web` and `pbm worker`, as processes of their own, on the given set-up."""

    def __init__(self, folder: Path, env: dict[str, str], web_port: int) -> None:
        self.folder, self.env, self.web_port = folder, env, web_port
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self) -> None:
        pbm = [sys.executable, "-m", "pbm.cli"]
        for name, args in (("web", ["web", "--port", str(self.web_port), "--workers", "2"]),
                           ("worker", ["worker"])):
            log = open(self.folder / f"{name}.log", "w")
            self.processes[name] = subprocess.Popen(pbm + args, env=self.env, cwd=ROOT, stdout=log,
                                                    stderr=subprocess.STDOUT)

    def wait_healthy(self, timeout: float = 90) -> None:
        import urllib.error
        import urllib.request
        deadline = time.monotonic() + timeout
        while True:
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise SystemExit(f"pbm {name} exited: {(self.folder / f'{name}.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}/healthz", timeout=5):
                    return
            except (urllib.error.HTTPError, OSError) as exc:
                if time.monotonic() > deadline:
                    raise SystemExit("the service never became healthy") from exc
                time.sleep(0.5)

    def peak_memory_mb(self, name: str) -> float | None:
        """The process's peak resident memory (VmHWM), in MB."""
        try:
            for line in Path(f"/proc/{self.processes[name].pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def cpu_seconds(self, name: str) -> float:
        """CPU time (user + system) of the process and of its living children (gunicorn's workers)."""
        tick = os.sysconf("SC_CLK_TCK")
        pid = self.processes[name].pid
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            children = []
        total = 0.0
        for one in [str(pid), *children]:
            try:
                fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / tick
        return total

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(40)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# --------------------------------------------------------------------------- the rush

def send_mail(server: DovecotServer, username: str, mails: list[dict], deadline: float,
              appended: dict[str, float]) -> None:
    """Append each reply at its moment; ``appended``: Message-ID -> when the append returned."""
    client = server.client(username, folder=None)
    try:
        for m in mails:
            time.sleep(max(0.0, deadline + m["at"] - time.time()))
            raw = reply(m, m["target"])
            message_id = raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].strip().decode()
            client.append("INBOX", raw)
            appended[message_id] = time.time()
            m["message_id"] = message_id
    finally:
        client.logout()


def wait_for_boundary(url: str, games: int, deadline: float, timeout: float) -> dict[str, float]:
    """Poll until every game's day is published; seconds from the deadline to the first and the last."""
    engine = create_engine(url)
    first = None
    try:
        with engine.connect() as conn:
            while True:
                done = conn.scalar(select(func.count()).select_from(PhaseRow)
                                   .where(PhaseRow.index == 1, PhaseRow.status == "published"))
                conn.rollback()
                now = time.time()
                if done and first is None:
                    first = now - deadline
                if done == games:
                    return {"first": first, "all": now - deadline}
                if now - deadline > timeout:
                    raise SystemExit(f"only {done} of {games} games published {timeout:.0f} s after the deadline")
                time.sleep(0.05)
    finally:
        engine.dispose()


def wait_for_mail(url: str, count: int, timeout: float = 120) -> None:
    """Until every appended mail has been read and dealt with (stored, then applied or refused)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            ends = time.monotonic() + timeout
            while time.monotonic() < ends:
                dealt = conn.scalar(select(func.count()).select_from(InboundRow)
                                    .where(InboundRow.status != "stored"))
                conn.rollback()
                if dealt >= count:
                    return
                time.sleep(0.5)
    finally:
        engine.dispose()


# --------------------------------------------------------------------------- the accounting

class Observer(threading.Thread):
    """Watches the database from outside while the rush runs: when each mail's vote is
    first seen stored (committed), and how many of the service's connections wait on a
    lock. Its times are this process's clock, as the players' and the mailer's are."""

    def __init__(self, url: str, period: float = 0.25) -> None:
        super().__init__(daemon=True)
        self.url, self.period = url, period
        self.first_seen: dict[str, float] = {}
        self.samples: list[tuple[float, int, int]] = []  # (when, active, waiting on a lock)
        self.blocked: dict[tuple[str, str], int] = {}     # (waiting statement, blocking one): samples
        self.stopping = threading.Event()

    def run(self) -> None:
        engine = create_engine(self.url)
        last = 0
        try:
            with engine.connect() as conn:
                while not self.stopping.is_set():
                    rows = conn.execute(select(ActionRow.id, InboundRow.message_id)
                                        .join(InboundRow, InboundRow.id == ActionRow.inbound_id)
                                        .where(ActionRow.id > last)).all()
                    now = time.time()
                    for action_id, message_id in rows:
                        last = max(last, action_id)
                        self.first_seen.setdefault(message_id, now)
                    active, waiting = conn.execute(text(
                        "SELECT count(*) FILTER (WHERE state = 'active'), "
                        "count(*) FILTER (WHERE wait_event_type = 'Lock') FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()")).one()
                    self.samples.append((now, active, waiting))
                    if waiting:
                        for waiter, blocker in conn.execute(text(
                                "SELECT left(w.query, 70), left(b.query, 70) FROM pg_stat_activity w "
                                "JOIN pg_stat_activity b ON b.pid = ANY(pg_blocking_pids(w.pid)) "
                                "WHERE w.datname = current_database() AND w.wait_event_type = 'Lock'")).all():
                            pair = (" ".join(waiter.split()), " ".join(blocker.split()))
                            self.blocked[pair] = self.blocked.get(pair, 0) + 1
                    conn.rollback()
                    self.stopping.wait(self.period)
        finally:
            engine.dispose()

    def locks(self, since: float, until: float) -> dict[str, float]:
        inside = [s for s in self.samples if since <= s[0] <= until]
        if not inside:
            return {}
        return {"samples": len(inside), "active_max": max(s[1] for s in inside),
                "waiting_on_a_lock_max": max(s[2] for s in inside),
                "waiting_on_a_lock_mean": round(sum(s[2] for s in inside) / len(inside), 2),
                "share_of_samples_with_a_wait": round(sum(1 for s in inside if s[2]) / len(inside), 2),
                "most_seen_waits": [f"{n} x {w!r} behind {b!r}" for (w, b), n in
                                    sorted(self.blocked.items(), key=lambda kv: -kv[1])[:4]]}


def account(url: str, votes: list[dict], mails: list[dict], appended: dict[str, float],
            seen: dict[str, float], deadline: float) -> dict[str, Any]:
    """What the resolution counted against what the players were told.

    For each player: the votes they were told were recorded, and their mails that
    reached the mailbox before the deadline, each with the span in which it was
    stored (a web vote: from sending the form to the answer; a mail: from the append
    to the Observer first seeing its row); votes whose answer was lost may or may not
    have been stored. The resolution counts the last stored, so what it counted must
    be one of these that no other one was surely stored after. A vote whose form was
    sent at or after the deadline must never be recorded nor counted."""
    engine = create_engine(url)
    with engine.connect() as conn:
        counted: dict[tuple[str, str], str] = {}
        for slug, data in conn.execute(
                select(Game.slug, EventRow.data).join(PhaseRow, PhaseRow.id == EventRow.phase_id)
                .join(Game, Game.id == PhaseRow.game_id)
                .where(PhaseRow.index == 1, EventRow.kind == "pyre")).all():
            for voter, target in (data.get("votes") or {}).items():
                counted[(slug, voter)] = target
        pyres = conn.scalar(select(func.count(func.distinct(EventRow.phase_id))).join(
            PhaseRow, PhaseRow.id == EventRow.phase_id).where(PhaseRow.index == 1, EventRow.kind == "pyre"))
        stored = set(conn.scalars(select(InboundRow.message_id)
                                  .join(ActionRow, ActionRow.inbound_id == InboundRow.id)).all())
        late_rows = conn.scalar(select(func.count()).select_from(ActionRow).join(
            PhaseRow, PhaseRow.id == ActionRow.phase_id).where(
            PhaseRow.index == 1, ActionRow.source == "web", ActionRow.submitted_at >= PhaseRow.ends_at))
        inbound = dict(conn.execute(select(InboundRow.status, func.count()).group_by(InboundRow.status)).all())
        # What a results mail keeps in the database until RAW_MAIL_DAYS (docs/scale.md: the disk).
        results_bytes = conn.scalar(select(func.avg(func.length(OutboxRow.body)
                                                    + func.coalesce(func.length(OutboxRow.body_html), 0)))
                                    .where(OutboxRow.kind == "phase_results"))
    engine.dispose()

    sure: dict[tuple[str, str], list[tuple[str, float, float]]] = {}    # (target, stored from, until)
    maybe: dict[tuple[str, str], set[str]] = {}
    late: dict[tuple[str, str], set[str]] = {}
    outcomes: dict[str, int] = {}
    refusals: dict[str, int] = {}
    accepted_late = refused_in_time = 0
    for v in votes:
        key = (v["slug"], v["player"])
        when = "never sent" if v["sent"] is None else (
            "sent before the deadline" if v["sent"] < deadline else "sent after it")
        if v["sent"] is not None and v["sent"] < deadline and (v["answered"] or deadline) >= deadline:
            # Sent in time but taken up by the service after the deadline (queued behind
            # others): refused as late, as the rules say, not lost (see refused_in_time).
            when += ", answered after it"
        outcome = v["outcome"].split(":")[0]
        if outcome == "no form" and v.get("paged") is not None:
            # The page shows the form only while the phase takes votes: one answered
            # after the deadline is right to have none; one answered before it is a bug.
            outcome += " (page answered after the deadline)" if v["paged"] >= deadline else \
                " (page answered BEFORE the deadline)"
        outcomes[f"{v['label']}, {when}: {outcome}"] = outcomes.get(f"{v['label']}, {when}: {outcome}", 0) + 1
        if v["said"]:
            refusals[v["said"]] = refusals.get(v["said"], 0) + 1
        if v["sent"] is None:
            continue
        if outcome == "refused" and v["answered"] < deadline:
            refused_in_time += 1  # the whole exchange over before the deadline, and not recorded
        if v["sent"] >= deadline:
            late.setdefault(key, set()).add(v["target"])
            accepted_late += outcome == "recorded"
        elif outcome == "recorded":
            sure.setdefault(key, []).append((v["target"], v["sent"], v["answered"]))
        elif outcome == "unknown":
            maybe.setdefault(key, set()).add(v["target"])
    lags, mail_lost, mail_after = [], 0, 0
    for m in mails:
        arrived = appended.get(m.get("message_id", ""))
        if arrived is None:
            continue
        if arrived >= deadline:
            mail_after += 1  # not "before the deadline": out of the accounting
            continue
        if m["message_id"] not in stored:
            mail_lost += 1
            continue
        at = seen.get(m["message_id"], float("inf"))
        lags.append(at - arrived)
        sure.setdefault((m["slug"], m["player"]), []).append((m["target"], arrived, at))

    lost, counted_late, wrong = 0, 0, []
    for key in set(sure) | set(counted) | set(maybe):
        got, mine, possible = counted.get(key), sure.get(key, []), maybe.get(key, set())
        if got is not None and got in late.get(key, set()):
            counted_late += 1
            continue
        spans = {t: (lo, hi) for t, lo, hi in mine}
        if got in spans:
            ok = all(lo <= spans[got][1] for t, lo, _ in mine if t != got)
        else:
            # a vote whose answer was lost may be the one stored last
            ok = (got in possible) or (got is None and not mine)
        if not ok:
            lost += 1
            if len(wrong) < 5:
                wrong.append(f"{key}: counted {got!r}; recorded {mine}; maybe {sorted(possible)}")
    return {"counted_votes": len(counted), "players_with_accepted_votes": len(sure), "pyres": pyres,
            "lost": lost + mail_lost, "mail_lost": mail_lost, "mail_after_deadline": mail_after,
            "accepted_late": accepted_late, "counted_late": counted_late, "refused_in_time": refused_in_time,
            "late_rows_in_database": late_rows, "outcomes": dict(sorted(outcomes.items())),
            "refusals": refusals, "examples": wrong, "mail_lags": lags, "inbound": inbound,
            "results_mail_bytes": round(float(results_bytes or 0))}


def players_late(votes: list[dict]) -> dict[str, float]:
    """How late the players' own process began each first visit, against its plan (s):
    the requests' times include the client's lateness too, so a client short of CPU
    makes the service look slower than it is. (A player's later visits wait for their
    earlier ones to be answered, so their lateness is the service's, not the client's.)"""
    lags = sorted(v["began"] - v["planned"] for v in votes
                  if v.get("planned") is not None and v["label"] == "first")
    if not lags:
        return {}
    return {"p50_s": round(median(lags), 2), "p99_s": round(percentile(lags, 0.99), 2),
            "max_s": round(lags[-1], 2)}


def request_figures(lines: list[dict], deadline: float, rush: float) -> dict[str, Any]:
    """p50/p95/p99 (ms) of the requests made in the rush, by kind and all together."""
    kinds: dict[str, list[float]] = {}
    errors = 0
    for line in lines:
        if "request" not in line or not line["request"].startswith("rush: "):
            continue
        if line["error"]:
            errors += 1
        kinds.setdefault(line["request"][6:], []).append(line["ms"])
    every = [ms for values in kinds.values() for ms in values]

    def stats(values: list[float]) -> dict[str, float]:
        return {"count": len(values), "p50_ms": round(median(values), 1), "p95_ms": round(percentile(values, 0.95), 1),
                "p99_ms": round(percentile(values, 0.99), 1), "max_ms": round(max(values), 1)}

    starts = sorted(line["start"] for line in lines if line.get("request", "").startswith("rush: ") and line["start"])
    busiest, j = 0, 0
    for i, start in enumerate(starts):  # the most requests begun in any 5 seconds
        while starts[j] < start - 5:
            j += 1
        busiest = max(busiest, i - j + 1)
    return {"all": stats(every), **{kind: stats(values) for kind, values in sorted(kinds.items())},
            "errors": errors, "requests_per_second_mean": round(len(every) / (rush + LATE_WINDOW), 1),
            "requests_per_second_busiest_5_s": round(busiest / 5, 1)}


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rush", type=float, default=120.0, help="seconds of the rush before the deadline")
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--arrivals", choices=("rising", "uniform"), default="rising",
                        help="first votes crowding towards the deadline (rising, the default) or spread evenly")
    parser.add_argument("--threads", type=int, default=4, help="threads of each of the 2 web processes")
    parser.add_argument("--no-script", action="store_true",
                        help="players without the page's script: each vote followed by the whole page again")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="copy the run's plan, requests, votes and the service's logs into DIR")
    parser.add_argument("--no-record", action="store_true", help="print the figures, leave bench/results.json")
    args = parser.parse_args(argv)
    # Looked for, not imported: importing Locust patches this process's threads (gevent).
    if importlib.util.find_spec("locust") is None:
        raise SystemExit("bench_rush.py needs Locust: .venv/bin/pip install -e '.[bench]'")
    fast_passwords()
    folder = scratch()
    rng = random.Random(args.seed)
    service = None
    players_process = None
    load = {"start": " ".join(f"{x:.2f}" for x in os.getloadavg())}
    with PostgresServer() as pg, DovecotServer() as dovecot, SmtpServer() as smtp:
        url = pg.create_database()
        began = time.perf_counter()
        set_up_database(url, folder, args.games)
        seats = players(url)
        web_plan, mail_plan = plan(seats, args.rush, min(args.mails, len(seats)), rng, args.arrivals)
        username, password = dovecot.fresh_user()
        source = {"kind": "imap", "host": dovecot.host, "port": dovecot.port, "username": username,
                  "password": password, "ssl": False, "folder": "INBOX", "processed_folder": None}
        web_port = free_port()
        env = {name: value for name, value in os.environ.items() if not name.startswith("PBM_")}
        env.update({"PBM_INSTANCE": str(folder), "PBM_DATABASE_URL": url, "PBM_MAIL_SOURCE": json.dumps(source),
                    "PBM_MAIL_SERVER": smtp.host, "PBM_MAIL_PORT": str(smtp.port),
                    "PBM_MASTER_ADDRESS": MASTER, "PBM_NOREPLY_ADDRESS": "noreply@lupus.test",
                    "PBM_BASE_URL": "http://lupus.test", "PBM_WEB_THREADS": str(args.threads)})
        service = Service(folder, env, web_port)
        try:
            service.start()
            service.wait_healthy()
            (folder / "plan.json").write_text(json.dumps(web_plan))
            go, out = folder / "go", folder / "requests.jsonl"
            players_process = subprocess.Popen(
                [sys.executable, str(ROOT / "bench" / "rush_players.py"), f"http://127.0.0.1:{web_port}",
                 str(folder / "plan.json"), str(go), str(out), "no-script" if args.no_script else "script"],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=open(folder / "players.log", "w"), text=True)
            ready = players_process.stdout.readline().strip()
            if not ready.startswith("READY"):
                raise SystemExit(f"the players did not log in: {ready!r}\n"
                                 f"{(folder / 'players.log').read_text()[-3000:]}")
            print(f"set-up: {args.games} games of {PLAYERS} players on PostgreSQL, pbm web (2 workers x {args.threads} "
                  f"threads), pbm worker, Dovecot; {ready[6:]} ({time.perf_counter() - began:.0f} s); players "
                  f"{'without' if args.no_script else 'with'} the page's script", flush=True)

            deadline = float(int(time.time() + args.rush + 2))
            ends = datetime.fromtimestamp(deadline, timezone.utc)
            engine = create_engine(url)
            with engine.begin() as conn:
                conn.execute(update(PhaseRow).where(PhaseRow.status == "open").values(ends_at=ends))
            engine.dispose()
            observer = Observer(url)
            observer.start()
            cpu_before = {name: service.cpu_seconds(name) for name in ("web", "worker")}
            go.write_text(str(deadline))
            load["rush"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
            appended: dict[str, float] = {}
            mailer = threading.Thread(target=send_mail, args=(dovecot, username, mail_plan, deadline, appended))
            mailer.start()
            print(f"the rush: deadline at {ends:%H:%M:%S} UTC, {sum(len(p['steps']) for p in web_plan)} web votes "
                  f"from {len(web_plan)} players, {len(mail_plan)} mails", flush=True)
            boundary = wait_for_boundary(url, args.games, deadline, timeout=args.rush + 300)
            load["boundary"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
            mailer.join()
            players_process.wait(timeout=LATE_WINDOW + 120)
            cpu = {name: service.cpu_seconds(name) - cpu_before[name] for name in ("web", "worker")}
            wait_for_mail(url, len(appended))
            observer.stopping.set()
            observer.join()
            worker_mb = service.peak_memory_mb("worker")
        finally:
            if players_process is not None and players_process.poll() is None:
                players_process.kill()
                players_process.wait()
            if service is not None:
                service.stop()
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            for kept in [out, folder / "plan.json", *folder.glob("*.log")]:
                if kept.exists():
                    shutil.copy(kept, args.keep / kept.name)
            (args.keep / "timeline.json").write_text(json.dumps(
                {"deadline": deadline, "appended": appended, "first_seen": observer.first_seen}))
        lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
        votes = [line for line in lines if "vote" in line]
        players_cpu = next((line.get("cpu_seconds") for line in lines if "done" in line), None)
        late = players_late(votes)
        books = account(url, votes, mail_plan, appended, observer.first_seen, deadline)
        locks = observer.locks(deadline - args.rush, deadline)
        web = request_figures(lines, deadline, args.rush)
        sent_out = len(smtp.messages)

    lags = books.pop("mail_lags")
    mail = {"count": len(lags), "p50_s": round(median(lags), 2) if lags else None,
            "p95_s": round(percentile(lags, 0.95), 2) if lags else None,
            "p99_s": round(percentile(lags, 0.99), 2) if lags else None,
            "max_s": round(max(lags), 2) if lags else None}
    print(f"load average (1, 5, 15 min): at the start {load['start']}, at the rush {load['rush']}, "
          f"at the boundary {load['boundary']} ({os.cpu_count()} cores, shared)")
    print(f"web requests of the rush ({web['all']['count']}, {web['errors']} failed, "
          f"{web['requests_per_second_mean']}/s on average, {web['requests_per_second_busiest_5_s']}/s in the "
          f"busiest 5 s; gunicorn's CPU: {cpu['web']:.1f} s, {1000 * cpu['web'] / web['all']['count']:.1f} ms "
          f"a request):")
    for kind in [k for k in web if isinstance(web[k], dict)]:
        s = web[kind]
        print(f"  {kind:28s} {s['count']:6d}  p50 {s['p50_ms']:7.1f} ms  p95 {s['p95_ms']:7.1f} ms  "
              f"p99 {s['p99_ms']:7.1f} ms  max {s['max_ms']:7.1f} ms")
    if late:
        print(f"the players' own process (Locust): {players_cpu or 0:.1f} s of CPU; each first visit began after "
              f"its planned moment by p50 {late['p50_s']} s, p99 {late['p99_s']} s, max {late['max_s']} s (a client "
              "short of CPU: its lateness is in the times above too)")
    print(f"mail: {len(appended)} replies appended to Dovecot; lag from the mailbox to the vote stored: "
          f"p50 {mail['p50_s']} s, p95 {mail['p95_s']} s, p99 {mail['p99_s']} s, max {mail['max_s']} s; "
          f"inbound rows by status {books['inbound']}")
    print(f"boundary: the first game published {boundary['first']:.1f} s after the deadline, all {args.games} "
          f"{boundary['all']:.1f} s after it (the worker's tick comes every 10 s); "
          f"{sent_out} mails had reached the SMTP server when the service stopped")
    print("votes, by step, when the form was sent, and what the player was told:")
    for what, count in books["outcomes"].items():
        print(f"  {what:60s} {count:5d}")
    for said, count in sorted(books["refusals"].items(), key=lambda kv: -kv[1])[:5]:
        print(f"  refused, {count} times: {said}")
    if locks:
        print(f"the database during the rush: at most {locks['active_max']} statements running at once, "
              f"{locks['waiting_on_a_lock_max']} waiting on a lock (on average {locks['waiting_on_a_lock_mean']}; "
              f"some wait in {locks['share_of_samples_with_a_wait']:.0%} of {locks['samples']} samples)")
        for wait in locks["most_seen_waits"]:
            print(f"  {wait}")
    print(f"accounting: {books['counted_votes']} votes counted in {books['pyres']} resolutions for "
          f"{books['players_with_accepted_votes']} players with a vote accepted; lost {books['lost']} "
          f"(of which mail {books['mail_lost']}); refused though answered before the deadline "
          f"{books['refused_in_time']}; accepted late {books['accepted_late']}, counted late "
          f"{books['counted_late']}, web rows stored at or after the deadline {books['late_rows_in_database']}")
    for example in books["examples"]:
        print(f"  {example}")
    print(f"pbm worker: {cpu['worker']:.1f} s of CPU from the rush's start to the boundary's end; peak memory "
          f"{worker_mb:.0f} MB; a results mail keeps {books['results_mail_bytes']} "
          "bytes of body in the database")
    verdict = {
        "web_p99_ms": web["all"]["p99_ms"] < TARGETS["web_p99_ms"],
        "mail_lag_p99_s": mail["p99_s"] is not None and mail["p99_s"] < TARGETS["mail_lag_p99_s"],
        "lost": books["lost"] + books["refused_in_time"] == 0,
        "accepted_late": books["accepted_late"] + books["counted_late"] + books["late_rows_in_database"] == 0,
    }
    print("targets: " + ", ".join(f"{k} {'met' if ok else 'MISSED'}" for k, ok in verdict.items())
          + f" (web p99 < {TARGETS['web_p99_ms']} ms, mail lag p99 < {TARGETS['mail_lag_p99_s']} s, "
            "none lost, none accepted late)")
    if not args.no_record:
        name = "rush" if args.arrivals == "rising" else f"rush_{args.arrivals}"
        record(name + ("_no_script" if args.no_script else ""), {
            "arrivals": args.arrivals, "script": not args.no_script, "games": args.games, "players": args.games * PLAYERS, "rush_seconds": args.rush, "seed": args.seed,
            "set_up": f"PostgreSQL (fsync off), pbm web 2x{args.threads}, pbm worker, Dovecot, Locust",
            "load_average": load, "web": web, "mail_lag": mail, "mails_appended": len(appended),
            "boundary_seconds_after_deadline": {k: round(v, 2) for k, v in boundary.items()},
            "votes": books["outcomes"], "refusals": books["refusals"], "database_during_the_rush": locks,
            "counted_votes": books["counted_votes"],
            "lost": books["lost"], "mail_lost": books["mail_lost"], "accepted_late": books["accepted_late"],
            "counted_late": books["counted_late"], "refused_in_time": books["refused_in_time"],
            "late_rows_in_database": books["late_rows_in_database"],
            "cpu_seconds": {name: round(value, 1) for name, value in cpu.items()},
            "players_cpu_seconds": players_cpu, "players_late_s": late,
            "web_cpu_ms_a_request": round(1000 * cpu["web"] / web["all"]["count"], 1),
            "worker_peak_rss_mb": round(worker_mb or 0, 1), "results_mail_bytes": books["results_mail_bytes"],
            "targets_met": verdict,
        })
    # The accounting is a correctness check: failing it fails the benchmark.
    return 0 if verdict["lost"] and verdict["accepted_late"] else 1


if __name__ == "__main__":
    sys.exit(main())
