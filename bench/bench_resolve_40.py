"""Time to resolve a night and a day of a 40-player Lupus LIVE! game.

Prints the median of repeated runs, for the pure engine and for the whole
service boundary (SQLite: claim, resolve, store events, queue 40+ mails,
open the next phase). Run: python bench/bench_resolve_40.py
"""
from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Action, Phase, phase_rng, setup_rng
from engine.registry import get_ruleset

RUNS = 30
N = 40


def seating() -> list[tuple[str, str]]:
    roles = ["Lupo Mannaro"] * 8 + ["Veggente"] * 3 + ["Guardia del corpo"] * 3 + ["Contadino"] * (N - 14)
    return [(f"P{i:02d}", role) for i, role in enumerate(roles)]


def night_actions(state, rng: random.Random) -> list[Action]:
    living = [p.name for p in state.alive()]
    victim = rng.choice([p.name for p in state.alive() if p.faction != "Lupi"])
    acts = []
    for p in state.alive():
        others = [n for n in living if n != p.name]
        if p.role == "Lupo Mannaro":
            acts.append(Action(p.name, "power", {"target": victim}))
        elif p.role in ("Veggente", "Guardia del corpo"):
            acts.append(Action(p.name, "power", {"target": rng.choice(others)}))
    return acts


def day_actions(state, rng: random.Random) -> list[Action]:
    living = [p.name for p in state.alive()]
    return [Action(p.name, "vote", {"vote": rng.choice(living)}) for p in state.alive()]


def bench_engine() -> tuple[float, float]:
    ruleset = get_ruleset("lupus-live-12")
    nights, days = [], []
    for run in range(RUNS):
        rng = random.Random(run)
        state, _ = ruleset.setup(seating(), setup_rng(run))
        state = ruleset.resolve(state, [], phase_rng(run, state.phase)).state  # night 1
        state = ruleset.resolve(state, day_actions(state, rng), phase_rng(run, state.phase)).state
        acts = night_actions(state, rng)
        t = time.perf_counter()
        state = ruleset.resolve(state, acts, phase_rng(run, Phase("night", 2))).state
        nights.append(time.perf_counter() - t)
        acts = day_actions(state, rng)
        t = time.perf_counter()
        ruleset.resolve(state, acts, phase_rng(run, Phase("day", 2)))
        days.append(time.perf_counter() - t)
    return statistics.median(nights), statistics.median(days)


def bench_service(games: int = 12, warm_up: int = 2) -> dict[str, float]:
    """A worker's boundaries, as a long-running worker resolves them: one process,
    one database engine, one 40-player game after another (night 1, then day 1 with
    40 votes). The first boundary of the process is reported alone (it compiles
    SQL statements and templates that every later one reuses); the medians are over
    the games after the first ``warm_up``: wall time, this process's CPU time (what
    the load of other processes changes least), the commit alone (SQLite's flush to
    disk), and the SQL statements a boundary runs."""
    from sqlalchemy import event

    from pbm import operations
    from pbm.app import create_app
    from pbm.clock import FixedClock
    from pbm.db import transaction
    from pbm.migrate import upgrade

    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder / 'bench.sqlite3'}"
    upgrade(url)
    start = datetime(2026, 11, 23, 9, tzinfo=timezone.utc)
    app = create_app({"DATABASE_URL": url}, instance=folder, clock=FixedClock(start))
    factory = app.extensions["pbm_sessions"]
    engine = app.extensions["pbm_engine"]
    counted, committing = [0], [0.0]
    event.listen(engine, "before_cursor_execute", lambda *_a: counted.__setitem__(0, counted[0] + 1))
    real_commit = engine.dialect.do_commit

    def timed_commit(conn, real=real_commit, spent=committing):
        began = time.perf_counter()
        real(conn)
        spent[0] += time.perf_counter() - began

    engine.dialect.do_commit = timed_commit
    runs: dict[str, list[tuple[float, float, float, int]]] = {"night": [], "day": []}
    first: float | None = None
    for run in range(games):
        now = start
        with transaction(factory) as s:
            master, _ = operations.ensure_user(s, email="m@bench.test", name="M")
            game = operations.create_game(s, name=f"Bench {run}", ruleset="lupus-live-12",
                                          master=master, now=now)
            for name, _role in seating():
                operations.add_player(s, app.config, game, name=name, email=f"{name}.{run}@bench.test",
                                      now=now, password="x")
            operations.start_game(s, app.config, game, roles=dict(seating()), now=now)
            gid = game.id
        rng = random.Random(run)
        for _ in range(2):  # night 1, then day 1 with 40 votes
            with transaction(factory) as s:
                game = s.get(operations.Game, gid)
                phase = operations.current_phase(s, game)
                state = operations.current_state(game)
                acts = day_actions(state, rng) if phase.kind == "day" else []
                for a in acts:
                    operations.submit(s, app.config, game, game.seat_by_name(a.player), a.args,
                                      source="web", now=now)
                pid, end, kind = phase.id, phase.ends_at, phase.kind
            now = end + timedelta(seconds=1)
            counted[0], committing[0] = 0, 0.0
            cpu, t = time.process_time(), time.perf_counter()
            operations.resolve_phase(factory, app.config, pid, now)
            wall = time.perf_counter() - t
            if first is None:
                first = wall
            if run >= warm_up:
                runs[kind].append((wall, time.process_time() - cpu, committing[0], counted[0]))
    engine.dispose()

    def median(kind: str, i: int) -> float:
        return statistics.median(r[i] for r in runs[kind])

    out = {"first": first}
    for kind in ("night", "day"):
        out |= {f"{kind}_wall": median(kind, 0), f"{kind}_cpu": median(kind, 1),
                f"{kind}_commit": median(kind, 2), f"{kind}_statements": median(kind, 3)}
    return out


if __name__ == "__main__":
    import os

    night, day = bench_engine()
    print(f"engine, {N} players: night {night * 1000:.2f} ms, day {day * 1000:.2f} ms (median of {RUNS})")
    load = os.getloadavg()[0]
    service = bench_service()
    worst = max(service["night_wall"], service["day_wall"])
    print(f"service boundary on SQLite, {N} players (resolve + events + {N + 1} mails queued + next phase), "
          f"a warm worker, median of 10 games: night {service['night_wall'] * 1000:.1f} ms "
          f"({service['night_cpu'] * 1000:.1f} ms of CPU, the commit {service['night_commit'] * 1000:.1f} ms, "
          f"{service['night_statements']:.0f} SQL statements), day with 40 votes "
          f"{service['day_wall'] * 1000:.1f} ms ({service['day_cpu'] * 1000:.1f} ms of CPU, the commit "
          f"{service['day_commit'] * 1000:.1f} ms, {service['day_statements']:.0f} SQL statements); "
          f"target: under 10 ms; the first boundary of the process (compiling what the others reuse) "
          f"{service['first'] * 1000:.1f} ms; load average {load:.1f} at the start")
    from _support import record
    record("resolve_40", {"engine_night_ms_median": round(night * 1000, 3), "engine_day_ms_median": round(day * 1000, 3),
                          "service_boundary_ms_median": round(worst * 1000, 1),
                          "service_night_ms_median": round(service["night_wall"] * 1000, 1),
                          "service_day_ms_median": round(service["day_wall"] * 1000, 1),
                          "service_night_cpu_ms_median": round(service["night_cpu"] * 1000, 1),
                          "service_day_cpu_ms_median": round(service["day_cpu"] * 1000, 1),
                          "service_night_commit_ms_median": round(service["night_commit"] * 1000, 2),
                          "service_day_commit_ms_median": round(service["day_commit"] * 1000, 2),
                          "service_night_statements_median": service["night_statements"],
                          "service_day_statements_median": service["day_statements"],
                          "service_first_boundary_ms": round(service["first"] * 1000, 1),
                          "load_average_at_start": round(load, 1)})
