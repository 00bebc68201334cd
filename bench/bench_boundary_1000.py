"""One boundary at which 1,000 games of 40 players each turn over in the same minute.

Measures the time from the scheduler firing (resolve_due) to every outgoing
message stored in the outbox: 1,000 days resolved with 40 votes each, their
events, 41,000 mails rendered and queued, 1,000 nights opened.  Runs on a
throwaway SQLite file, or on a throwaway PostgreSQL cluster (the tests'
PostgresServer), or on both one after the other.
Target on the 2-core machine: under 60 s.

    .venv/bin/python bench/bench_boundary_1000.py [GAMES] [--database sqlite|postgresql|both]
"""
from __future__ import annotations

import argparse
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, insert, select  # noqa: E402

from engine.core import setup_rng  # noqa: E402
from engine.registry import get_ruleset  # noqa: E402
from pbm import operations  # noqa: E402
from pbm.app import create_app  # noqa: E402
from pbm.clock import FixedClock  # noqa: E402
from pbm.migrate import upgrade  # noqa: E402
from pbm.models import ActionRow, Game, GameMaster, OutboxRow, Seat, User  # noqa: E402
from tests.fixtures.postgres import PostgresServer  # noqa: E402

PLAYERS = 40
ROLES = ["Lupo Mannaro"] * 8 + ["Veggente"] * 3 + ["Guardia del corpo"] * 3 + ["Contadino"] * 26
MONDAY_10 = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)   # day phase, ends 21:00 Rome
MONDAY_2100 = datetime(2026, 11, 23, 20, 0, 30, tzinfo=timezone.utc)


def seed(factory, config, games: int) -> None:
    """Games already in their first day, with every vote in: bulk inserts, then the
    engine's own setup and the service's own phase opening for each game."""
    rng = random.Random(1)
    ruleset = get_ruleset("lupus-live-12")
    with factory() as s, s.begin():
        s.execute(insert(User), [{"email": "m@bench.test", "name": "M", "password_hash": "x", "lang": "it",
                                  "is_admin": True, "reminders": True, "address_failing": False}])
        master_id = s.scalar(select(User.id))
        s.execute(insert(User), [{"email": f"p{g}-{i}@bench.test", "name": f"P{i}", "password_hash": "x",
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
            s.execute(insert(Seat), [{"game_id": game.id, "user_id": users[f"p{g}-{i}@bench.test"],
                                      "name": names[i], "position": i, "token": secrets.token_urlsafe(12),
                                      "disqualified": False} for i in range(PLAYERS)])
            roles = ROLES[:]
            rng.shuffle(roles)
            state, _ = ruleset.setup(list(zip(names, roles)), setup_rng(g), {})
            state.phase.kind = "day"  # as if night 1 had passed quietly
            game.state = state.to_dict()
            phase = operations._open_phase(s, game, state, index=1, after=MONDAY_10, now=MONDAY_10)
            seats = s.execute(select(Seat.id, Seat.name).where(Seat.game_id == game.id)).all()
            s.execute(insert(ActionRow), [{"game_id": game.id, "phase_id": phase.id, "seat_id": sid,
                                           "kind": "vote", "args": {"vote": rng.choice(names)},
                                           "submitted_at": MONDAY_10, "source": "web", "source_detail": ""}
                                          for sid, _name in seats])


@contextmanager
def database(engine: str, folder: Path) -> Iterator[str]:
    """The URL of a new, empty database on ``engine``, thrown away afterwards."""
    if engine == "sqlite":
        yield f"sqlite:///{folder / 'bench.sqlite3'}"
    else:
        with PostgresServer() as pg:
            yield pg.create_database()


def measure(url: str, folder: Path, games: int, label: str) -> None:
    upgrade(url)
    app = create_app({"DATABASE_URL": url}, instance=folder, clock=FixedClock(MONDAY_2100))
    factory = app.extensions["pbm_sessions"]
    t0 = time.perf_counter()
    seed(factory, app.config, games)
    print(f"[{label}] seeded {games} games of {PLAYERS} players in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    resolved = operations.resolve_due(factory, app.config, MONDAY_2100)
    elapsed = time.perf_counter() - t0
    with factory() as s:
        mails = s.scalar(select(func.count()).select_from(OutboxRow))
    assert len(resolved) == games, (len(resolved), games)
    print(f"[{label}] boundary: {games} games, {mails} mails stored, {elapsed:.1f} s "
          f"({elapsed / games * 1000:.1f} ms a game); target for 1,000 games: under 60 s")
    from _support import record
    record(f"boundary_{games}_games_{label}", {"games": games, "players": PLAYERS, "mails": mails,
                                               "seconds": round(elapsed, 1)})
    app.extensions["pbm_engine"].dispose()  # let go of the connections before the database goes away


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=1000, help="games turning over (default: 1000)")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="sqlite",
                        help="engine to measure on; postgresql starts a throwaway cluster (default: sqlite)")
    args = parser.parse_args(argv)
    for engine in ("sqlite", "postgresql") if args.database == "both" else (args.database,):
        folder = Path(tempfile.mkdtemp())
        with database(engine, folder) as url:
            measure(url, folder, args.games, engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
