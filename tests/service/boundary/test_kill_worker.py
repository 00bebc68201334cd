"""Kill the worker at random points inside a boundary, many times over: every
phase is resolved once, every mail is queued and sent once, no action is lost."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from pbm import operations
from pbm.db import transaction
from pbm.models import ActionRow, EventRow, Game, OutboxRow, PhaseRow, User
from pbm.worker import Worker

from tests.support.helpers import make_master

GAMES = 20
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ivo"]
ROLES = dict(zip(PLAYERS, ["Lupo Mannaro", "Lupo Mannaro", "Veggente", "Guardia del corpo",
                           "Contadino", "Contadino", "Contadino", "Contadino"]))
TUE_1000 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)
WED_1000 = datetime(2026, 11, 25, 9, 0, tzinfo=timezone.utc)


def build(app, factory, clock) -> dict[int, dict[str, str]]:
    """GAMES games whose night 1 is over; each day 1 has every living player's vote."""
    master_id = make_master(factory)
    rng = random.Random(7)
    votes: dict[int, dict[str, str]] = {}
    with transaction(factory) as s:
        master = s.get(User, master_id)
        for g in range(GAMES):
            game = operations.create_game(s, name=f"Partita {g}", ruleset="lupus-live-12", master=master,
                                          now=clock.now())
            for name in PLAYERS:
                operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}{g}@k.test",
                                      now=clock.now(), password="x")
            operations.start_game(s, app.config, game, roles=ROLES, options={"mayor": "Elena"}, now=clock.now())
    clock.set(TUE_1000)
    Worker(app, clock).boundaries()  # every night 1 -> day 1
    with transaction(factory) as s:
        for game in s.query(Game).all():
            votes[game.id] = {}
            for seat in game.seats:
                target = rng.choice(PLAYERS)
                operations.submit(s, app.config, game, seat, {"vote": target}, source="web", now=clock.now())
                votes[game.id][seat.name] = target
    return votes


def test_killing_the_worker_mid_boundary_never_doubles_or_loses_anything(app, factory, clock, smtp_server, tmp_path):
    votes = build(app, factory, clock)
    url = app.config["DATABASE_URL"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    cmd = [sys.executable, "-m", "tests.support.killable_worker", url, str(tmp_path / "instance"),
           WED_1000.isoformat()]
    server = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout.readline().strip() == "serving"

    def one_worker(kill_after: float | None) -> int:
        """Fork a worker; kill it after that many seconds if still working; its exit code."""
        server.stdin.write("go\n")
        server.stdin.flush()
        ready, pid = server.stdout.readline().split()
        assert ready == "ready"
        if kill_after is not None:
            time.sleep(kill_after)  # somewhere inside the boundary
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass  # it had already finished
        done, done_pid, code = server.stdout.readline().split()
        assert (done, done_pid) == ("exit", pid)
        return int(code)

    rng = random.Random(2026)
    kills = 0
    # The kills move from the start of the boundary towards its end, whatever the
    # machine's speed: each lands at a random moment of a window that grows after
    # every kill, until a worker outlives its window and finishes the work.
    window = 0.02
    try:
        for _ in range(40):
            code = one_worker(rng.uniform(0.0, window))
            assert code in (0, -signal.SIGKILL), "the worker crashed"
            if code == -signal.SIGKILL:
                kills += 1
                window *= 1.5
            with factory() as s:
                if not operations.due_phase_ids(s, WED_1000):
                    break
        print(f"killed the worker {kills} times mid-boundary")
        assert kills >= 3, f"the worker was killed only {kills} times mid-boundary"
        assert one_worker(None) == 0  # what is left, to the end
    finally:
        server.stdin.close()
        server.wait(30)

    with factory() as s:
        assert operations.due_phase_ids(s, WED_1000) == []
        for game in s.query(Game).all():
            phases = s.query(PhaseRow).filter_by(game_id=game.id).order_by(PhaseRow.index).all()
            assert [(p.kind, p.number) for p in phases] == [("night", 1), ("day", 1), ("night", 2), ("day", 2)]
            for p in phases[:-1]:
                seqs = [e.seq for e in s.query(EventRow).filter_by(phase_id=p.id)]
                assert len(seqs) == len(set(seqs))
                results = Counter(m.to_addr for m in s.query(OutboxRow).filter(
                    OutboxRow.game_id == game.id, OutboxRow.kind == "phase_results",
                    OutboxRow.subject.contains(f"Bollettino: {'notte' if p.kind == 'night' else 'giorno'} {p.number},"))
                    .filter(OutboxRow.phase_id == phases[p.index + 1].id))
                assert sorted(results.values()) == [1] * len(PLAYERS)
            # every vote reached the pyre
            pyre = s.query(EventRow).filter_by(phase_id=phases[1].id, kind="pyre").one()
            assert pyre.data["votes"] == votes[game.id]
            assert s.query(ActionRow).filter_by(phase_id=phases[1].id).count() == len(PLAYERS)
        queued = [m.message_id for m in s.query(OutboxRow)]
    assert len(queued) == len(set(queued))

    app.config["MAIL_PORT"] = smtp_server.port
    app.extensions["mail"].port = smtp_server.port
    # Built for the embedded server, the app logs in to it (its own credentials): not to this one.
    app.extensions["mail"].username = app.extensions["mail"].password = None
    worker = Worker(app, clock)
    clock.set(WED_1000)
    while worker.outbox():
        pass
    received = Counter(m.message["Message-ID"] for m in smtp_server.messages)
    assert sorted(received) == sorted(queued) and set(received.values()) == {1}
