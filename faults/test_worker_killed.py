"""The worker killed (-9) at random moments over many boundaries of many
games: every phase resolved once, every mail queued once and sent once,
every submission stored once and counted in its phase."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select

from pbm import operations
from pbm.db import transaction
from pbm.models import ActionRow, EventRow, Game, OutboxRow, PhaseRow, User
from pbm.worker import Worker
from tests.support.helpers import make_master

GAMES = int(os.environ.get("FAULTS_GAMES", 20))
STEPS = int(os.environ.get("FAULTS_STEPS", 6))  # boundary instants; each resolves every game's phase
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ivo", "Luca", "Mara"]
ROLES = dict(zip(PLAYERS, ["Lupo Mannaro", "Lupo Mannaro", "Veggente", "Guardia del corpo"]
                 + ["Contadino"] * 6))
ROOT = Path(__file__).resolve().parents[1]


def build(app, factory, clock) -> None:
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        for g in range(GAMES):
            game = operations.create_game(s, name=f"Partita {g}", ruleset="lupus-live-12", master=master,
                                          now=clock.now())
            for name in PLAYERS:
                operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}{g}@k.test",
                                      now=clock.now(), password="x")
            operations.start_game(s, app.config, game, roles=ROLES, options={"mayor": "Elena"}, now=clock.now())


def vote_everywhere(app, factory, now, rng) -> dict[int, dict[str, str]]:
    """Every living player of every open day votes; returns {phase id: {voter: target}}."""
    cast: dict[int, dict[str, str]] = {}
    with transaction(factory) as s:
        for game in s.query(Game).filter_by(status="running"):
            phase = operations.current_phase(s, game)
            if phase is None or phase.status != "open" or phase.kind != "day":
                continue
            alive = [p["name"] for p in phase.state_before["players"] if p["alive"]]
            for seat in game.seats:
                if seat.name in alive:
                    target = rng.choice(alive)
                    operations.submit(s, app.config, game, seat, {"vote": target}, source="web", now=now)
                    cast.setdefault(phase.id, {})[seat.name] = target
    return cast


def next_boundary(factory) -> datetime | None:
    with factory() as s:
        ends = s.scalar(select(func.min(PhaseRow.ends_at)).join(Game, Game.id == PhaseRow.game_id)
                        .where(PhaseRow.status == "open", Game.status == "running"))
    return ends + timedelta(minutes=1) if ends is not None else None


class ForkServer:
    """tests/support/killable_worker.py: forks a worker per request, reports how it ended."""

    def __init__(self, url: str, instance: Path, now: datetime) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.killable_worker", url, str(instance), now.isoformat()],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout.readline().strip() == "serving"

    def run(self, kill_after: float | None) -> int:
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        ready, pid = self.process.stdout.readline().split()
        assert ready == "ready"
        if kill_after is not None:
            time.sleep(kill_after)
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        done, done_pid, code = self.process.stdout.readline().split()
        assert (done, done_pid) == ("exit", pid)
        return int(code)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(30)


def test_the_worker_killed_at_random_over_many_boundaries(app, factory, clock, smtp_server, tmp_path, report):
    build(app, factory, clock)
    rng = random.Random(int(os.environ.get("FAULTS_SEED", 2026)))
    cast: dict[int, dict[str, str]] = {}
    kills = crashes = workers = 0
    typical = 0.4  # seconds a worker takes to resolve a round; kills land within it
    for _ in range(STEPS):
        instant = next_boundary(factory)
        if instant is None:
            break
        clock.set(instant - timedelta(minutes=2))
        cast.update(vote_everywhere(app, factory, clock.now(), rng))
        server = ForkServer(app.config["DATABASE_URL"], tmp_path / "instance", instant)
        try:
            while True:
                with factory() as s:
                    if not operations.due_phase_ids(s, instant):
                        break
                workers += 1
                began = time.monotonic()
                code = server.run(rng.uniform(0.0, typical) if workers % 4 else None)
                if code == 0:
                    typical = max(0.05, time.monotonic() - began)
                kills += code == -signal.SIGKILL
                crashes += code not in (0, -signal.SIGKILL)
        finally:
            server.close()

    with factory() as s:
        resolved = s.query(PhaseRow).filter(PhaseRow.status == "published").all()
        doubled_phases = sum(n - 1 for n in Counter((p.game_id, p.index) for p in resolved).values())
        doubled_events = 0
        for p in resolved:
            seqs = [e.seq for e in s.query(EventRow.seq).filter_by(phase_id=p.id)]
            doubled_events += len(seqs) - len(set(seqs))
        results = Counter((m.phase_id, m.to_addr) for m in s.query(OutboxRow).filter_by(kind="phase_results"))
        doubled_results = sum(n - 1 for n in results.values())
        stored = {(a.phase_id, a.seat.name): a.args.get("vote") for a in s.query(ActionRow)}
        expected = {(pid, voter): target for pid, votes in cast.items() for voter, target in votes.items()}
        lost = sum(1 for k, v in expected.items() if stored.get(k) != v)
        miscounted = 0
        for phase_id, votes in cast.items():
            pyre = s.query(EventRow).filter_by(phase_id=phase_id, kind="pyre").first()
            if pyre is not None and pyre.data.get("votes") != votes:
                miscounted += 1
        queued = [m.message_id for m in s.query(OutboxRow)]

    app.config["MAIL_PORT"] = smtp_server.port
    app.extensions["mail"].port = smtp_server.port
    # Built for the embedded server, the app logs in to it (its own credentials): not to this one.
    app.extensions["mail"].username = app.extensions["mail"].password = None
    worker = Worker(app, clock)
    clock.set(clock.now() + timedelta(days=2))
    while worker.outbox():
        pass
    received = Counter(m.message["Message-ID"] for m in smtp_server.wait_for(len(queued)))
    report("worker killed -9 at random moments",
           **{"games": GAMES, "boundaries resolved": len(resolved), "workers started": workers,
              "workers killed mid-boundary": kills, "workers that crashed": crashes,
              "phases resolved twice": doubled_phases, "events written twice": doubled_events,
              "results mailed twice to a player": doubled_results,
              "mails queued (expected)": len(queued), "mails sent": sum(received.values()),
              "mails sent twice": sum(n - 1 for n in received.values()),
              "mails never sent": len(set(queued) - set(received)),
              "submissions expected": len(expected), "submissions stored": len(stored),
              "submissions lost or changed": lost, "pyres that miscounted": miscounted})
    assert kills >= 1 and crashes == 0
    assert (doubled_phases, doubled_events, doubled_results, lost, miscounted) == (0, 0, 0, 0, 0)
    assert len(queued) == len(set(queued)) and sorted(received) == sorted(queued)
    assert set(received.values()) == {1}
    assert len(stored) == len(expected)
