"""Web: a vote POST and the reserved page after it, beside a bare Flask
endpoint, through the production server (gunicorn, as `pbm web` runs it).

One gunicorn (`pbm.webserver`, default 2 processes x 4 threads) serves the
app and a bare endpoint (`/bare`: a Flask view returning a word, through the
same app, its hooks and its server) on two 40-player games of Lupus LIVE! 12:

- short: just turned over to day 1 (night 1 published);
- long: played by the worker for LONG_DAYS days and nights (every player votes
  each day, the wolves kill and the Veggente looks each night), now on a day.

Clients on kept-alive connections, each logged in as a different player:

- latency, one client: bare, vote POST, floor, reserved page, then a vote sent
  as the page's script sends it (answered in place: the receipt and the forms, no
  page after it; a server whose code has no such answer redirects, and is left out
  of that line) in turn; p50 of
  each and the ratios to bare (the floor: the vote's form sent to ``/floor``, a
  logged-in view that flashes a receipt and redirects, so CSRF, session and
  user are paid as by a vote, and no game work is done), in each game, first with few votes in the phase,
  then again after EXTRA_VOTES more (the page should stay flat with the
  phase's submissions and the game's length);
- throughput, CLIENTS clients at once: bare requests, then vote POSTs, then
  reserved pages (the short game); requests per second of each.

``--baseline DIR``: a checkout of the code before a change (``git worktree add
DIR REF`` or ``git archive REF | tar -x -C DIR``), served beside this one from a
copy of the same database taken back to that code's schema, and measured in the
same run, request for request (the latency rounds alternate between the two).

The vote's ratio to a bare request is accepted as measured (issue 25): its floor,
a logged-in CSRF POST with a flash and a redirect, is about 2x a bare request,
and the vote adds one durable commit, the price of a "Registrato" that survives a
power cut. What is watched instead is the vote's own work, the vote's p50 minus
the floor's, printed and recorded in bench/results.json (``vote_own_work_p50_ms``)
so that it cannot grow unseen.

    .venv/bin/python bench/bench_web.py [--seconds 2] [--clients 4] [--workers 2] [--threads 4]
                                        [--long-days 12] [--extra-votes 2000] [--baseline DIR] [--quick]
"""
from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

from _support import (  # first: it puts the checkout on sys.path
    NAMES, PLAYER_PASSWORD, ROOT, TUESDAY_0930_ROME, fast_passwords, median, open_day_one, percentile,
    player_email, record, scratch, service_app,
)

from sqlalchemy import create_engine, func, insert, select

from engine.core import Rejected
from pbm import operations
from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.models import ActionRow, EventRow, Game, PhaseRow, PhaseStatus, Seat
from pbm.worker import Worker
from tests.fixtures.smtp import free_port

GAMES = ("short", "long")
TOKEN_RE = re.compile(r'name="([a-z]+-)?csrf_token" type="hidden" value="([^"]+)"')
VOTE_OPTION_RE = re.compile(r'<option value="([^"]+)"')
WOLVES = NAMES[:6]  # _support.roles_for
SEER = NAMES[6]
# The schema the code before this benchmark's index knew (for --baseline).
BEFORE_INDEX = ("DROP INDEX IF EXISTS ix_actions_phase_seat_kind",
                "CREATE INDEX IF NOT EXISTS ix_actions_phase_id ON actions (phase_id)",
                "UPDATE alembic_version SET version_num = '9b3d51c0e7a4'")


def serve(port: int, folder: Path, workers: int, threads: int) -> None:
    """The server process: the app at the short game's day-1 instant, /bare beside it, under gunicorn."""
    from pbm.app import create_app
    from pbm.webserver import WebServer, options
    from flask import flash, redirect
    from flask_login import login_required
    app = create_app(instance=folder, clock=FixedClock(TUESDAY_0930_ROME))
    app.add_url_rule("/bare", "bare", lambda: "ok")

    @login_required
    def floor() -> Any:
        # What every vote pays before any game work: the logged-in user read, the
        # form's CSRF token checked (CSRFProtect, as for every POST), a receipt
        # flashed into the session and a redirect.
        flash("ok", "receipt")
        return redirect("/bare")

    app.add_url_rule("/floor", "floor", floor, methods=["POST"])
    WebServer(app, {**options("127.0.0.1", port, workers, threads), "loglevel": "warning"}).run()


class Client:
    """One player's browser in one game: a kept-alive connection and the session cookie."""

    def __init__(self, port: int, slug: str = "") -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        self.slug = slug

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                extra: dict[str, str] | None = None) -> tuple[int, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        headers.update(extra or {})
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed an idle kept-alive connection: a browser opens another.
            self.connection.close()
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            pair = header.split(";", 1)[0]
            if pair.startswith("session="):
                self.cookie = pair
        return response.status, text

    def timed(self, method: str, path: str, form: dict[str, str] | None = None,
              expect: int = 200) -> tuple[float, str]:
        began = time.perf_counter()
        status, text = self.request(method, path, form)
        elapsed = time.perf_counter() - began
        if status != expect:
            raise SystemExit(f"{method} {path}: {status}, expected {expect}\n{text[:500]}")
        return elapsed, text

    def log_in(self, name: str) -> None:
        _, page = self.request("GET", "/login")
        status, _ = self.request("POST", "/login", {"csrf_token": TOKEN_RE.search(page).group(2),
                                                    "email": player_email(name), "password": PLAYER_PASSWORD})
        assert status == 302, f"login of {name} failed"
        _, page = self.request("GET", f"/g/{self.slug}/me")
        self.vote_token = next(m.group(2) for m in TOKEN_RE.finditer(page) if m.group(1) == "vote-")
        vote_form = page[page.index('name="vote-vote"'):]
        self.targets = [t for t in VOTE_OPTION_RE.findall(vote_form[:vote_form.index("</select>")]) if t]
        assert self.targets, "no vote form on the reserved page"

    def vote(self, rng: random.Random) -> float:
        elapsed, _ = self.timed("POST", f"/g/{self.slug}/act", {
            "vote-csrf_token": self.vote_token, "vote-kind": "vote", "vote-vote": rng.choice(self.targets)},
            expect=302)
        return elapsed

    def vote_in_place(self, rng: random.Random) -> float | None:
        """A vote as the page's script sends it (pbm/static/forms.js): the receipt and the
        forms answered in place; None from a server that redirects instead (older code)."""
        began = time.perf_counter()
        status, answer = self.request("POST", f"/g/{self.slug}/act", {
            "vote-csrf_token": self.vote_token, "vote-kind": "vote", "vote-vote": rng.choice(self.targets)},
            {"X-Pbm-Fragment": "forms"})
        elapsed = time.perf_counter() - began
        if status == 302:
            return None
        if status != 200 or ("Registrato" not in answer and "Recorded" not in answer):
            raise SystemExit(f"the vote answered in place: {status}, not a receipt\n{answer[:500]}")
        return elapsed

    def reserved(self) -> float:
        elapsed, page = self.timed("GET", f"/g/{self.slug}/me")
        if "Registrato" not in page and "Recorded" not in page and "Le tue scelte" not in page:
            raise SystemExit("the reserved page after a vote does not show it")
        return elapsed

    def bare(self) -> float:
        return self.timed("GET", "/bare")[0]

    def floor(self) -> float:
        """The vote's form sent to /floor: a POST that does all a vote does but the game's work."""
        return self.timed("POST", "/floor", {"vote-csrf_token": self.vote_token, "vote-kind": "vote"},
                          expect=302)[0]


# --------------------------------------------------------------------------- the games

def play_long_game(app, clock: FixedClock, days: int) -> None:
    """The long game: opened on Monday like the short one, then played by the worker
    for ``days`` days and nights: each day everyone alive votes a villager, each night
    the wolves kill one and the Veggente looks at someone (a private result)."""
    factory = app.extensions["pbm_sessions"]
    game_id = open_day_one(app, clock, slug="long", passwords=True)
    for _ in range(2 * days):
        with transaction(factory) as s:
            game = s.get(Game, game_id)
            phase = operations.current_phase(s, game)
            state = operations.current_state(game)
            alive = [p.name for p in state.players if p.alive]
            villagers = [n for n in alive if n not in WOLVES and n != SEER]
            if phase.kind == "day":
                wanted = {n: {"vote": villagers[0]} for n in alive}
            else:
                wanted = {n: {"target": villagers[-1]} for n in WOLVES if n in alive}
                if SEER in alive:
                    wanted[SEER] = {"target": random.Random(phase.index).choice(alive)}
            for name, submission in wanted.items():
                try:
                    with s.begin_nested():
                        operations.submit(s, app.config, game, game.seat_by_name(name), submission,
                                          source="mail", now=clock.now())
                except Rejected:
                    pass
            ends = phase.ends_at
        clock.set(ends + timedelta(minutes=1))
        Worker(app, clock).boundaries()
    with factory() as s:
        game = s.scalar(select(Game).where(Game.slug == "long"))
        phase = operations.current_phase(s, game)
        assert game.status == "running" and phase.kind == "day" and phase.status == PhaseStatus.OPEN, \
            f"the long game is not on an open day: {game.status} {phase.kind} {phase.status}"


def game_sizes(url: str) -> dict[str, dict[str, int]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            out = {}
            for slug in GAMES:
                game_id = conn.scalar(select(Game.id).where(Game.slug == slug))
                phase_id = conn.scalar(select(PhaseRow.id).where(PhaseRow.game_id == game_id,
                                                                 PhaseRow.status == PhaseStatus.OPEN))
                out[slug] = {
                    "phases": conn.scalar(select(func.count()).select_from(PhaseRow)
                                          .where(PhaseRow.game_id == game_id)),
                    "events": conn.scalar(select(func.count()).select_from(EventRow)
                                          .where(EventRow.game_id == game_id)),
                    "submissions_in_phase": conn.scalar(select(func.count()).select_from(ActionRow)
                                                        .where(ActionRow.phase_id == phase_id)),
                }
            return out
    finally:
        engine.dispose()


def add_votes(url: str, count: int) -> None:
    """``count`` more votes in each game's open phase, spread over every seat, as if
    the players had changed their minds that often."""
    if count <= 0:
        return
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for slug in GAMES:
                game_id = conn.scalar(select(Game.id).where(Game.slug == slug))
                phase_id = conn.scalar(select(PhaseRow.id).where(PhaseRow.game_id == game_id,
                                                                 PhaseRow.status == PhaseStatus.OPEN))
                seats = conn.execute(select(Seat.id, Seat.name).where(Seat.game_id == game_id)).all()
                conn.execute(insert(ActionRow), [
                    {"game_id": game_id, "phase_id": phase_id, "seat_id": seats[n % len(seats)].id,
                     "kind": "vote", "args": {"vote": seats[(n * 7) % len(seats)].name},
                     "submitted_at": TUESDAY_0930_ROME, "source": "web", "source_detail": ""}
                    for n in range(count)])
    finally:
        engine.dispose()


def copy_database(source: Path, target: Path, statements: tuple[str, ...] = ()) -> None:
    """A consistent copy (SQLite's online backup), then ``statements`` on the copy."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
        for statement in statements:
            dst.execute(statement)
    sqlite3.connect(source).close()


# --------------------------------------------------------------------------- the servers

@dataclass
class Server:
    """One gunicorn on its own copy of the games, serving one version of the code."""

    name: str
    code: Path
    folder: Path
    port: int = 0
    process: subprocess.Popen | None = None
    clients: dict[str, list[Client]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"sqlite:///{self.folder / 'bench.sqlite3'}"

    def start(self, workers: int, threads: int) -> None:
        self.port = free_port()
        env = {**os.environ, "PBM_INSTANCE": str(self.folder), "PBM_DATABASE_URL": self.url,
               # the code under test first, whatever the virtualenv has installed
               "PYTHONPATH": os.pathsep.join([str(self.code), os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen(
            [sys.executable, str(self.code / "bench" / "bench_web.py"), "--serve", str(self.port),
             str(self.folder), "--workers", str(workers), "--threads", str(threads)],
            cwd=self.code, env=env)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                Client(self.port).request("GET", "/bare")
                return
            except OSError as exc:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit(f"the {self.name} web server did not start") from exc
                time.sleep(0.1)

    def log_in(self, count: int) -> None:
        for slug in GAMES:
            self.clients[slug] = []
            for name in NAMES[:count]:
                client = Client(self.port, slug)
                client.log_in(name)
                self.clients[slug].append(client)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)


# --------------------------------------------------------------------------- measuring

def latency(servers: list[Server], slug: str, rounds: int, rng: random.Random) -> dict[str, dict[str, float]]:
    """p50 (ms) of bare, vote, reserved for each server, one client each, the servers
    taking turns request for request so that both see the same moments of load."""
    times: dict[str, dict[str, list[float]]] = {
        s.name: {"bare": [], "floor": [], "vote": [], "reserved": [], "in place": []} for s in servers}
    for _ in range(rounds):
        for server in servers:
            client = server.clients[slug][0]
            times[server.name]["bare"].append(client.bare())
            times[server.name]["vote"].append(client.vote(rng))
            # after the vote, so that its session carries the vote's receipt too (the
            # reserved page shows both): if anything, the floor is measured high
            times[server.name]["floor"].append(client.floor())
            times[server.name]["reserved"].append(client.reserved())
            answered = client.vote_in_place(rng)
            if answered is not None:
                times[server.name]["in place"].append(answered)
    return {name: {k: median(v) * 1000 for k, v in kinds.items() if v}
            | {f"{k}_p90": percentile(v, 0.9) * 1000 for k, v in kinds.items() if v}
            for name, kinds in times.items()}


def throughput(clients: list[Client], seconds: float, work: Callable[[Client, random.Random], Any]) -> float:
    """Requests per second of all clients for ``seconds``."""
    done = [0] * len(clients)
    stop = time.perf_counter() + seconds

    def run(i: int) -> None:
        rng = random.Random(i)
        while time.perf_counter() < stop:
            work(clients[i], rng)
            done[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done) / (time.perf_counter() - began)


WORK: dict[str, Callable[[Client, random.Random], Any]] = {
    "bare": lambda c, _rng: c.bare(),
    "vote": lambda c, rng: c.vote(rng),
    "reserved": lambda c, _rng: c.reserved(),
}


def commit_floor(folder: Path, rounds: int = 200) -> float:
    """p50 (ms) of one durable commit of one row on the disk the database is on (SQLite,
    WAL, as pbm.db sets it): what any vote pays before the service does anything else."""
    path = folder / "commit-floor.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (x INTEGER)")
        times = []
        for n in range(rounds):
            began = time.perf_counter()
            conn.execute("BEGIN")
            conn.execute("INSERT INTO t VALUES (?)", (n,))
            conn.execute("COMMIT")
            times.append(time.perf_counter() - began)
        return median(times) * 1000
    finally:
        conn.close()


def code_of(checkout: Path) -> str:
    """The baseline as the record names it: its commit when it is a git checkout (a
    worktree), else its folder's name (a path of this machine says nothing elsewhere)."""
    try:
        found = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--show-toplevel", "--short", "HEAD"],
                               capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        found = []
    # Only the checkout's own repository: a folder inside another would name that one's commit.
    if len(found) == 2 and Path(found[0]).resolve() == checkout.resolve():
        return found[1]
    return checkout.resolve().name


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="of each throughput measurement")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=100, help="of each latency measurement")
    parser.add_argument("--long-days", type=int, default=12, help="days and nights the long game has run")
    parser.add_argument("--extra-votes", type=int, default=2000,
                        help="votes added to each game's phase before the latency is measured again")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to measure beside this one")
    parser.add_argument("--quick", action="store_true", help="2 s per throughput figure, 40 latency rounds")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), args.workers, args.threads)
        return 0
    if args.quick:
        args.seconds, args.rounds = 2.0, 40

    fast_passwords()
    folder = scratch()
    clock = FixedClock(TUESDAY_0930_ROME)
    app = service_app(folder, clock)
    began = time.perf_counter()
    play_long_game(app, clock, args.long_days)
    open_day_one(app, clock, slug="short", passwords=True)
    app.extensions["pbm_engine"].dispose()
    print(f"set-up: {time.perf_counter() - began:.1f} s")

    servers = [Server("after", ROOT, folder)]
    if args.baseline:
        before = scratch()
        # Only a baseline older than the index takes the schema back to its own.
        knows_index = any((args.baseline / "pbm" / "migrations" / "versions").glob("4f7a2c9e1b3d_*.py"))
        copy_database(folder / "bench.sqlite3", before / "bench.sqlite3", () if knows_index else BEFORE_INDEX)
        servers.insert(0, Server("before", args.baseline.resolve(), before))
    figures: dict[str, dict[str, Any]] = {s.name: {} for s in servers}
    load: dict[str, str] = {"start": load_average()}
    try:
        for server in servers:
            server.start(args.workers, args.threads)
        for server in servers:
            server.wait_ready()
            server.log_in(max(1, args.clients))
        rng = random.Random(1)
        for slug in GAMES:
            latency(servers, slug, 10, rng)  # warm up every worker's caches
        sizes = game_sizes(servers[-1].url)
        for slug in GAMES:
            for name, got in latency(servers, slug, args.rounds, rng).items():
                figures[name][f"{slug}_few"] = got
        for server in servers:
            rates = figures[server.name]["rps"] = {}
            clients = server.clients["short"]
            for kind in ("bare", "vote", "reserved"):
                rates[kind] = throughput(clients, args.seconds, WORK[kind])
            rates["bare"] = (rates["bare"] + throughput(clients, args.seconds, WORK["bare"])) / 2
        load["middle"] = load_average()
        few = game_sizes(servers[-1].url)
        for server in servers:
            add_votes(server.url, args.extra_votes)
        many = game_sizes(servers[-1].url)
        for slug in GAMES:
            for name, got in latency(servers, slug, max(20, args.rounds // 2), rng).items():
                figures[name][f"{slug}_many"] = got
        load["end"] = load_average()
        floor = commit_floor(folder)
    finally:
        for server in servers:
            server.stop()
        if args.baseline:
            shutil.rmtree(servers[0].folder, ignore_errors=True)

    print(f"gunicorn: {args.workers} processes x {args.threads} threads per server; "
          f"{len(servers[0].clients['short'])} clients; load average (1, 5, 15 min) at the start "
          f"{load['start']}, midway {load['middle']}, at the end {load['end']}")
    for slug in GAMES:
        print(f"{slug} game: {sizes[slug]['phases']} phases, {sizes[slug]['events']} events; "
              f"submissions in the open phase: few = {sizes[slug]['submissions_in_phase']}-"
              f"{few[slug]['submissions_in_phase']}, many = {many[slug]['submissions_in_phase']}")
    print(f"one durable SQLite commit on this disk (the floor of any vote): p50 {floor:.2f} ms")
    print("latency, one client (p50 in ms, and x the bare request's p50 measured beside it):")
    header = f"  {'':28s}" + "".join(f"{s.name:>22s}" for s in servers)
    print(header)
    for slug in GAMES:
        for amount in ("few", "many"):
            key = f"{slug}_{amount}"
            for kind in ("bare", "floor", "vote", "reserved", "in place"):
                cells = []
                for s in servers:
                    got = figures[s.name][key]
                    if kind not in got:  # no answer in place in that code
                        cells.append("(redirects)")
                        continue
                    ratio = "" if kind == "bare" else f" ({got[kind] / got['bare']:4.1f}x)"
                    cells.append(f"{got[kind]:7.2f} ms{ratio}")
                print(f"  {slug + ' game, ' + amount + ' votes, ' + kind:28s}" + "".join(f"{c:>22s}" for c in cells))
    print(f"throughput, {len(servers[0].clients['short'])} clients, short game (requests/s, and bare / it):")
    for kind in ("bare", "vote", "reserved"):
        cells = []
        for s in servers:
            rates = figures[s.name]["rps"]
            ratio = "" if kind == "bare" else f" ({rates['bare'] / rates[kind]:4.1f}x)"
            cells.append(f"{rates[kind]:7.0f}/s{ratio}")
        print(f"  {kind:28s}" + "".join(f"{c:>22s}" for c in cells))
    after = figures["after"]
    ratio = after["short_few"]["vote"] / after["short_few"]["bare"]
    floor_ratio = after["short_few"]["floor"] / after["short_few"]["bare"]
    own = {key: figures[key]["vote"] - figures[key]["floor"] for figures in (after,)
           for key in (f"{g}_{a}" for g in GAMES for a in ("few", "many"))}
    print(f"web: vote POST p50 {after['short_few']['vote']:.2f} ms = {ratio:.1f}x the bare request's "
          f"{after['short_few']['bare']:.2f} ms (accepted as measured), of which the floor (a logged-in, "
          f"CSRF-checked POST that flashes a receipt and redirects, no game work) "
          f"{after['short_few']['floor']:.2f} ms = {floor_ratio:.1f}x; the vote's own work (vote - floor) "
          + ", ".join(f"{own[f'{g}_{a}']:.2f} ms ({g}, {a} votes)" for g in GAMES for a in ("few", "many"))
          + "; reserved page p50 "
          + ", ".join(f"{after[f'{g}_{a}']['reserved']:.2f} ms ({g}, {a} votes)" for g in GAMES for a in ("few", "many"))
          + " (target: flat)")

    def summary(got: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in (f"{g}_{a}" for g in GAMES for a in ("few", "many")):
            for kind in ("bare", "floor", "vote", "reserved"):
                out[f"{key}_{kind}_p50_ms"] = round(got[key][kind], 2)
            out[f"{key}_floor_to_bare_p50_ratio"] = round(got[key]["floor"] / got[key]["bare"], 2)
            out[f"{key}_vote_to_bare_p50_ratio"] = round(got[key]["vote"] / got[key]["bare"], 2)
            out[f"{key}_vote_own_work_p50_ms"] = round(got[key]["vote"] - got[key]["floor"], 2)
            out[f"{key}_reserved_to_bare_p50_ratio"] = round(got[key]["reserved"] / got[key]["bare"], 2)
            if "in place" in got[key]:  # a vote answered in place, the page's script's
                out[f"{key}_in_place_p50_ms"] = round(got[key]["in place"], 2)
                out[f"{key}_in_place_to_bare_p50_ratio"] = round(got[key]["in place"] / got[key]["bare"], 2)
        for kind, rate in got["rps"].items():
            out[f"{kind}_requests_per_second"] = round(rate, 1)
        out["bare_to_vote_throughput_ratio"] = round(got["rps"]["bare"] / got["rps"]["vote"], 2)
        out["bare_to_reserved_throughput_ratio"] = round(got["rps"]["bare"] / got["rps"]["reserved"], 2)
        return out

    record("web", {
        "server": f"gunicorn {args.workers}x{args.threads}", "clients": len(servers[0].clients["short"]),
        "load_average": load, "games": {g: {"phases": sizes[g]["phases"], "events": sizes[g]["events"],
                                            "submissions_few": few[g]["submissions_in_phase"],
                                            "submissions_many": many[g]["submissions_in_phase"]} for g in GAMES},
        # the figures the targets name, of this code
        "vote_to_bare_p50_ratio": round(ratio, 2), "floor_to_bare_p50_ratio": round(floor_ratio, 2),
        # the vote's own work (the vote's p50 minus its floor's): what must not grow
        "vote_own_work_p50_ms": round(own["short_few"], 2),
        "sqlite_commit_p50_ms": round(floor, 2),
        "reserved_p50_ms": {f"{g}_{a}": round(after[f"{g}_{a}"]["reserved"], 2) for g in GAMES for a in ("few", "many")},
        **summary(after),
        **({"before": {"code": code_of(args.baseline), **summary(figures["before"])}} if args.baseline else {}),
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
