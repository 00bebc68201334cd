"""Memory: the worker's resident size as 1,000 boundaries go by.

GAMES games of 12 players run side by side on SQLite; the clock jumps from
one deadline to the next and the worker's own boundary job
(Worker.boundaries: resolve, events, mails queued, next phase) turns them
over. Before each deadline the players act through operations.submit (the
day's votes agree on one name, the wolves pick a victim), so games end
within days and new ones take their place: the process goes on playing new
games, not one ever-longer game. Its resident size (VmRSS) is printed every
100 boundaries; it must level off, not grow with the games played.

The measured process is this one, running the worker's code; the players'
submissions and the new games are made in it too. Mail is queued, not sent
(bench_mail_out.py measures sending).

    .venv/bin/python bench/bench_worker_memory.py [--boundaries 1000] [--games 20] [--quick]
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from _support import MONDAY_10_ROME, fast_passwords, record, scratch, service_app  # first: it puts the checkout on sys.path

from sqlalchemy import func, select

from engine.core import Rejected
from pbm import operations
from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.models import Game, PhaseRow, User
from pbm.worker import Worker

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Ivo", "Laura", "Marco",
           "Nadia", "Oscar"]
ROLES = dict(zip(PLAYERS, ["Lupo Mannaro"] * 3 + ["Veggente", "Guardia del corpo"] + ["Contadino"] * 7))


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Players:
    def __init__(self, app, clock: FixedClock) -> None:
        self.app, self.clock = app, clock
        self.factory = app.extensions["pbm_sessions"]
        self.rng = random.Random(7)
        self.created = 0
        with transaction(self.factory) as s:
            master, _ = operations.ensure_user(s, email="master@bench.test", name="M")
            self.master_id = master.id

    def new_game(self, session) -> None:
        n = self.created
        self.created += 1
        master = session.get(User, self.master_id)
        game = operations.create_game(session, name=f"Partita {n}", ruleset="lupus-live-12", master=master,
                                      now=self.clock.now(), slug=f"g{n}")
        for name in PLAYERS:
            operations.add_player(session, self.app.config, game, name=name,
                                  email=f"{name.lower()}.{n}@bench.test", now=self.clock.now())
        operations.start_game(session, self.app.config, game, roles=ROLES, options={"mayor": "Nadia"}, now=self.clock.now())

    def keep(self, games: int) -> None:
        """As many running games as asked: those over (or waiting for a Master) are replaced."""
        with transaction(self.factory) as s:
            running = s.scalar(select(func.count()).select_from(Game).join(PhaseRow, PhaseRow.game_id == Game.id)
                               .where(Game.status == "running", PhaseRow.status == "open"))
            for _ in range(games - running):
                self.new_game(s)

    def act(self) -> None:
        """Every living player acts in every open phase, in one transaction a game."""
        with self.factory() as s:
            ids = list(s.scalars(select(PhaseRow.game_id).where(PhaseRow.status == "open")))
        for game_id in ids:
            with transaction(self.factory) as s:
                game = s.get(Game, game_id)
                phase = operations.current_phase(s, game)
                state = operations.current_state(game)
                living = list(state.alive())
                if phase.kind == "day":
                    target = self.rng.choice(living).name
                    moves = [(p.name, {"vote": target}) for p in living]
                else:
                    prey = [p.name for p in living if p.faction != "Lupi"] or [living[0].name]
                    victim = self.rng.choice(prey)
                    moves = [(p.name, {"target": victim}) for p in living if p.role == "Lupo Mannaro"]
                for name, args in moves:
                    try:
                        operations.submit(s, self.app.config, game, game.seat_by_name(name), args,
                                          source="web", now=self.clock.now())
                    except (Rejected, operations.OperationError):
                        pass  # not this player's move tonight: the game goes on without it

    def next_deadline(self):
        with self.factory() as s:
            return s.scalar(select(func.min(PhaseRow.ends_at)).where(PhaseRow.status == "open"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boundaries", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20, help="games running side by side")
    parser.add_argument("--quick", action="store_true", help="400 boundaries")
    args = parser.parse_args(argv)
    if args.quick:
        args.boundaries = 400
    fast_passwords()
    clock = FixedClock(MONDAY_10_ROME)
    app = service_app(scratch(), clock)
    players = Players(app, clock)
    worker = Worker(app, clock)
    done, every = 0, 100
    samples: list[tuple[int, float]] = [(0, resident_mb())]
    print(f"{args.games} games of {len(PLAYERS)} players at a time; resident size every {every} boundaries")
    print(f"  {0:5d} boundaries: {samples[0][1]:6.1f} MB")
    began = time.perf_counter()
    while done < args.boundaries:
        players.keep(args.games)
        players.act()
        clock.set(players.next_deadline())
        done += len(worker.boundaries())
        if done >= len(samples) * every:
            samples.append((done, resident_mb()))
            print(f"  {done:5d} boundaries: {samples[-1][1]:6.1f} MB  ({players.created} games started, "
                  f"{time.perf_counter() - began:.0f} s)", flush=True)
    # Level: the growth over the second half, when caches are warm, against the first half's.
    half = [mb for n, mb in samples if n >= args.boundaries / 2]
    growth_second_half = half[-1] - half[0]
    print(f"worker memory: {samples[-1][1]:.1f} MB after {done} boundaries and {players.created} games; "
          f"{growth_second_half:+.1f} MB over the second half (first 100: {samples[1][1]:.1f} MB)")
    record("worker_memory", {"boundaries": done, "games_started": players.created,
                             "resident_mb_samples": {str(n): round(mb, 1) for n, mb in samples},
                             "resident_mb_after": round(samples[-1][1], 1),
                             "resident_mb_growth_second_half": round(growth_second_half, 1),
                             "seconds": round(time.perf_counter() - began, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
