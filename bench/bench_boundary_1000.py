"""One boundary at which 1,000 games of 40 players each turn over in the same minute.

Measures the time from the scheduler firing (resolve_due) to every outgoing
message stored in the outbox: 1,000 days resolved with 40 votes each, their
events, 41,000 mails rendered and queued, 1,000 nights opened.  Runs on a
throwaway SQLite file, or on a throwaway PostgreSQL cluster (the tests'
PostgresServer: fsync off), or on both one after the other.

Each worker is a process of its own, as `pbm worker` is: with several on one
database they split the boundary between them through the phases' claims
(operations.boundary._claim). Every run starts from the same seeded database
(a copy of it), and afterwards checks that no phase was resolved twice and no
mail queued twice. By default both engines are measured, SQLite with one worker
and PostgreSQL with one, then two.
Targets on the 2-core machine: 1,000 games under 20 s; two workers faster than one.

    .venv/bin/python bench/bench_boundary_1000.py [GAMES] [--database sqlite|postgresql|both]
                                                  [--workers N [N ...]]
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import secrets
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, insert, select

from engine.core import setup_rng
from engine.registry import get_ruleset
from pbm import operations
from pbm.app import create_app
from pbm.clock import FixedClock
from pbm.migrate import upgrade
from pbm.models import ActionRow, EventRow, Game, GameMaster, OutboxRow, PhaseRow, Seat, User
from pbm.operations.games import open_phase
from tests.fixtures.postgres import PostgresServer

PLAYERS = 40
ROLES = ["Lupo Mannaro"] * 8 + ["Veggente"] * 3 + ["Guardia del corpo"] * 3 + ["Contadino"] * 26
MONDAY_10 = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)   # day phase, ends 21:00 Rome
MONDAY_2100 = datetime(2026, 11, 23, 20, 0, 30, tzinfo=timezone.utc)
TARGET_SECONDS = 20


def player_address(game: int, player: int) -> str:
    return f"p{game}-{player}@bench.test"


def seed(factory, config, games: int, *, votes: bool = True, password_hash: str = "x") -> None:
    """Games already in their first day, with every vote in (``votes``): bulk inserts,
    then the engine's own setup and the service's own phase opening for each game.
    ``password_hash``: every player's, so that they can log in (bench_rush.py)."""
    rng = random.Random(1)
    ruleset = get_ruleset("lupus-live-12")
    with factory() as s, s.begin():
        s.execute(insert(User), [{"email": "m@bench.test", "name": "M", "password_hash": "x", "lang": "it",
                                  "is_admin": True, "reminders": True, "address_failing": False}])
        master_id = s.scalar(select(User.id))
        s.execute(insert(User), [{"email": player_address(g, i), "name": f"P{i}", "password_hash": password_hash,
                                  "lang": "it" if i % 3 else "en", "is_admin": False, "reminders": True,
                                  "address_failing": False}
                                 for g in range(games) for i in range(PLAYERS)])
        users = dict(s.execute(select(User.email, User.id)).all())
        for g in range(games):
            game = Game(slug=f"g{g}", name=f"Partita {g}", ruleset="lupus-live-12", status="running",
                        seed=str(g), schedule={}, auto_publish=True, composition={}, created_at=MONDAY_10)
            s.add(game)
            s.flush()
            s.add(GameMaster(game_id=game.id, user_id=master_id))
            names = [f"P{i:02d}" for i in range(PLAYERS)]
            s.execute(insert(Seat), [{"game_id": game.id, "user_id": users[player_address(g, i)],
                                      "name": names[i], "position": i, "token": secrets.token_urlsafe(12),
                                      "disqualified": False} for i in range(PLAYERS)])
            roles = ROLES[:]
            rng.shuffle(roles)
            state, _ = ruleset.setup(list(zip(names, roles)), setup_rng(g), {})
            state.phase.kind = "day"  # as if night 1 had passed quietly
            game.state = state.to_dict()
            phase = open_phase(s, game, state, index=1, after=MONDAY_10, now=MONDAY_10)
            if not votes:
                continue
            seats = s.execute(select(Seat.id, Seat.name).where(Seat.game_id == game.id)).all()
            s.execute(insert(ActionRow), [{"game_id": game.id, "phase_id": phase.id, "seat_id": sid,
                                           "kind": "vote", "args": {"vote": rng.choice(names)},
                                           "submitted_at": MONDAY_10, "source": "web", "source_detail": ""}
                                          for sid, _name in seats])


class Databases:
    """Copies of one seeded database, one for each run, on SQLite or PostgreSQL."""

    def __init__(self, engine: str, folder: Path, pg: PostgresServer | None) -> None:
        self.engine, self.folder, self.pg = engine, folder, pg
        self.copies = 0

    def new(self) -> str:
        if self.engine == "sqlite":
            return f"sqlite:///{self.folder / 'seeded.sqlite3'}"
        return self.pg.create_database()

    def copy(self, seeded: str) -> str:
        """A copy of the seeded database (nothing may be connected to it)."""
        self.copies += 1
        if self.engine == "sqlite":
            target = self.folder / f"run{self.copies}.sqlite3"
            with sqlite3.connect(seeded.removeprefix("sqlite:///")) as src, sqlite3.connect(target) as dst:
                src.backup(dst)
            return f"sqlite:///{target}"
        import psycopg

        name, template = f"pbm_bench_run{self.copies}", seeded.rsplit("/", 1)[1]
        with psycopg.connect(host="127.0.0.1", port=self.pg.port, user="postgres", dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return self.pg.url(name)


@contextmanager
def databases(engine: str, folder: Path) -> Iterator[Databases]:
    if engine == "sqlite":
        yield Databases(engine, folder, None)
    else:
        with PostgresServer() as pg:
            yield Databases(engine, folder, pg)


def worker(url: str, folder: str, ready: Any, go: Any, results: Any) -> None:
    """One `pbm worker`'s boundary job, in a process of its own: set up and connected
    before the clock starts, then one resolve_due as the scheduler would run it."""
    app = create_app({"DATABASE_URL": url}, instance=Path(folder), clock=FixedClock(MONDAY_2100))
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        s.scalar(select(func.count()).select_from(PhaseRow))
    ready.put(os.getpid())
    go.wait()
    cpu = time.process_time()
    resolved = operations.resolve_due(factory, app.config, MONDAY_2100)
    results.put({"resolved": resolved, "ended": time.monotonic(), "cpu": time.process_time() - cpu})
    app.extensions["pbm_engine"].dispose()


def run_workers(url: str, folder: Path, count: int) -> tuple[float, list[dict[str, Any]]]:
    ctx = multiprocessing.get_context("spawn")
    ready, results, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    procs = [ctx.Process(target=worker, args=(url, str(folder), ready, go, results)) for _ in range(count)]
    for p in procs:
        p.start()
    for _ in procs:
        ready.get(timeout=120)
    started = time.monotonic()
    go.set()
    done = [results.get(timeout=1800) for _ in procs]
    for p in procs:
        p.join(60)
    return max(d["ended"] for d in done) - started, done


def check_no_double_work(factory, games: int, done: list[dict[str, Any]]) -> int:
    """Every due phase resolved once, by one worker; every mail queued once. Returns the mails."""
    by_worker = [set(d["resolved"]) for d in done]
    everything = set().union(*by_worker)
    assert sum(len(w) for w in by_worker) == len(everything) == games, \
        f"phases resolved {sum(len(w) for w in by_worker)} times over {len(everything)} phases, {games} games"
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(PhaseRow).where(PhaseRow.status == "published")) == games
        assert s.scalar(select(func.count()).select_from(PhaseRow)) == 2 * games  # each day, each next night
        twice = select(OutboxRow.game_id, OutboxRow.to_addr, OutboxRow.kind).group_by(
            OutboxRow.game_id, OutboxRow.to_addr, OutboxRow.kind).having(func.count() > 1)
        assert s.execute(twice.limit(1)).first() is None, "a mail was queued twice"
        again = select(EventRow.phase_id, EventRow.seq).group_by(EventRow.phase_id, EventRow.seq) \
            .having(func.count() > 1)
        assert s.execute(again.limit(1)).first() is None, "a phase's events were stored twice"
        mails = s.scalar(select(func.count()).select_from(OutboxRow))
    assert mails == games * (PLAYERS + 1), (mails, games)
    return mails


def measure(engine: str, games: int, worker_counts: list[int]) -> dict[int, float]:
    folder = Path(tempfile.mkdtemp(prefix="pbm-bench-"))
    seconds: dict[int, float] = {}
    with databases(engine, folder) as dbs:
        seeded = dbs.new()
        upgrade(seeded)
        app = create_app({"DATABASE_URL": seeded}, instance=folder, clock=FixedClock(MONDAY_2100))
        t0 = time.perf_counter()
        seed(app.extensions["pbm_sessions"], app.config, games)
        app.extensions["pbm_engine"].dispose()  # a database copied must have no one connected
        print(f"[{engine}] seeded {games} games of {PLAYERS} players in {time.perf_counter() - t0:.1f} s")
        for count in worker_counts:
            url = dbs.copy(seeded)
            load = os.getloadavg()[0]
            elapsed, done = run_workers(url, folder, count)
            app = create_app({"DATABASE_URL": url}, instance=folder, clock=FixedClock(MONDAY_2100))
            mails = check_no_double_work(app.extensions["pbm_sessions"], games, done)
            app.extensions["pbm_engine"].dispose()
            seconds[count] = elapsed
            shares = ", ".join(f"{len(d['resolved'])} games in {d['cpu']:.1f} s of CPU" for d in done)
            print(f"[{engine}] boundary, {count} worker{'s' if count > 1 else ''}: {games} games, {mails} mails "
                  f"stored, {elapsed:.1f} s ({elapsed / games * 1000:.1f} ms a game; {shares}; none twice); "
                  f"load average {load:.1f} at the start; target for 1,000 games: under {TARGET_SECONDS} s")
            from _support import record
            record(f"boundary_{games}_games_{engine}" + (f"_{count}_workers" if count > 1 else ""), {
                "games": games, "players": PLAYERS, "mails": mails, "workers": count,
                "seconds": round(elapsed, 1), "games_per_worker": [len(d["resolved"]) for d in done],
                "cpu_seconds_per_worker": [round(d["cpu"], 1) for d in done],
                "load_average_at_start": round(load, 1)})
    if len(seconds) > 1 and 1 in seconds:
        for count, s in seconds.items():
            if count > 1:
                print(f"[{engine}] {count} workers: {seconds[1] / s:.2f}x the speed of one")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=1000, help="games turning over (default: 1000)")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both",
                        help="engine to measure on; postgresql starts a throwaway cluster (default: both)")
    parser.add_argument("--workers", type=int, nargs="+", default=None,
                        help="worker processes, one run each (default: 1 on SQLite, 1 then 2 on PostgreSQL)")
    args = parser.parse_args(argv)
    for engine in ("sqlite", "postgresql") if args.database == "both" else (args.database,):
        counts = args.workers or ([1] if engine == "sqlite" else [1, 2])
        measure(engine, args.games, counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
