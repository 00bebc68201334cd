"""A Master presses Publish twice (a double tap, two tabs), or two Masters
press it at the same moment: the draft is published once, the bulletin goes out once, and the
second press finds the work done. Run on PostgreSQL too (test_postgres.py),
where the two requests really overlap."""
from __future__ import annotations

from datetime import datetime, timezone

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, OutboxRow, PhaseRow
from pbm.worker import Worker

from tests.conftest import csrf_from
from tests.support.helpers import first_waits_for_second, login, make_game, run_overlapping

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

    slow_publish, first_inside = first_waits_for_second(operations.publish)
    monkeypatch.setattr(operations, "publish", slow_publish)
    clients = [login(app, "master@example.org", "master") for _ in range(2)]
    tokens = [csrf_from(c.get("/g/test-game/master").get_data(as_text=True)) for c in clients]
    statuses: list[int] = []

    def press(i: int) -> None:
        r = clients[i].post(f"/g/test-game/master/publish/{draft_id}", data={"csrf_token": tokens[i]})
        statuses.append(r.status_code)

    run_overlapping(lambda: press(0), lambda: press(1), first_inside)

    with factory() as s:
        phases = s.query(PhaseRow).filter_by(game_id=gid).order_by(PhaseRow.index).all()
        assert [(p.kind, p.status) for p in phases] == [("night", "published"), ("day", "open")]
        bulletins = s.query(OutboxRow).filter_by(game_id=gid, kind="phase_results").count()
        assert bulletins == len(ROLES)
    # A press that found the work done, or that met the other's write lock
    # (SQLite), is answered with a page, never a crash.
    assert len(statuses) == 2 and all(code in (302, 503) for code in statuses), statuses
