"""The service under load on SQLite, as `pbm run` runs it, in real processes: gunicorn
(`pbm web`, 2 processes of 4 threads), a worker resolving boundaries as fast as they
come due (its clock jumps to each next deadline) with its heartbeat every 0.2 s, and
four people who log in, read their page, vote and log out over and over meanwhile.
What counts is how each request was answered: a 503 ("the game is busy") is a
request that failed because the worker held the database.

Shared by tests/service/infrastructure/test_busy_service.py (a few hundred boundaries, within a
minute) and bench/bench_busy_service.py (1,000 boundaries, the issue's figure).

    python -m tests.support.busy_service worker URL INSTANCE BOUNDARIES   (the worker's process)
"""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia"]
ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino"}
CLIENT_PASSWORD = "una-password-vera"
CSRF = re.compile(r'name="(?:vote-)?csrf_token" (?:type="hidden" )?value="([^"]+)"')
# The day's vote, or by night the shout: a player's submission either way (the clients'
# pages may all come before the first boundary, while night 1 is open).
ACT_CSRF = re.compile(r'name="(vote|shout)-csrf_token" (?:type="hidden" )?value="([^"]+)"')


def settings(url: str, instance: Path) -> dict:
    return {"DATABASE_URL": url, "BASE_URL": "http://127.0.0.1", "MAIL_SOURCE": {"kind": "maildir",
            "path": str(instance / "maildir")}, "LOCAL_MAILBOX": str(instance / "sent-mail")}


def seed(url: str, instance: Path, games: int) -> list[tuple[str, str]]:
    """``games`` started games of seven on a new SQLite database; the four clients'
    (email, slug), each a player of their own game with a real (scrypt) password."""
    from pbm import models, operations
    from pbm.app import create_service_app
    from pbm.db import transaction
    from pbm.migrate import upgrade

    upgrade(url)
    app = create_service_app(settings(url, instance), instance=instance)
    factory = app.extensions["pbm_sessions"]
    now = app.extensions["pbm_clock"].now()
    clients = []
    method = models.PASSWORD_METHOD
    with transaction(factory) as s:
        master, _ = operations.ensure_user(s, email="master@busy.test", name="Master")
        master.is_admin = True
        models.PASSWORD_METHOD = "pbkdf2:sha256:1000"  # the seats nobody logs into
        for g in range(games):
            game = operations.create_game(s, name=f"Partita {g}", ruleset="lupus-live-12", master=master,
                                          now=now, slug=f"partita-{g}")
            for name in PLAYERS:
                email = f"{name.lower()}.{g}@busy.test"
                client = g < 4 and name == PLAYERS[3 + g % 4]
                models.PASSWORD_METHOD = method if client else "pbkdf2:sha256:1000"
                operations.add_player(s, app.config, game, name=name, email=email, now=now, by=master,
                                      password=CLIENT_PASSWORD if client else "pw")
                if client:
                    clients.append((email, game.slug))
            operations.start_game(s, app.config, game, roles=ROLES, options={"mayor": "Fabio"}, now=now,
                                  by=master)
    models.PASSWORD_METHOD = method
    app.extensions["pbm_engine"].dispose()
    return clients


def env(url: str, instance: Path) -> dict[str, str]:
    config = settings(url, instance)
    return {**os.environ, "PBM_INSTANCE": str(instance), "PBM_DATABASE_URL": url,
            "PBM_BASE_URL": config["BASE_URL"], "PBM_MAIL_SOURCE": json.dumps(config["MAIL_SOURCE"]),
            "PBM_LOCAL_MAILBOX": config["LOCAL_MAILBOX"], "PYTHONPATH": str(ROOT)}


def start_web(url: str, instance: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pbm.cli", "web", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", "2", "--threads", "4"], env=env(url, instance), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def start_worker(url: str, instance: Path, boundaries: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.support.busy_service", "worker", url, str(instance),
                             str(boundaries)], env=env(url, instance), cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_worker(url: str, instance: Path, target: int) -> None:
    """Boundaries until ``target`` are resolved (the clock jumps to each next deadline),
    a heartbeat every 0.2 s meanwhile; prints a JSON summary on its last line."""
    import logging

    from sqlalchemy import func, select

    from pbm.app import create_service_app
    from pbm.clock import Clock, FixedClock
    from pbm.models import PhaseRow
    from pbm.worker import Worker

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    clock = FixedClock(Clock().now())
    app = create_service_app(settings(url, instance), instance=Path(instance), clock=clock)
    worker = Worker(app, clock)
    factory = app.extensions["pbm_sessions"]
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(0.2):
            worker.heartbeat()

    beating = threading.Thread(target=beat, daemon=True)
    print("ready", flush=True)
    sys.stdin.readline()  # go
    began = time.monotonic()
    beating.start()
    resolved = 0
    while resolved < target:
        with factory() as s:
            due = s.scalar(select(func.min(PhaseRow.ends_at)).where(PhaseRow.status == "open"))
        if due is None:
            break
        clock.set(max(clock.now(), due.replace(tzinfo=clock.now().tzinfo) + timedelta(seconds=1)))
        resolved += len(worker.boundaries())
    stop.set()
    beating.join()
    print(json.dumps({"boundaries": resolved, "seconds": round(time.monotonic() - began, 1)}), flush=True)


@dataclass
class Tally:
    answers: Counter = field(default_factory=Counter)   # (what, status) -> count
    submissions: int = 0  # votes by day, shouts by night
    meanwhile: int = 0  # the submissions made while the worker was resolving boundaries
    resolving: bool = False
    logins: int = 0
    errors: list[str] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)  # (seconds, what), the ten slowest

    def timed(self, what: str, seconds: float) -> None:
        self.slowest = sorted([*self.slowest, (round(seconds, 2), what)], reverse=True)[:10]

    @property
    def busy(self) -> int:
        return sum(n for (_, status), n in self.answers.items() if status == 503)

    @property
    def failed(self) -> int:
        return sum(n for (_, status), n in self.answers.items() if status >= 500)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def play(base: str, email: str, slug: str, stop: threading.Event, tally: Tally, lock: threading.Lock) -> None:
    """One person, until ``stop``: log in, read their page, vote if a vote is open, log out."""
    def ask(what: str, path: str, data: dict | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        began = time.monotonic()
        try:
            with opener.open(base + path, body, timeout=60) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as answer:
            status, text = answer.code, answer.read().decode(errors="replace")
        except OSError as exc:
            with lock:
                tally.timed(f"{what}: {exc!r}"[:120], time.monotonic() - began)
            raise
        with lock:
            tally.answers[(what, status)] += 1
            tally.timed(f"{what} ({status})", time.monotonic() - began)
        return status, text

    round_ = 0
    while not stop.is_set():
        round_ += 1
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                             _NoRedirect())
        try:
            _, page = ask("login page", "/login")
            status, _ = ask("login", "/login", {"csrf_token": CSRF.search(page).group(1), "email": email,
                                                 "password": CLIENT_PASSWORD})
            if status != 302:
                continue
            with lock:
                tally.logins += 1
            for _ in range(3):
                status, page = ask("page", f"/g/{slug}/me")
                token = ACT_CSRF.search(page) if status == 200 else None
                if token is None:
                    continue
                kind, value = token.group(1), PLAYERS[round_ % len(PLAYERS)]
                status, _ = ask(kind, f"/g/{slug}/act", {f"{kind}-csrf_token": token.group(2), f"{kind}-kind": kind,
                                                        f"{kind}-{kind}": value if kind == "vote" else f"Urlo {value}"})
                if status == 302:
                    with lock:
                        tally.submissions += 1
                        tally.meanwhile += tally.resolving
            status, page = ask("page", "/account")
            match = CSRF.search(page) if status == 200 else None
            if match:
                ask("logout", "/logout", {"csrf_token": match.group(1)})
        except Exception as exc:  # reported: a client that broke is a finding
            with lock:
                tally.errors.append(repr(exc)[:300])


def run(folder: Path, games: int, boundaries: int, port: int) -> tuple[Tally, dict, str]:
    """Seed, start web and worker, let the four clients play while the worker resolves
    ``boundaries``; returns the tally, the worker's summary and what it logged."""
    url = f"sqlite:///{folder / 'busy.sqlite3'}"
    clients = seed(url, folder, games)
    web = start_web(url, folder, port)
    worker = start_worker(url, folder, boundaries)
    tally, lock, stop = Tally(), threading.Lock(), threading.Event()
    try:
        _wait_for(f"http://127.0.0.1:{port}/login", web)
        assert worker.stdout.readline().strip() == "ready"
        people = [threading.Thread(target=play, args=(f"http://127.0.0.1:{port}", email, slug, stop, tally, lock))
                  for email, slug in clients]
        for person in people:
            person.start()
        time.sleep(1.0)  # the first logins are under way: the first login after a start is one of them
        with lock:
            tally.resolving = True
        _go(worker)
        out, worker_log = worker.communicate(timeout=600)
        with lock:
            tally.resolving = False
        stop.set()
        for person in people:
            person.join(120)
    finally:
        stop.set()
        for process in (worker, web):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
    summary = json.loads(out.strip().splitlines()[-1])
    return tally, summary, worker_log


def _go(worker: subprocess.Popen) -> None:
    worker.stdin.write("go\n")
    worker.stdin.flush()


def _wait_for(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode(errors="replace")[-2000:]
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within {timeout} s")


if __name__ == "__main__":
    if sys.argv[1] == "worker":
        run_worker(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
