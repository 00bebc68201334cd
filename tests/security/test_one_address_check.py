"""Every form that takes an address holds one address, checked by one validator.

The attack: the Masters' substitute form took ``sub2@evil.test, bcc2@evil.test`` and
``Sub <sub3@evil.test>`` as one address (an account made for it, mail queued to it),
and an address with a line break answered 500. Each form that takes an address is
tried here with the same inputs: each must refuse them in words (Italian, English
for an English reader), answer no 5xx, and make no account and no mail.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from pbm import operations
from pbm.operations import signups
from pbm.db import transaction
from pbm.models import Game, GameMaster, OutboxRow, Seat, User

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game, make_master

BAD = [
    "sub2@evil.test, bcc2@evil.test",
    "Sub <sub3@evil.test>",
    "sub4@evil.test\r\nBcc: spy@evil.test",
    "sub5@evil.test\nBcc: spy@evil.test",
    "sub6@evil.test; spy@evil.test",
    "sub7@evil.test spy@evil.test",
    '"sub8"@evil.test',
    "sub9@@evil.test",
    "sub10@evil..test",
    "sub11@.evil.test",
    "sub12@evil.test\x00",
    "@evil.test",
    "sub13@",
]
IT = "Scrivi un solo indirizzo email"
EN = "Write one email address"


def nothing_made_for_evil(factory) -> None:
    with factory() as s:
        assert s.scalars(select(User.email).where(User.email.like("%evil%"))).all() == []
        assert s.scalars(select(OutboxRow.to_addr).where(OutboxRow.to_addr.like("%evil%"))).all() == []


def answered_in_words(r, words: str = IT) -> str:
    assert r.status_code < 500, r.status_code
    page = r.get_data(as_text=True)
    assert words in page, page[:3000]
    return page


def reader(app, lang: str):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return client


@pytest.fixture
def running(app, factory, clock):
    """A running game of the Masters' desk, and its Master logged in."""
    make_game(factory, app.config, clock.now(), {"Anna": "lupo", "Bruno": "veggente", "Carla": "contadino",
                                                  "Dario": "contadino", "Elio": "contadino"})
    with factory() as s:
        slug = s.scalar(select(Game.slug))
    return slug, login(app, "master@example.org", "master")


@pytest.mark.parametrize("email", BAD)
def test_the_substitute_form(running, factory, email):
    slug, master = running
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    for field in ("email", "volunteer"):
        r = master.post(f"/g/{slug}/master/substitute", follow_redirects=True, data={
            "csrf_token": csrf_from(desk), "seat": "Dario", field: email, "name": "Sub", "lang": "it",
            "extend_hours": "0"})
        answered_in_words(r)
    nothing_made_for_evil(factory)
    with factory() as s:
        assert s.scalar(select(User.email).join(Seat, Seat.user_id == User.id).where(Seat.name == "Dario")) \
            == "dario@players.test"


@pytest.fixture
def unstarted(app, factory, clock):
    master_id = make_master(factory)
    with transaction(factory) as s:
        game = operations.create_game(s, name="Inverno", ruleset="lupus-live-12", master=s.get(User, master_id),
                                      now=clock.now())
        token = signups.open_signups(s, game, closes_at=clock.now() + timedelta(days=3), max_players=9,
                                     by=s.get(User, master_id), now=clock.now()).token
    return token, login(app, "master@example.org", "master")


@pytest.mark.parametrize("email", BAD)
def test_the_add_player_form(unstarted, factory, email):
    _token, master = unstarted
    desk = master.get("/g/inverno/master").get_data(as_text=True)
    r = master.post("/g/inverno/master/players", follow_redirects=True,
                    data={"csrf_token": csrf_from(desk), "name": "Sub", "email": email, "lang": "it"})
    answered_in_words(r)
    nothing_made_for_evil(factory)


@pytest.mark.parametrize("email", BAD)
def test_the_co_master_form(unstarted, factory, email):
    _token, master = unstarted
    page = master.get("/g/inverno/master/people").get_data(as_text=True)
    r = master.post("/g/inverno/master/masters", follow_redirects=True,
                    data={"csrf_token": csrf_from(page), "email": email, "name": "Sub", "lang": "it"})
    assert r.status_code < 500 and "indirizzo" in r.get_data(as_text=True)
    nothing_made_for_evil(factory)
    with factory() as s:
        assert s.query(GameMaster).count() == 1


@pytest.mark.parametrize("email", BAD)
def test_the_sign_up_form(app, unstarted, factory, email):
    token, _master = unstarted
    for lang, words in (("it", IT), ("en", EN)):
        client = reader(app, lang)
        page = client.get(f"/join/{token}").get_data(as_text=True)
        r = client.post(f"/join/{token}", data={"csrf_token": csrf_from(page), "name": "Sub", "email": email,
                                                "lang": lang})
        answered_in_words(r, words)
    nothing_made_for_evil(factory)


@pytest.mark.parametrize("email", BAD)
def test_the_password_reset_form(app, factory, email):
    make_master(factory)
    for lang, words in (("it", IT), ("en", EN)):
        client = reader(app, lang)
        page = client.get("/password-reset").get_data(as_text=True)
        r = client.post("/password-reset", data={"csrf_token": csrf_from(page), "email": email})
        answered_in_words(r, words)
    nothing_made_for_evil(factory)


@pytest.mark.parametrize("email", BAD)
def test_the_login_form(app, factory, email):
    make_master(factory)
    for lang, words in (("it", IT), ("en", EN)):
        client = reader(app, lang)
        page = client.get("/login").get_data(as_text=True)
        r = client.post("/login", data={"csrf_token": csrf_from(page), "email": email, "password": "master"})
        answered_in_words(r, words)
        assert r.status_code == 200  # no session: still the login page


def test_a_plain_address_still_passes_everywhere(app, running, factory):
    """The check refuses what is not one address, not unusual ones: capitals and spaces
    around are tidied, a plus, dots, a hyphen and a subdomain are fine."""
    slug, master = running
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    r = master.post(f"/g/{slug}/master/substitute", follow_redirects=True, data={
        "csrf_token": csrf_from(desk), "seat": "Dario", "email": "  Zoe.Neri+lupus@Mail.New-Host.test ",
        "name": "Zoe", "lang": "it", "extend_hours": "0"})
    assert r.status_code == 200 and IT not in r.get_data(as_text=True)
    with factory() as s:
        assert s.scalar(select(User.email).join(Seat, Seat.user_id == User.id).where(Seat.name == "Dario")) \
            == "zoe.neri+lupus@mail.new-host.test"
