"""A vote that reaches the service while its phase is being resolved: it is
either counted or refused as late, never recorded and then left out.

The mail poller applies a message that reached the mailbox at 20:59 while the
worker resolves the 21:00 boundary, in another process.  The resolver is held
after it has read the phase's actions, the vote arrives, then the resolver
goes on: on PostgreSQL, where both run at once, the vote must wait for the
resolution and be refused. On SQLite the database lets one writer through at a
time: the web's vote takes the write lock as it begins (pbm.db.writing), so it
waits for the resolution and then meets the next phase, refused in words; the
mail vote here, in a transaction begun deferred, fails with a database error the
mail poller retries."""
from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest
from sqlalchemy.exc import OperationalError

from pbm import operations
from pbm.db import transaction
from pbm.models import ActionRow, EventRow, Game, PhaseRow, Seat
from pbm.worker import Worker

from tests.support.forms import area, flash_of, forms_of, logged_in
from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino"}
TUE_0930 = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)
TUE_2059 = datetime(2026, 11, 24, 19, 59, tzinfo=timezone.utc)
TUE_2100 = datetime(2026, 11, 24, 20, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("way", ["mail", "web"])
def test_a_vote_arriving_during_the_resolution_is_counted_or_refused_never_lost(app, factory, clock, monkeypatch,
                                                                                 way):
    """``mail``: a message that reached the mailbox before the deadline; ``web``: the
    vote form sent a moment before it, through the page (which reads the game, the
    seat and the phase, held, in one query)."""
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()  # night 1 -> day 1
    with factory() as s:
        (day,) = operations.due_phase_ids(s, TUE_2100)

    if way == "web":
        clock.set(TUE_2059)
        carla = logged_in(app, "Carla")
        form = dict(forms_of(area(carla))["form-vote"].hidden)

    actions_read, go_on = threading.Event(), threading.Event()
    real_engine_actions = operations.engine_actions

    def held_after_reading(session, phase):
        actions = real_engine_actions(session, phase)
        actions_read.set()
        assert go_on.wait(30)
        return actions

    monkeypatch.setattr(operations.boundary, "engine_actions", held_after_reading)
    resolver = threading.Thread(target=operations.resolve_phase, args=(factory, app.config, day, TUE_2100))
    resolver.start()
    assert actions_read.wait(30)

    outcome: list[object] = []

    def late_mail_vote():
        try:
            if way == "web":
                status = carla.post("/g/test-game/act", data={**form, "vote-vote": "Anna"}).status_code
                if status == 503:  # the page's answer to a busy database: try again
                    outcome.append("database busy")
                    return
                assert status == 302
                receipt = flash_of(area(carla))
                outcome.append("recorded" if receipt.startswith("Registrato") else
                               "phase_closed" if "fase è chiusa" in receipt else
                               "not_in_this_phase" if "non si può compiere in questa fase" in receipt else receipt)
                return
            with transaction(factory) as s:
                game = s.get(Game, gid)
                seat = s.query(Seat).filter_by(game_id=gid, name="Carla").one()
                operations.submit(s, app.config, game, seat, {"vote": "Anna"}, source="mail",
                                  now=TUE_2100, arrived_at=TUE_2059)
            outcome.append("recorded")
        except operations.Rejected as exc:
            outcome.append(exc.code)
        except OperationalError:
            outcome.append("database busy")

    voter = threading.Thread(target=late_mail_vote)
    voter.start()
    voter.join(1.0)  # it waits for the resolver, or (without a lock) it has already gone through
    go_on.set()
    resolver.join(30)
    voter.join(30)
    assert not resolver.is_alive() and not voter.is_alive()

    with factory() as s:
        recorded = s.query(ActionRow).filter_by(phase_id=day).count()
        pyre = s.query(EventRow).filter_by(phase_id=day, kind="pyre").one_or_none()
        counted = (pyre.data.get("votes") or {}) if pyre is not None else {}
        assert s.get(PhaseRow, day).status == "published"
    if outcome == ["recorded"]:
        assert counted.get("Carla") == "Anna", "a vote was recorded for a phase and then left out of it"
    else:
        assert recorded == 0
        expected = ("phase_closed" if app.config["DATABASE_URL"].startswith("postgresql")
                    else "not_in_this_phase" if way == "web" else "database busy")
        assert outcome == [expected]

