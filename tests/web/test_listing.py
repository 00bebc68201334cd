"""Who may read a game (issue 31): the home page puts a visitor's own games first; a game
may be unlisted (read by its link) or private (its players and Masters only: anyone
else, its bulletins and archive and feed included, finds nothing there)."""
from __future__ import annotations

import pytest

from pbm.db import transaction
from pbm.models import Game

from tests.support.helpers import login, make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente"}
PAGES = ["/g/test-game/", "/g/test-game/phases/", "/g/test-game/bulletin.atom", "/g/test-game/rules",
         "/g/test-game/calendar.ics"]


def _listing(factory, gid, listing):
    with transaction(factory) as s:
        s.get(Game, gid).listing = listing


def test_the_home_page_puts_the_visitors_own_games_first(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    anna = login(app, "anna@players.test", "pw-anna").get("/").get_data(as_text=True)
    assert "Le tue partite" in anna and anna.index("Test game") < anna.index("Altre partite")
    public = app.test_client().get("/").get_data(as_text=True)
    assert "Le tue partite" not in public and "Test game" in public


@pytest.mark.parametrize("listing", ["unlisted", "private"])
def test_an_unlisted_or_private_game_is_not_on_the_home_page(app, factory, clock, listing):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    _listing(factory, gid, listing)
    assert "Test game" not in app.test_client().get("/").get_data(as_text=True)
    assert "Test game" in login(app, "anna@players.test", "pw-anna").get("/").get_data(as_text=True)


def test_a_private_games_pages_are_for_its_players_and_masters_only(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    existing = [p for p in PAGES if app.test_client().get(p).status_code == 200]
    assert len(existing) >= 4
    _listing(factory, gid, "private")
    for path in existing:
        assert app.test_client().get(path).status_code == 404, path
        assert login(app, "anna@players.test", "pw-anna").get(path).status_code == 200, path
        assert login(app, "master@example.org", "master").get(path).status_code == 200, path
