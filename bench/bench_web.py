"""Web: a vote POST and the reserved page after it, beside a bare Flask
endpoint, through the production server (gunicorn, as `pbm web` runs it).

One gunicorn (`pbm.webserver`, default 2 processes x 4 threads) serves the
app on a 40-player game on day 1, plus a bare endpoint (`/bare`: a Flask view
returning a word, through the same app, its hooks and its server). Clients
on kept-alive connections, each logged in as a different player:

- latency: one client, the three requests in turn (bare, vote POST, the
  reserved page it redirects to), p50 of each and the ratios to bare;
- throughput: CLIENTS clients at once, first only bare requests, then
  vote + reserved page, then bare again; requests per second of each;
- the reserved page's p50 again once EXTRA_VOTES more votes are in the
  phase (it should stay flat with the phase's submissions).

Target: a vote costs at most 3x a bare request.

    .venv/bin/python bench/bench_web.py [--seconds 5] [--clients 4] [--workers 2] [--threads 4] [--quick]
"""
from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from _support import (  # noqa: E402 (sets the path)
    NAMES, PLAYER_PASSWORD, ROOT, TUESDAY_0930_ROME, fast_passwords, median, open_day_one, percentile,
    player_email, record, scratch, service_app,
)

from sqlalchemy import create_engine, func, insert, select  # noqa: E402

from pbm.clock import FixedClock  # noqa: E402
from pbm.models import ActionRow, PhaseRow, Seat  # noqa: E402
from tests.fixtures.smtp import free_port  # noqa: E402

SLUG = "bench"
TOKEN_RE = re.compile(r'name="([a-z]+-)?csrf_token" type="hidden" value="([^"]+)"')
VOTE_OPTION_RE = re.compile(r'<option value="([^"]+)"')


def serve(port: int, folder: Path, workers: int, threads: int) -> None:
    """The server process: the app at the day-1 instant, /bare beside it, under gunicorn."""
    from pbm.app import create_app
    from pbm.webserver import WebServer, options
    app = create_app(instance=folder, clock=FixedClock(TUESDAY_0930_ROME))
    app.add_url_rule("/bare", "bare", lambda: "ok")
    WebServer(app, {**options("127.0.0.1", port, workers, threads), "loglevel": "warning"}).run()


class Client:
    """One player's browser: a kept-alive connection and the session cookie."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
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
        _, page = self.request("GET", f"/g/{SLUG}/me")
        self.vote_token = next(m.group(2) for m in TOKEN_RE.finditer(page) if m.group(1) == "vote-")
        vote_form = page[page.index('name="vote-vote"'):]
        self.targets = VOTE_OPTION_RE.findall(vote_form[:vote_form.index("</select>")])
        assert self.targets, "no vote form on the reserved page"

    def vote(self, rng: random.Random) -> float:
        elapsed, _ = self.timed("POST", f"/g/{SLUG}/act", {
            "vote-csrf_token": self.vote_token, "vote-kind": "vote", "vote-vote": rng.choice(self.targets)},
            expect=302)
        return elapsed

    def reserved(self) -> float:
        elapsed, page = self.timed("GET", f"/g/{SLUG}/me")
        if "Registrato" not in page and "Recorded" not in page:
            raise SystemExit("the reserved page after a vote does not confirm it")
        return elapsed

    def bare(self) -> float:
        return self.timed("GET", "/bare")[0]


def latency(client: Client, rounds: int, rng: random.Random) -> dict[str, float]:
    times: dict[str, list[float]] = {"bare": [], "vote": [], "reserved": []}
    for _ in range(rounds):
        times["bare"].append(client.bare())
        times["vote"].append(client.vote(rng))
        times["reserved"].append(client.reserved())
    return {k: median(v) * 1000 for k, v in times.items()} | {
        f"{k}_p90": percentile(v, 0.9) * 1000 for k, v in times.items()}


def throughput(clients: list[Client], seconds: float, work: str) -> float:
    """Requests per second (a vote and its page count as one) of all clients for ``seconds``."""
    done = [0] * len(clients)
    stop = time.perf_counter() + seconds

    def run(i: int) -> None:
        rng = random.Random(i)
        while time.perf_counter() < stop:
            if work == "bare":
                clients[i].bare()
            else:
                clients[i].vote(rng)
                clients[i].reserved()
            done[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done) / (time.perf_counter() - began)


def vote_count(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.kind == "vote"))
    finally:
        engine.dispose()


def add_votes(url: str, count: int) -> None:
    """``count`` more votes in the open phase, spread over every seat, as if
    the players had changed their minds that often."""
    if count <= 0:
        return
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            phase_id = conn.scalar(select(PhaseRow.id).where(PhaseRow.status == "open"))
            seats = conn.execute(select(Seat.id, Seat.game_id, Seat.name)).all()
            conn.execute(insert(ActionRow), [
                {"game_id": seats[n % len(seats)].game_id, "phase_id": phase_id, "seat_id": seats[n % len(seats)].id,
                 "kind": "vote", "args": {"vote": seats[(n * 7) % len(seats)].name},
                 "submitted_at": TUESDAY_0930_ROME, "source": "web", "source_detail": ""}
                for n in range(count)])
    finally:
        engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="of each throughput measurement")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=200, help="of the latency measurement")
    parser.add_argument("--extra-votes", type=int, default=2000,
                        help="votes added to the phase before the reserved page is timed again")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="2 s per throughput figure, 60 latency rounds")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), args.workers, args.threads)
        return 0
    if args.quick:
        args.seconds, args.rounds = 2.0, 60

    fast_passwords()
    folder = scratch()
    clock = FixedClock(TUESDAY_0930_ROME)
    app = service_app(folder, clock)
    open_day_one(app, clock, slug=SLUG, passwords=True)
    app.extensions["pbm_engine"].dispose()
    url = app.config["DATABASE_URL"]

    port = free_port()
    env = {**os.environ, "PBM_INSTANCE": str(folder), "PBM_DATABASE_URL": url}
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), str(folder),
                               "--workers", str(args.workers), "--threads", str(args.threads)],
                              cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                Client(port).request("GET", "/bare")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the web server did not start")
                time.sleep(0.1)
        clients = [Client(port) for _ in range(max(1, args.clients))]
        for client, name in zip(clients, NAMES):
            client.log_in(name)
        rng = random.Random(1)
        latency(clients[0], 10, rng)  # warm up every worker's caches
        print(f"gunicorn: {args.workers} processes x {args.threads} threads; 40-player game on day 1; "
              f"{len(clients)} clients")
        first = latency(clients[0], args.rounds, rng)
        votes_before = vote_count(url)
        print(f"latency, one client, {args.rounds} rounds (p50 / p90):")
        for k in ("bare", "vote", "reserved"):
            print(f"  {k:9s} {first[k]:6.2f} ms / {first[k + '_p90']:6.2f} ms"
                  + ("" if k == "bare" else f"   {first[k] / first['bare']:.1f}x bare"))
        bare_rps = throughput(clients, args.seconds / 2, "bare")
        vote_rps = throughput(clients, args.seconds, "vote")
        bare_rps = (bare_rps + throughput(clients, args.seconds / 2, "bare")) / 2  # before and after
        add_votes(url, args.extra_votes)
        votes = vote_count(url)
        later = latency(clients[0], max(20, args.rounds // 4), rng)
        print(f"throughput, {len(clients)} clients: bare {bare_rps:.0f} requests/s; "
              f"vote + reserved page {vote_rps:.0f} pairs/s ({2 * vote_rps:.0f} requests/s); "
              f"a vote + its page costs {bare_rps / vote_rps:.1f}x a bare request")
        print(f"reserved page p50 with {votes} votes in the phase: {later['reserved']:.2f} ms "
              f"(with {votes_before}: {first['reserved']:.2f} ms; target: flat)")
        ratio = first["vote"] / first["bare"]
        print(f"web: vote POST p50 {first['vote']:.2f} ms = {ratio:.1f}x the bare request's "
              f"{first['bare']:.2f} ms (target: at most 3x)")
    finally:
        server.terminate()
        server.wait(30)
    record("web", {
        "server": f"gunicorn {args.workers}x{args.threads}", "clients": len(clients),
        "bare_p50_ms": round(first["bare"], 2), "vote_p50_ms": round(first["vote"], 2),
        "reserved_p50_ms": round(first["reserved"], 2),
        "vote_to_bare_p50_ratio": round(ratio, 2),
        "reserved_to_bare_p50_ratio": round(first["reserved"] / first["bare"], 2),
        "bare_requests_per_second": round(bare_rps, 1), "vote_and_page_per_second": round(vote_rps, 1),
        "bare_to_vote_and_page_throughput_ratio": round(bare_rps / vote_rps, 2),
        "votes_in_phase_before": votes_before,
        "reserved_p50_ms_after_votes": round(later["reserved"], 2), "votes_in_phase_after": votes,
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
