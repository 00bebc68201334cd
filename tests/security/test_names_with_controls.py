"""Issue 29, finding 5: game names took CR, LF and bidirectional controls. A bare CR
was not escaped in ``calendar.ics`` (a lenient reader then read an event the Master
never made), and a name with a line break made every mail of its game fail (a 500
when a player was added). Now every name a person types is refused when it holds
such a character, in words, and every iCalendar text value is escaped as RFC 5545
says, whatever is stored.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from sqlalchemy import func, select

from pbm import operations
from pbm.calendar import ics
from pbm.calendar.schedule import Phase
from pbm.db import transaction
from pbm.models import Game, OutboxRow, User

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master

INJECTED = "Inverno\rEND:VEVENT\rBEGIN:VEVENT\rSUMMARY:Vinci un premio\rURL:http://evil.test"
HIDDEN = ["Inverno\rEND:VEVENT", "Inverno\nBcc: spy@evil.test", "Inverno\r\n", "Inv\u202eonrevni",
          "Inv\u200berno", "Inverno\x00", "Inverno\tdue"]


def bare_cr_or_lf(text: str) -> bool:
    return re.search(r"\r(?!\n)|(?<!\r)\n", text) is not None


def test_every_text_value_of_the_calendar_is_escaped():
    at = datetime(2026, 11, 23, 21, 0, tzinfo=timezone.utc)
    feed = ics.to_ics([Phase(kind="night", start=at, end=at.replace(hour=22))],
                      INJECTED, dtstamp=at, lang="it")
    assert not bare_cr_or_lf(feed)
    lines = feed.split("\r\n")
    assert sum(1 for line in lines if line.startswith("BEGIN:VEVENT")) == 1
    assert not any(line.startswith(("URL:http://evil", "SUMMARY:Vinci")) for line in lines)


def test_a_stored_name_with_a_bare_cr_is_escaped_in_the_feed(app, factory, clock):
    master_id = make_master(factory)
    with transaction(factory) as s:
        game = operations.create_game(s, name="Inverno", ruleset="lupus-live-12", master=s.get(User, master_id),
                                      now=clock.now())
        game.name = INJECTED  # as an older version let it be stored
        slug = game.slug
    r = app.test_client().get(f"/g/{slug}/calendar.ics")
    assert r.status_code == 200
    assert not bare_cr_or_lf(r.get_data(as_text=True))
    assert r.get_data(as_text=True).count("BEGIN:VEVENT") == r.get_data(as_text=True).count("END:VEVENT")
    assert "\nURL:http://evil" not in r.get_data(as_text=True)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_game_name_with_a_hidden_character_is_refused_in_words(app, factory, name):
    make_master(factory)
    master = login(app, "master@example.org", "master")
    page = master.get("/master/new").get_data(as_text=True)
    r = master.post("/master/new", data={"csrf_token": csrf_from(page), "name": name,
                                         "ruleset": "lupus-live-12", "auto_publish": "y"})
    assert r.status_code == 400, r.status_code
    assert "Un nome non può contenere a capo" in r.get_data(as_text=True)
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(Game)) == 0


@pytest.fixture
def desk(app, factory, clock):
    master_id = make_master(factory)
    with transaction(factory) as s:
        operations.create_game(s, name="Inverno", ruleset="lupus-live-12", master=s.get(User, master_id),
                               now=clock.now())
    return login(app, "master@example.org", "master")


@pytest.mark.parametrize("name", ["Anna\u202e", "An\u200bna", "Anna\x07"])
def test_a_players_name_with_a_hidden_character_is_refused(desk, factory, name):
    page = desk.get("/g/inverno/master").get_data(as_text=True)
    r = desk.post("/g/inverno/master/players", follow_redirects=True,
                  data={"csrf_token": csrf_from(page), "name": name, "email": "anna@players.test", "lang": "it"})
    assert r.status_code == 200 and "Un nome non può contenere a capo" in r.get_data(as_text=True)
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow)) == 0


def test_a_game_whose_stored_name_has_a_line_break_still_mails(desk, factory):
    """A name stored before the check: adding a player answered 500, its welcome
    unwritable; now the From carries the name on one line."""
    with transaction(factory) as s:
        s.scalar(select(Game)).name = "Inverno\r\nBcc: spy@evil.test"
    page = desk.get("/g/inverno/master").get_data(as_text=True)
    r = desk.post("/g/inverno/master/players", data={"csrf_token": csrf_from(page), "name": "Anna",
                                                     "email": "anna@players.test", "lang": "it"})
    assert r.status_code == 302
    with factory() as s:
        (welcome,) = s.scalars(select(OutboxRow))
    assert "\r" not in welcome.from_addr and "\n" not in welcome.from_addr
