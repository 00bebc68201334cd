"""The Mayor is the Lupus rulesets' own: their set-up option on the desk (a choice
among the players, or the draw), and their title beside the Mayor's name on every
page. The service names no Mayor: a game of another ruleset offers none."""
from __future__ import annotations

import re

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, User

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
COMPOSITION = {"Lupo Mannaro": 1, "Veggente": 1, "Contadino": 3}


def setup_game(app, factory, clock, ruleset: str, slug: str) -> None:
    make_master(factory)
    with transaction(factory) as s:
        master = s.query(User).one()
        game = operations.create_game(s, name=slug, ruleset=ruleset, master=master, now=clock.now())
        for name in PLAYERS:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@p.test",
                                  now=clock.now(), password="x")


def draw(client, slug: str, token: str, **fields: str) -> None:
    data = {"csrf_token": token, **{f"role-{r}": str(n) for r, n in COMPOSITION.items()}, **fields}
    client.post(f"/g/{slug}/master/draw", data=data)


def test_the_master_names_the_mayor_and_every_page_shows_the_title(app, factory, clock):
    setup_game(app, factory, clock, "lupus-live-12", "villaggio")
    master = login(app, "master@example.org", "master")
    desk = master.get("/g/villaggio/master").get_data(as_text=True)
    offered = re.search(r'<select name="option-mayor">(.*?)</select>', desk, re.S)
    assert offered and re.findall(r'<option value="([^"]*)"', offered.group(1)) == ["", *PLAYERS]
    token = csrf_from(desk)

    draw(master, "villaggio", token, **{"option-mayor": "Zorro"})  # not a player: left to the draw
    with factory() as s:
        assert s.query(Game).one().prepared["options"]["mayor"] in PLAYERS
    draw(master, "villaggio", token, **{"option-mayor": "Carla"})
    master.post("/g/villaggio/master/start", data={"csrf_token": token})
    with factory() as s:
        game = s.query(Game).one()
        assert game.status == "running" and game.state["mayor"] == "Carla"

    home = app.test_client().get("/g/villaggio/").get_data(as_text=True)
    assert "Carla (Sindaco)" in home and home.count("(Sindaco)") == 1
    carla = login(app, "carla@p.test", "x").get("/g/villaggio/me").get_data(as_text=True)
    anna = login(app, "anna@p.test", "x").get("/g/villaggio/me").get_data(as_text=True)
    assert "Carica:</strong> Sindaco" in carla and "Carica:" not in anna
    desk = master.get("/g/villaggio/master").get_data(as_text=True)
    assert re.search(r">Carla</a>(?:(?!</tr>).)*, Sindaco</td>", desk, re.S)
    assert desk.count(", Sindaco</td>") == 1


def test_a_game_without_a_mayor_offers_none(app, factory, clock):
    setup_game(app, factory, clock, "complots", "intrighi")
    desk = login(app, "master@example.org", "master").get("/g/intrighi/master").get_data(as_text=True)
    assert 'name="option-mayor"' not in desk and "Sindaco" not in desk
