"""A Master presses Publish twice (a double tap, two tabs), or two Masters
press it at the same moment: the draft is published once, the bulletin goes out once, and the
second press finds the work done. Run on PostgreSQL too (test_postgres.py),
where the two requests really overlap."""
from __future__ import annotations

import threading
from datetime import datetime, timezone

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, OutboxRow, PhaseRow
from pbm.worker import Worker

from ..conftest import csrf_from
from .helpers import login, make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino"}
TUE_0930 = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)


def test_two_masters_publishing_one_draft_at_once_publish_it_once(app, factory, clock, monkeypatch):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with transaction(factory) as s:
        s.get(Game, gid).auto_publish = False
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()  # night 1 waits as a draft
    with factory() as s:
        (draft,) = s.query(PhaseRow).filter_by(game_id=gid, status="draft").all()
        draft_id = draft.id

    first_inside, second_inside = threading.Event(), threading.Event()
    real_publish = operations.publish

    def slow_publish(*args, **kwargs):
        if first_inside.is_set():
            second_inside.set()
        else:
            first_inside.set()
            second_inside.wait(1.0)  # the other press comes in now, unless it is made to wait
        return real_publish(*args, **kwargs)

    monkeypatch.setattr(operations, "publish", slow_publish)
    clients = [login(app, "master@example.org", "master") for _ in range(2)]
    tokens = [csrf_from(c.get("/g/test-game/master").get_data(as_text=True)) for c in clients]
    statuses: list[int] = []

    def press(i: int) -> None:
        r = clients[i].post(f"/g/test-game/master/publish/{draft_id}", data={"csrf_token": tokens[i]})
        statuses.append(r.status_code)

    one = threading.Thread(target=press, args=(0,))
    one.start()
    assert first_inside.wait(10)
    two = threading.Thread(target=press, args=(1,))
    two.start()
    one.join(30)
    two.join(30)

    with factory() as s:
        phases = s.query(PhaseRow).filter_by(game_id=gid).order_by(PhaseRow.index).all()
        assert [(p.kind, p.status) for p in phases] == [("night", "published"), ("day", "open")]
        bulletins = s.query(OutboxRow).filter_by(game_id=gid, kind="phase_results").count()
        assert bulletins == len(ROLES)
    # A press that found the work done, or that met the other's write lock
    # (SQLite), is answered with a page, never a crash.
    assert len(statuses) == 2 and all(code in (302, 503) for code in statuses), statuses
