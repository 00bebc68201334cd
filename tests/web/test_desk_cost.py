"""The Masters' desk asks the database the same number of questions for a game of
eight and of thirty-two players: its seats and their users come in one query, not
one user at a time. Counted, not timed, so it holds on a loaded machine."""
from __future__ import annotations

from datetime import datetime, timezone

from engine.registry import DEMO
from pbm import operations
from pbm.db import transaction
from pbm.models import User
from pbm.worker import Worker
from tests.support.helpers import login, make_master
from tests.web.test_reserved_page_cost import counting

TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)  # day 1 open


def game_of(factory, config, now, slug: str, players: int) -> None:
    names = [f"P{i:02d}" for i in range(players)]
    roles = {n: "Contadino" for n in names} | {names[0]: "Lupo Mannaro", names[1]: "Lupo Mannaro",
                                                 names[2]: "Veggente"}
    with transaction(factory) as s:
        master = s.query(User).filter_by(email="master@example.org").one()
        game = operations.create_game(s, name=slug, ruleset=DEMO, master=master, now=now, slug=slug)
        for name in names:
            operations.add_player(s, config, game, name=name, email=f"{name.lower()}.{slug}@players.test",
                                  now=now, by=master)
        operations.start_game(s, config, game, roles=roles, now=now, by=master)


def test_the_desk_reads_as_much_for_32_players_as_for_8(make_app, clock) -> None:
    app = make_app()
    factory = app.extensions["pbm_sessions"]
    make_master(factory)
    game_of(factory, app.config, clock.now(), "small", 8)
    game_of(factory, app.config, clock.now(), "large", 32)
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()
    master = login(app, "master@example.org", "master")
    statements = {}
    for slug in ("small", "large"):
        page = master.get(f"/g/{slug}/master")  # the first request of each warms what it caches
        assert page.status_code == 200
        with counting(app) as cost:
            page = master.get(f"/g/{slug}/master")
        assert page.status_code == 200
        if slug == "large":
            assert "P31" in page.get_data(as_text=True)  # every seat is on the desk
        statements[slug] = cost.statements
    assert statements["large"] == statements["small"], statements
