"""Every page of a game asks the database the same number of questions for a game
of eight players and of thirty-two: seats and their users come in one query, never
one at a time (the Masters' desk and the archive once read each seat's user alone).
Counted, not timed, so it holds on a loaded machine."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.core import Rejected
from engine.registry import DEMO
from pbm import operations
from pbm.db import transaction
from pbm.models import Game, User
from pbm.worker import Worker
from tests.support.helpers import login, make_master
from tests.support.cost import counting

TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)  # day 1 open
PAGES = ["/g/{slug}/", "/g/{slug}/archive.json", "/g/{slug}/reveal", "/g/{slug}/bulletin.atom",
         "/g/{slug}/calendar.ics", "/g/{slug}/master", "/g/{slug}/master/as/P05", "/g/{slug}/master/people",
         "/g/{slug}/phases/", "/g/{slug}/phases/1", "/g/{slug}/phases/2", "/g/{slug}/phases/2/votes.svg"]


def game_of(factory, config, now, slug: str, players: int) -> None:
    names = [f"P{i:02d}" for i in range(players)]
    roles = dict.fromkeys(names, "Contadino") | {names[0]: "Lupo Mannaro", names[1]: "Lupo Mannaro",
                                                 names[2]: "Veggente"}
    with transaction(factory) as s:
        master = s.query(User).filter_by(email="master@example.org").one()
        game = operations.create_game(s, name=slug, ruleset=DEMO, master=master, now=now, slug=slug)
        for name in names:
            operations.add_player(s, config, game, name=name, email=f"{name.lower()}.{slug}@players.test",
                                  now=now, by=master, password="pw")
        operations.start_game(s, config, game, roles=roles, now=now, by=master)


def everyone_votes(factory, config, slug: str, now) -> datetime:
    with transaction(factory) as s:
        game = s.query(Game).filter_by(slug=slug).one()
        for seat in game.seats:
            try:
                with s.begin_nested():
                    operations.submit(s, config, game, seat, {"vote": "P05"}, source="web", now=now)
            except Rejected:
                pass
        return operations.current_phase(s, game).ends_at


def test_pages_ask_as_much_for_32_players_as_for_8(make_app, clock) -> None:
    app = make_app()
    factory = app.extensions["pbm_sessions"]
    make_master(factory)
    for slug, players in (("small", 8), ("large", 32)):
        game_of(factory, app.config, clock.now(), slug, players)
    clock.set(TUESDAY_0930_ROME)
    worker = Worker(app, clock)
    worker.boundaries()  # night 1 -> day 1
    ends = [everyone_votes(factory, app.config, slug, clock.now()) for slug in ("small", "large")]
    clock.set(max(ends) + timedelta(minutes=1))
    worker.boundaries()  # day 1 -> night 2: a vote to tell
    master = login(app, "master@example.org", "master")
    players = {slug: login(app, f"p03.{slug}@players.test", "pw") for slug in ("small", "large")}

    def statements(client, path: str) -> int:
        assert client.get(path).status_code == 200, path  # the first request warms what it caches
        with counting(app) as cost:
            page = client.get(path)
        assert page.status_code == 200, path
        return cost.statements

    for page in PAGES:
        asked = {slug: statements(master, page.format(slug=slug)) for slug in ("small", "large")}
        assert asked["large"] == asked["small"], (page, asked)
    assert "P31" in master.get("/g/large/master").get_data(as_text=True)  # every seat is on the desk
    asked = {slug: statements(players[slug], f"/g/{slug}/me") for slug in ("small", "large")}
    assert asked["large"] == asked["small"], ("/me", asked)
