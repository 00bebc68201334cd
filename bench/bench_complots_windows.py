"""Complots in answer windows: 1,000 games close their due windows at one tick of the
worker, and the cost of one answer through the service.

1. 1,000 games of four players, each in the answer window after a Duchessa claim,
   half of the answers in, the deadline just passed: one ``resolve_due`` (the
   worker's tick) resolves them all, settles the claims, queues the turn's mail to
   everyone and opens 1,000 turns.
2. One answer through the web (the logged-in POST of an answer button, CSRF, the
   engine's check, the commit, ``settle``), the median of many: an answer that leaves
   the window open, and the last answer, which closes the window and opens the next
   within the request.

Throwaway SQLite file (the tests' default engine).

    .venv/bin/python bench/bench_complots_windows.py [GAMES] [--answers N]
"""
from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, insert, select
from werkzeug.security import generate_password_hash

from engine.core import Action, Phase, phase_rng, setup_rng
from engine.registry import get_ruleset
from pbm import operations
from pbm.app import create_app
from pbm.clock import FixedClock
from pbm.migrate import upgrade
from pbm.models import ActionRow, Game, GameMaster, OutboxRow, Seat, User
from pbm.operations.games import open_phase
from pbm import calendar

PLAYERS = 4
NAMES = [f"P{i}" for i in range(PLAYERS)]
WINDOW = timedelta(minutes=10)
T0 = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)
DUE = T0 + WINDOW


def seed(factory, games: int, prefix: str, answered: int, answerer_email: str | None = None) -> list[str]:
    """Games in the answer window of P0's Duchessa claim, opened at T0, with the first
    ``answered`` answerers' passes in. Returns the slugs."""
    ruleset = get_ruleset("complots")
    slugs = []
    with factory() as s, s.begin():
        master_id = s.scalar(select(User.id).where(User.email == "m@bench.test"))
        if master_id is None:
            s.execute(insert(User), [{"email": "m@bench.test", "name": "M", "password_hash": "x",
                                      "lang": "it", "is_admin": True, "reminders": True,
                                      "address_failing": False}])
            master_id = s.scalar(select(User.id).where(User.email == "m@bench.test"))
        s.execute(insert(User), [{"email": f"{prefix}{g}-{i}@bench.test", "name": NAMES[i],
                                  "password_hash": "x", "lang": "it" if i % 2 else "en",
                                  "is_admin": False, "reminders": True, "address_failing": False}
                                 for g in range(games) for i in range(PLAYERS)
                                 if not (answerer_email and i == PLAYERS - 1)])
        users = dict(s.execute(select(User.email, User.id)).all())
        for g in range(games):
            slug = f"{prefix}{g}"
            game = Game(slug=slug, name=f"Complotto {g}", ruleset="complots", status="running",
                        seed=str(g), schedule={calendar.ANSWER_WINDOW: int(WINDOW.total_seconds())},
                        auto_publish=True, composition={}, created_at=T0)
            s.add(game)
            s.flush()
            s.add(GameMaster(game_id=game.id, user_id=master_id))
            s.execute(insert(Seat), [{
                "game_id": game.id, "position": i, "name": NAMES[i], "token": secrets.token_urlsafe(12),
                "user_id": users[answerer_email if answerer_email and i == PLAYERS - 1
                                 else f"{prefix}{g}-{i}@bench.test"],
                "disqualified": False, "standing": [], "extensions_used": 0} for i in range(PLAYERS)])
            s.refresh(game)
            state, _ = ruleset.setup([(n, "") for n in NAMES], setup_rng(f"{prefix}{g}"), {})
            claim = ruleset.resolve(state, [Action("P0", "turn", {"action": "tax"})],
                                    phase_rng(str(g), Phase(state.phase.kind, state.phase.number)))
            state = claim.state
            game.state = state.to_dict()
            phase = open_phase(s, game, state, index=1, after=T0, now=T0)
            seats = dict(s.execute(select(Seat.name, Seat.id).where(Seat.game_id == game.id)).all())
            if answered:
                s.execute(insert(ActionRow), [{"game_id": game.id, "phase_id": phase.id,
                                               "seat_id": seats[n], "kind": "answer",
                                               "args": {"answer": "pass"}, "submitted_at": T0,
                                               "source": "web", "source_detail": ""}
                                              for n in NAMES[1:1 + answered]])
            slugs.append(slug)
    return slugs


def tick(folder: Path, games: int) -> dict:
    url = f"sqlite:///{folder / 'tick.sqlite3'}"
    upgrade(url)
    app = create_app({"DATABASE_URL": url}, instance=folder, clock=FixedClock(DUE))
    factory = app.extensions["pbm_sessions"]
    t0 = time.perf_counter()
    seed(factory, games, "g", answered=(PLAYERS - 1) // 2)
    print(f"seeded {games} Complots games of {PLAYERS} players in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    resolved = operations.resolve_due(factory, app.config, DUE)
    elapsed = time.perf_counter() - t0
    with factory() as s:
        mails = s.scalar(select(func.count()).select_from(OutboxRow))
    assert len(resolved) == games, (len(resolved), games)
    print(f"one worker tick: {games} due windows closed, {mails} mails queued, {elapsed:.1f} s "
          f"({elapsed / games * 1000:.1f} ms a game)")
    app.extensions["pbm_engine"].dispose()
    return {"games": games, "players": PLAYERS, "mails": mails, "tick_seconds": round(elapsed, 2)}


def answers(folder: Path, count: int) -> dict:
    url = f"sqlite:///{folder / 'answers.sqlite3'}"
    upgrade(url)
    clock = FixedClock(T0 + timedelta(minutes=1))
    app = create_app({"DATABASE_URL": url}, instance=folder, clock=clock)
    factory = app.extensions["pbm_sessions"]
    email = "answerer@bench.test"
    with factory() as s, s.begin():
        s.execute(insert(User), [{"email": email, "name": "P3", "lang": "it", "is_admin": False,
                                  "reminders": True, "address_failing": False,
                                  "password_hash": generate_password_hash("pw", method="pbkdf2:sha256:1000")}])
    open_slugs = seed(factory, count, "o", answered=0, answerer_email=email)
    last_slugs = seed(factory, count, "l", answered=PLAYERS - 2, answerer_email=email)
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert client.post("/login", data={"csrf_token": token, "email": email, "password": "pw"}).status_code == 302

    def one(slug: str) -> float:
        page = client.get(f"/g/{slug}/me").get_data(as_text=True)
        form = re.search(r'<form method="post" action="/g/[^"]+/answer" class="answer">(.*?)</form>',
                         page, re.S).group(1)
        data = {m.group(1): m.group(2) for m in re.finditer(r'name="([^"]+)"[^>]*value="([^"]*)"', form)}
        data.update({m.group(2): m.group(1) for m in re.finditer(r'value="([^"]*)"[^>]*name="([^"]+)"', form)})
        data["answer"] = "pass"
        t0 = time.perf_counter()
        r = client.post(f"/g/{slug}/answer", data=data)
        elapsed = time.perf_counter() - t0
        assert r.status_code == 302, r.status_code
        return elapsed

    stays = [one(slug) for slug in open_slugs]
    closes = [one(slug) for slug in last_slugs]
    with factory() as s:
        turns = s.scalar(select(func.count()).select_from(Game).where(Game.slug.like("l%")))
    print(f"one answer through the web, the window stays open: median "
          f"{statistics.median(stays) * 1000:.1f} ms over {len(stays)}")
    print(f"one answer through the web, the last one (the window is resolved and the next "
          f"opened in the request): median {statistics.median(closes) * 1000:.1f} ms over {len(closes)}"
          f" ({turns} games)")
    app.extensions["pbm_engine"].dispose()
    return {"answers": len(stays), "answer_window_stays_open_ms_median": round(statistics.median(stays) * 1000, 2),
            "answer_last_resolves_window_ms_median": round(statistics.median(closes) * 1000, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=1000)
    parser.add_argument("--answers", type=int, default=200, help="answers timed (default: 200)")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    folder = Path(tempfile.mkdtemp())
    figures = {**tick(folder, args.games), **answers(folder, args.answers)}
    from _support import record
    record("complots_windows", {**figures, "load_average_at_start": round(load, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
