"""The reserved page's validator (issue 33): a visit with nothing new answers 304 from
the page the browser kept, and nothing new is ever hidden by it: a result of the night,
the player's own new choice, a Master's intervention, another session's form token, a
receipt to show once. The page's parts kept per version of the game (reserved_parts)
are made again whenever the game changes, so what the page shows after a change is
what a page made from nothing shows."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from pbm.db import transaction
from pbm.models import Game, PhaseRow, User
from pbm.operations import desk
from pbm.worker import Worker

from tests.support.forms import area, flash_of, logged_in, post_form
from tests.support.helpers import make_game
from tests.support.reserved import afresh, same_page

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino"}
ME = "/g/test-game/me"


def _visit(client, tag: str | None = None):
    return client.get(ME, headers={"If-None-Match": tag} if tag else {})


def _phase_end(factory):
    with factory() as s:
        return s.scalar(select(PhaseRow.ends_at).order_by(PhaseRow.index.desc()).limit(1))


def test_a_visit_with_nothing_new_is_answered_304_and_a_result_of_the_night_is_not(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES)
    carla = logged_in(app, "Carla")
    assert "Registrato" in flash_of(post_form(carla, "form-power", {"target": "Anna"}))
    first = _visit(carla)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Cache-Control"] == "private, no-cache"
    again = _visit(carla, tag)
    assert again.status_code == 304 and again.data == b""

    clock.set(_phase_end(factory) + timedelta(seconds=1))
    Worker(app, clock).boundaries()  # the night resolved: Carla's vision is her private result
    after = _visit(carla, tag)
    assert after.status_code == 200 and after.headers["ETag"] != tag
    page = after.get_data(as_text=True)
    results = page.split("I tuoi risultati privati")[1].split("</ul>")[0]
    assert "Anna" in results and "Nessuno" not in results, results
    assert same_page(page, afresh(carla))


def test_the_players_own_choice_and_a_receipt_are_never_hidden(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES)
    carla = logged_in(app, "Carla")
    tag = _visit(carla).headers["ETag"]
    # The redirect after a choice shows its receipt once: that page has no validator.
    answer = carla.post(ME.replace("/me", "/act"), data={
        **_hidden(area(carla)), "power-target": "Dario"}, headers={"If-None-Match": tag})
    assert answer.status_code == 302
    shown = _visit(carla, tag)
    assert shown.status_code == 200 and "ETag" not in shown.headers and "Registrato" in flash_of(
        shown.get_data(as_text=True))
    later = _visit(carla, tag)  # the receipt gone, the choice is on the page: a new validator
    assert later.status_code == 200 and later.headers["ETag"] != tag and "Dario" in later.get_data(as_text=True)


def test_a_masters_intervention_and_another_session_change_the_validator(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES)
    bruno = logged_in(app, "Bruno")
    tag = _visit(bruno).headers["ETag"]
    assert _visit(bruno, tag).status_code == 304
    assert _visit(logged_in(app, "Bruno"), tag).status_code == 200  # another session, another form token
    with transaction(factory) as s:
        game = s.scalar(select(Game).where(Game.slug == "test-game"))
        master = s.get(User, game.masters[0].user_id)
        desk.intervene(s, app.config, game, "kill", ["Bruno"], clock.now(), by=master, reason="Assente")
    after = _visit(bruno, tag)
    assert after.status_code == 200 and after.headers["ETag"] != tag
    assert same_page(after.get_data(as_text=True), afresh(bruno))


def _hidden(page: str) -> dict[str, str]:
    from tests.support.forms import forms_of
    return forms_of(page)["form-power"].hidden
