"""What the benchmarks share: the import path, a service on a throwaway
database, a 40-player game opened on day 1, and bench/results.json.

Not a benchmark itself (`make bench` runs bench/bench_*.py).
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from pbm import models, operations  # noqa: E402
from pbm.app import create_app  # noqa: E402
from pbm.clock import Clock, FixedClock  # noqa: E402
from pbm.db import transaction  # noqa: E402
from pbm.migrate import upgrade  # noqa: E402
from pbm.worker import Worker  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results.json"
MONDAY_10_ROME = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)
NAMES = [
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Ivo", "Laura", "Marco",
    "Nadia", "Oscar", "Paola", "Quirino", "Rita", "Sergio", "Tina", "Ugo", "Vera", "Walter",
    "Zeno", "Alba", "Bice", "Cesare", "Dora", "Enzo", "Flavia", "Gino", "Ilaria", "Lino",
    "Mirella", "Nino", "Ornella", "Piero", "Rosa", "Silvio", "Teresa", "Umberto", "Viola", "Yuri",
]
PLAYER_PASSWORD = "bench-password"


def fast_passwords() -> None:
    """Setting up players hashes their passwords; scrypt would dominate the set-up."""
    models.PASSWORD_METHOD = "pbkdf2:sha256:1000"


def scratch() -> Path:
    """A folder of its own for a run, removed when the benchmark ends."""
    folder = Path(tempfile.mkdtemp(prefix="pbm-bench-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def service_app(folder: Path, clock: Clock | None = None, **config: Any) -> Flask:
    """The web app on a fresh SQLite database in ``folder`` (its instance folder)."""
    url = config.pop("DATABASE_URL", f"sqlite:///{folder / 'bench.sqlite3'}")
    upgrade(url)
    settings = {"DATABASE_URL": url, "BASE_URL": "http://lupus.test", "LOCAL_MAILBOX": str(folder / "sent"),
                "MAIL_SOURCE": {"kind": "maildir", "path": str(folder / "maildir")},
                "MASTER_ADDRESS": "lupus@lupus.test", "NOREPLY_ADDRESS": "noreply@lupus.test", **config}
    return create_app(settings, instance=folder, clock=clock or FixedClock(MONDAY_10_ROME))


def roles_for(names: list[str]) -> dict[str, str]:
    roles = dict.fromkeys(names, "Contadino")
    for n in names[:6]:
        roles[n] = "Lupo Mannaro"
    roles[names[6]] = "Veggente"
    roles[names[7]] = "Guardia del corpo"
    return roles


def player_email(name: str) -> str:
    return f"{name.lower()}@players.test"


def open_day_one(app: Flask, clock: FixedClock, *, slug: str = "bench", passwords: bool = False) -> int:
    """A 40-player Lupus LIVE! game started on Monday and turned over to day 1
    by the worker (bulletins queued); returns its id. The clock is left at
    Tuesday 09:30 in Rome, inside day 1."""
    factory = app.extensions["pbm_sessions"]
    clock.set(MONDAY_10_ROME)
    with transaction(factory) as s:
        master, _ = operations.ensure_user(s, email="master@example.org", name="Master Mara")
        game = operations.create_game(s, name="Bench game", ruleset="lupus-live-12", master=master,
                                      now=clock.now(), slug=slug)
        for name in NAMES:
            operations.add_player(s, app.config, game, name=name, email=player_email(name), now=clock.now(),
                                  by=master, password=PLAYER_PASSWORD if passwords else None)
        operations.start_game(s, app.config, game, roles=roles_for(NAMES), options={"mayor": NAMES[10]},
                              now=clock.now(), by=master)
        game_id = game.id
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()  # night 1 -> day 1, bulletins queued
    return game_id


class Timers:
    """Wall time spent inside chosen functions: where a benchmark's time goes."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def wrap(self, owner: Any, name: str, label: str) -> Any:
        """Time ``owner.name`` under ``label`` from now on; returns the original."""
        real = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return real(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - began

        setattr(owner, name, timed)
        return real


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def median(values: list[float]) -> float:
    return statistics.median(values)


def record(key: str, figures: dict[str, Any]) -> None:
    """Write this benchmark's figures into bench/results.json under ``key``,
    keeping every other benchmark's."""
    try:
        results = json.loads(RESULTS.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        results = {}
    results[key] = {**figures, "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    "cpus": os.cpu_count()}
    partial = RESULTS.with_suffix(".json.partial")
    partial.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    partial.replace(RESULTS)
