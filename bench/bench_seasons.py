"""A group's statistics on the web (issue 34), beside a bare request, through the
production server (gunicorn, as `pbm web` runs it).

One group of two seasons, 200 finished games of Lupus LIVE! 12 with 40 players each,
drawn from 60 accounts (so the group's standings have 60 rows and every player has
about 130 games): each game created, seated, placed in a season, started and played
through the operations (its first night and day resolved, then ended by its Master),
so each is counted by the service's own listener as it ends, as in production.

One client on a kept-alive connection asks in turn: the bare endpoint (``/bare``, as
bench_web.py serves it), the group's page, a season's table and a player's page. p50
of each and its ratio to the bare request; the pages read running totals kept as each
game ended, so they should cost the same with 20 games or 200. Also printed: what
counting one game costs at its end. Target (issue 34): each page at most 3x a bare
request. Recorded in bench/results.json under "seasons".

    .venv/bin/python bench/bench_seasons.py [--games 200] [--rounds 200] [--workers 2] [--threads 4] [--quick]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from _support import (
    NAMES, ROOT, TUESDAY_0930_ROME, fast_passwords, median, percentile, record, roles_for, scratch, service_app,
)
from bench_web import Client, Server, load_average

from sqlalchemy import select

from pbm import operations
from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.models import Game, User
from pbm.operations import desk, seasons
from pbm.season_models import SeasonRow
from pbm.stats import record as counting

PLAYERS = 40
POOL = [f"{name}{n}" for n in range(2) for name in NAMES][:60]
KINDS = ("bare", "group", "season", "player")


def set_up(app: Any, clock: FixedClock, games: int) -> tuple[str, str, int, list[float]]:
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        master, _ = operations.ensure_user(s, email="master@lupus.test", name="Master Mara")
        master.is_admin = True
        group = seasons.create_group(s, name="Circolo del Martedì", owner=master, now=clock.now())
        season_ids = [seasons.add_season(s, group, name=n, by=master, now=clock.now()).id
                      for n in ("Autunno", "Primavera")]
        group_slug, master_id = group.slug, master.id
    rng = random.Random(34)
    counted: list[float] = []
    real_count = counting.count_game

    def timed_count(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return real_count(*args, **kwargs)
        finally:
            counted.append(time.perf_counter() - began)
    counting.count_game = timed_count
    for n in range(games):
        names = rng.sample(POOL, PLAYERS)
        with transaction(factory) as s:
            master = s.get(User, master_id)
            game = operations.create_game(s, name=f"Partita {n}", ruleset="lupus-live-12", master=master,
                                          now=clock.now(), seed=f"seme{n}")
            for name in names:
                operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@players.test",
                                      now=clock.now(), by=master)
            seasons.place_game(s, game, season_ids[n % 2], fair_deal=False, by=master, now=clock.now())
            shuffled = list(names)
            rng.shuffle(shuffled)
            operations.start_game(s, app.config, game, roles=roles_for(shuffled), now=clock.now(), by=master)
            game_id = game.id
        for _moment in range(2):  # night 1 and day 1, nobody acting but the count of who was due
            with transaction(factory) as s:
                operations.close_and_resolve(s, app.config, s.get(Game, game_id), clock.now())
        with transaction(factory) as s:
            game = s.get(Game, game_id)
            if game.status != "over":
                desk.intervene(s, app.config, game, "end", [rng.choice(["Lupi", "Villaggio"])], clock.now(),
                               by=s.get(User, master_id))
    counting.count_game = real_count
    with factory() as s:
        season_slug = s.scalar(select(SeasonRow.slug).where(SeasonRow.id == season_ids[0]))
        player_id = s.scalar(select(User.id).where(User.email == f"{POOL[0].lower()}@players.test"))
    return group_slug, season_slug, player_id, counted


def measure(client: Client, paths: dict[str, str], rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    for _ in range(rounds):
        for kind in KINDS:
            times[kind].append(client.timed("GET", paths[kind])[0])
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="40 games, 60 rounds")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.rounds = 40, 60

    fast_passwords()
    folder = scratch()
    clock = FixedClock(TUESDAY_0930_ROME)
    app = service_app(folder, clock)
    began = time.perf_counter()
    group, season, player, counted = set_up(app, clock, args.games)
    app.extensions["pbm_engine"].dispose()
    print(f"set-up: {args.games} games of {PLAYERS} players in {time.perf_counter() - began:.1f} s; "
          f"counting a game at its end: p50 {median(counted) * 1000:.1f} ms, p90 {percentile(counted, 0.9) * 1000:.1f} ms")

    paths = {"bare": "/bare", "group": f"/groups/{group}/", "season": f"/groups/{group}/{season}/",
             "player": f"/players/{player}/"}
    server = Server("after", ROOT, folder)
    load = {"start": load_average()}
    try:
        server.start(args.workers, args.threads)
        server.wait_ready()
        client = Client(server.port)
        measure(client, paths, 10)  # every worker's caches warm
        times = measure(client, paths, args.rounds)
        load["end"] = load_average()
    finally:
        server.stop()

    p50 = {k: median(v) * 1000 for k, v in times.items()}
    p90 = {k: percentile(v, 0.9) * 1000 for k, v in times.items()}
    ratio = {k: p50[k] / p50["bare"] for k in KINDS}
    print(f"gunicorn {args.workers}x{args.threads}, one client, {args.rounds} rounds; load average at the start "
          f"{load['start']}, at the end {load['end']}")
    labels = {"bare": "bare request", "group": "the group's page", "season": "a season's table",
              "player": "a player's page"}
    for k in KINDS:
        print(f"  {labels[k]:25s} p50 {p50[k]:7.2f} ms  p90 {p90[k]:7.2f} ms  ({ratio[k]:4.2f}x bare)")
    print(f"target: each page at most 3x bare: group {ratio['group']:.2f}x, season {ratio['season']:.2f}x, "
          f"player {ratio['player']:.2f}x")
    record("seasons", {
        "server": f"gunicorn {args.workers}x{args.threads}", "games": args.games, "players": PLAYERS,
        "accounts": len(POOL), "rounds": args.rounds, "load_average": load,
        "count_at_end_p50_ms": round(median(counted) * 1000, 2),
        **{f"{k}_p50_ms": round(p50[k], 2) for k in KINDS},
        **{f"{k}_to_bare_p50_ratio": round(ratio[k], 2) for k in KINDS if k != "bare"},
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
