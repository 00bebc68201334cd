"""The piazza's costs on the web (issues 30 and 33, item 4), beside a bare request,
through the production server (gunicorn, as `pbm web` runs it).

Four 40-player games of Lupus LIVE! 12 on their first day, each with its piazza:

- short: 50 posts; long: 5,000 posts (a room's page and its polling endpoint must
  cost the same in both: flat with the room's length);
- talk: posted in; half its players take every post by mail, half a digest (the
  issue's day), so a post makes about twenty mails (the worker's work, a few seconds
  after the post: timed here after the run, outside the request);
- quiet: posted in; every reader on the web only (what a post costs the web itself).

One client, logged in as a player of all four games on a kept-alive connection, asks
in turn: the bare endpoint (``/bare``: a Flask view returning a word, through the
same app, hooks and server), the floor of a POST (``/floor``: a logged-in, CSRF-checked
POST that flashes and redirects, as bench_web.py has it), the polling endpoint when
nothing is new (204), the room's page, and a post (the composer sent, redirected).
p50 of each, and each as a ratio to the bare request measured beside it.

Targets (issue 33, item 4): a post at most 3x a bare request; the room's page and its
polling endpoint flat with the room's length; the polling endpoint at most 1.5x a bare
request when nothing is new. Recorded in bench/results.json under "talk".

    .venv/bin/python bench/bench_talk.py [--rounds 200] [--workers 2] [--threads 4] [--quick]
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from typing import Any

from _support import (
    NAMES, ROOT, TUESDAY_0930_ROME, fast_passwords, median, open_day_one, percentile, record, scratch,
    service_app,
)
from bench_web import TOKEN_RE, Client, Server, load_average

from sqlalchemy import func, insert, select

from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.models import Game, OutboxRow, User
from pbm.operations import rooms
from pbm.talk_models import DIGEST, EVERY_POST, WEB_ONLY, PostRow
from pbm.worker import Worker

GAMES = {"short": 50, "long": 5000, "talk": 50, "quiet": 50}
READER = NAMES[20]  # a villager (_support.roles_for): the piazza is all they read
POSTS_TOKEN = re.compile(r'data-newest="([A-Za-z0-9_-]+)"')
ROOM_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def set_up(app: Any, clock: FixedClock) -> dict[str, int]:
    """The four games, their piazzas filled, their readers' choices made."""
    factory = app.extensions["pbm_sessions"]
    ids = {slug: open_day_one(app, clock, slug=slug, passwords=True) for slug in GAMES}
    for slug, count in GAMES.items():
        with transaction(factory) as s:
            game = s.get(Game, ids[slug])
            room = rooms.room_row(s, game, "piazza", clock.now())
            for i, seat in enumerate(game.seats):
                delivery = WEB_ONLY if slug != "talk" else (EVERY_POST if i % 2 else DIGEST)
                rooms.choose_delivery(rooms.reader_of(s, room, seat.user), delivery)
            for master in game.masters:
                rooms.choose_delivery(rooms.reader_of(s, room, s.get(User, master.user_id)), WEB_ONLY)
            authors = [seat for seat in game.seats if seat.name != READER]
            s.execute(insert(PostRow), [
                {"room_id": room.id, "game_id": game.id, "seat_id": authors[i % len(authors)].id,
                 "author_id": authors[i % len(authors)].user_id, "signature": authors[i % len(authors)].name,
                 "heading": {}, "body": f"Messaggio numero {i}: " + "parole della piazza " * (i % 7 + 1),
                 "created_at": clock.now(), "via": "web", "status": "shown"} for i in range(count)])
    return ids


class Talker(Client):
    """The reader's browser: logged in once, then every game's room and composer."""

    def log_in_as(self, name: str) -> None:
        from _support import PLAYER_PASSWORD, player_email
        _, page = self.request("GET", "/login")
        status, _ = self.request("POST", "/login", {"csrf_token": TOKEN_RE.search(page).group(2),
                                                    "email": player_email(name), "password": PLAYER_PASSWORD})
        assert status == 302, f"login of {name} failed"
        _, page = self.request("GET", "/g/short/rooms/piazza")
        self.csrf = ROOM_CSRF.search(page).group(1)
        self.newest: dict[str, str] = {}
        for slug in GAMES:
            _, page = self.request("GET", f"/g/{slug}/rooms/piazza")
            self.newest[slug] = POSTS_TOKEN.search(page).group(1)

    def room(self, slug: str) -> float:
        elapsed, page = self.timed("GET", f"/g/{slug}/rooms/piazza")
        if page.count('class="post') < 50:
            raise SystemExit(f"the {slug} room's page shows fewer than 50 posts")
        return elapsed

    def poll(self, slug: str) -> float:
        return self.timed("GET", f"/g/{slug}/rooms/piazza/since/{self.newest[slug]}", expect=204)[0]

    def post(self, slug: str, n: int) -> float:
        return self.timed("POST", f"/g/{slug}/rooms/piazza/post",
                          {"csrf_token": self.csrf, "body": f"Il mio messaggio numero {n}, per la piazza"},
                          expect=302)[0]

    def floor(self) -> float:
        return self.timed("POST", "/floor", {"csrf_token": self.csrf}, expect=302)[0]


KINDS = ("bare", "floor", "poll_short", "poll_long", "room_short", "room_long", "post_quiet", "post_talk")


def measure(client: Talker, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    for n in range(rounds):
        times["bare"].append(client.bare())
        times["poll_short"].append(client.poll("short"))
        times["floor"].append(client.floor())
        times["poll_long"].append(client.poll("long"))
        times["room_short"].append(client.room("short"))
        times["bare"].append(client.bare())
        times["room_long"].append(client.room("long"))
        times["post_quiet"].append(client.post("quiet", n))
        times["post_talk"].append(client.post("talk", n))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="60 rounds")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds = 60

    fast_passwords()
    folder = scratch()
    clock = FixedClock(TUESDAY_0930_ROME)
    app = service_app(folder, clock)
    began = time.perf_counter()
    ids = set_up(app, clock)
    app.extensions["pbm_engine"].dispose()
    print(f"set-up: {time.perf_counter() - began:.1f} s")

    server = Server("after", ROOT, folder)
    load = {"start": load_average()}
    try:
        server.start(args.workers, args.threads)
        server.wait_ready()
        client = Talker(server.port)
        client.log_in_as(READER)
        measure(client, 10)  # every worker's caches warm
        times = measure(client, args.rounds)
        load["end"] = load_average()
    finally:
        server.stop()

    # The posts' mail is the worker's (issue 33): made here as its outbox job makes it.
    engine_app = service_app(folder, clock)
    began = time.perf_counter()
    mails_made = Worker(engine_app, clock).room_posts()
    worker_seconds = time.perf_counter() - began
    with engine_app.extensions["pbm_sessions"]() as s:
        queued = {slug: s.scalar(select(func.count()).select_from(OutboxRow).where(
            OutboxRow.game_id == ids[slug], OutboxRow.kind == "room_post")) or 0 for slug in ("talk", "quiet")}
    posts_made = args.rounds + 10
    p50 = {k: median(v) * 1000 for k, v in times.items()}
    p90 = {k: percentile(v, 0.9) * 1000 for k, v in times.items()}
    ratio = {k: p50[k] / p50["bare"] for k in KINDS}
    print(f"gunicorn {args.workers}x{args.threads}, one client, {args.rounds} rounds; load average at the start "
          f"{load['start']}, at the end {load['end']}")
    labels = {"bare": "bare request", "floor": "floor of a POST (CSRF, flash, redirect)",
              "poll_short": "polling endpoint, nothing new, 50 posts",
              "poll_long": "polling endpoint, nothing new, 5,000 posts",
              "room_short": "room page, 50 posts", "room_long": "room page, 5,000 posts",
              "post_quiet": "a post, every reader on the web only",
              "post_talk": "a post, half the 40 readers by mail"}
    for k in KINDS:
        print(f"  {labels[k]:45s} p50 {p50[k]:7.2f} ms  p90 {p90[k]:7.2f} ms  ({ratio[k]:4.2f}x bare)")
    print(f"mail queued per post: {queued['talk'] / posts_made:.1f} (half the readers by mail), "
          f"{queued['quiet'] / posts_made:.1f} (web only); made by the worker after the run: {mails_made} mails "
          f"of {2 * posts_made} posts in {worker_seconds:.2f} s ({worker_seconds / (2 * posts_made) * 1000:.2f} ms "
          "a post)")
    print(f"targets: polling endpoint with nothing new at most 1.5x bare: {ratio['poll_short']:.2f}x; "
          f"a post at most 3x bare: {ratio['post_quiet']:.2f}x (web only), {ratio['post_talk']:.2f}x (with mail); "
          f"room page 5,000 / 50 posts: {p50['room_long'] / p50['room_short']:.2f}; "
          f"polling endpoint 5,000 / 50: {p50['poll_long'] / p50['poll_short']:.2f}")
    record("talk", {
        "server": f"gunicorn {args.workers}x{args.threads}", "rounds": args.rounds, "load_average": load,
        **{f"{k}_p50_ms": round(p50[k], 2) for k in KINDS},
        **{f"{k}_p90_ms": round(p90[k], 2) for k in KINDS},
        **{f"{k}_to_bare_p50_ratio": round(ratio[k], 2) for k in KINDS if k != "bare"},
        "room_page_long_to_short_ratio": round(p50["room_long"] / p50["room_short"], 2),
        "poll_long_to_short_ratio": round(p50["poll_long"] / p50["poll_short"], 2),
        "mail_queued_per_post": {"half_by_mail": round(queued["talk"] / posts_made, 1),
                                 "web_only": round(queued["quiet"] / posts_made, 1)},
        "worker_ms_per_post": round(worker_seconds / (2 * posts_made) * 1000, 2),
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
