"""The reserved page and a vote cost the same however many submissions the phase
holds and however long the game has run (issue 15: "the reserved page stays flat").

Counted, not timed, so the test holds on a loaded machine: the SQL statements a
request sends, and the rows it turns into objects (a page that loaded every vote
of the phase to pick the player's own would load hundreds here).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from engine.interface import Viewer
from pbm import operations, visibility
from pbm.db import transaction
from pbm.models import ActionRow, EventRow, Game, Seat
from pbm.worker import Worker
from tests.support.cost import counting
from tests.support.helpers import make_game
from tests.support.forms import area, flash_of, forms_of, logged_in, post_form

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino", "Fabio": "Contadino", "Gino": "Contadino", "Ida": "Lupo Mannaro"}
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)  # day 1 open


def day_one(app, factory, clock, mayor: str | None = None) -> int:
    """Day 1 of an eight-player game; its mayor drawn by the game's seed unless named
    (the mayor is offered a form the others are not: their successor)."""
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor=mayor)
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()
    return gid


def everyone_votes(app, factory, clock, gid: int, rounds: int) -> None:
    """Every player votes ``rounds`` times (changing their mind), as by mail."""
    with transaction(factory) as s:
        game = s.get(Game, gid)
        names = [seat.name for seat in game.seats]
        for n in range(rounds):
            for i, seat in enumerate(game.seats):
                operations.submit(s, app.config, game, seat, {"vote": names[(i + n + 1) % len(names)]},
                                  source="mail", now=clock.now())


def test_the_reserved_page_reads_as_much_with_ten_or_three_hundred_votes_in_the_phase(app, factory, clock):
    gid = day_one(app, factory, clock)
    bruno = logged_in(app, "Bruno")
    assert "Registrato" in flash_of(post_form(bruno, "form-vote", {"vote": "Anna"}))
    everyone_votes(app, factory, clock, gid, 1)
    with counting(app) as few:
        page = area(bruno)
    assert "Voto: Carla" in page  # his latest vote, from the 8 + 1 of the phase
    everyone_votes(app, factory, clock, gid, 40)
    with counting(app) as many:
        page = area(bruno)
    with factory() as s:
        assert s.scalar(select(ActionRow.id).order_by(ActionRow.id.desc()).limit(1)) >= 329
        bruno_seat = s.scalar(select(Seat).where(Seat.game_id == gid, Seat.name == "Bruno"))
        latest = s.scalars(select(ActionRow).where(ActionRow.seat_id == bruno_seat.id)
                           .order_by(ActionRow.id.desc())).first()
    assert f"Voto: {latest.args['vote']}" in page and "Voto: Carla" not in page.split("Le tue scelte")[1][:300]
    assert many.statements == few.statements
    assert many.loaded["ActionRow"] == few.loaded["ActionRow"] == 1  # his latest vote, not the phase's 329


def test_a_vote_reads_as_much_with_ten_or_three_hundred_votes_in_the_phase(app, factory, clock):
    gid = day_one(app, factory, clock)
    dario = logged_in(app, "Dario")
    page = area(dario)
    form = dict(forms_of(page)["form-vote"].hidden)
    everyone_votes(app, factory, clock, gid, 1)
    with counting(app) as few:
        assert dario.post("/g/test-game/act", data={**form, "vote-vote": "Anna"}).status_code == 302
    everyone_votes(app, factory, clock, gid, 40)
    with counting(app) as many:
        assert dario.post("/g/test-game/act", data={**form, "vote-vote": "Bruno"}).status_code == 302
    assert "Registrato" in flash_of(area(dario))
    assert many.statements == few.statements
    # BEGIN, the user, the game with the seat and the phase, the INSERT: nothing the
    # vote's query left in the database (the game's published state) is read after all.
    # (SQLite's BEGIN IMMEDIATE is a statement the service sends; psycopg sends
    # PostgreSQL's BEGIN itself, with the first statement.)
    sqlite = app.extensions["pbm_engine"].dialect.name == "sqlite"
    assert few.statements == (4 if sqlite else 3)
    assert many.loaded["ActionRow"] == few.loaded["ActionRow"] == 0
    assert many.loaded["Seat"] == few.loaded["Seat"] == 1  # Dario's seat, not the game's eight


def test_the_reserved_page_loads_only_the_events_its_reader_may_see_as_the_game_goes_on(app, factory, clock):
    gid = day_one(app, factory, clock)
    carla = logged_in(app, "Carla")
    costs = []
    for day in range(3):
        with counting(app) as cost:
            area(carla)
        with factory() as s:
            rows = s.scalars(select(EventRow).where(EventRow.game_id == gid)).all()
            hers = [r for r in rows if r.visibility == visibility.PRIVATE
                    and visibility.seen([r], Viewer(player="Carla"), "lupus-live-12", "it")]
        costs.append(cost)
        # Only her own results leave the database, however many events the game has.
        assert cost.loaded["EventRow"] == len(hers) < len(rows)
        if day == 2:
            break
        # The night: the Veggente looks at someone; then the next day.
        clock.set(TUESDAY_0930_ROME + timedelta(days=day, hours=12))
        Worker(app, clock).boundaries()
        with transaction(factory) as s:
            game = s.get(Game, gid)
            operations.submit(s, app.config, game, game.seat_by_name("Carla"), {"target": "Anna"},
                              source="web", now=clock.now())
        clock.set(TUESDAY_0930_ROME + timedelta(days=day + 1))
        Worker(app, clock).boundaries()
    assert costs[-1].loaded["EventRow"] > costs[0].loaded["EventRow"]  # her results grew
    assert len({c.statements for c in costs}) == 1


def test_the_page_asks_for_a_seats_absences_only_once_it_has_declared_one(app, factory, clock):
    gid = day_one(app, factory, clock)
    elena = logged_in(app, "Elena")
    with counting(app) as first:
        area(elena)
    assert first.sent and not first.asked("SELECT absences.")  # never declared one: none asked for
    with transaction(factory) as s:
        game = s.get(Game, gid)
        today = clock.now().date()
        operations.seats.declare_absence(s, app.config, game, game.seat_by_name("Elena"),
                                         first_day=today + timedelta(days=2), last_day=today + timedelta(days=3),
                                         note="In montagna", now=clock.now())
    with counting(app) as then:
        assert "In montagna" in area(elena)
    assert then.asked("SELECT absences.") == 1


def test_a_first_visit_asks_for_no_choices_and_a_mail_vote_shows_at_the_next(app, factory, clock):
    gid = day_one(app, factory, clock)
    carla = logged_in(app, "Carla")
    with counting(app) as first:
        page = area(carla)
    assert "form-vote" in page and first.asked("SELECT actions.id") == 0  # nothing chosen yet: nothing asked
    with transaction(factory) as s:  # she votes by mail
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name("Carla"), {"vote": "Anna"},
                          source="mail", now=clock.now())
    with counting(app) as then:
        page = area(carla)
    assert then.asked("SELECT actions.id") == 1 and "Voto: Anna" in page.split("Le tue scelte")[1]
