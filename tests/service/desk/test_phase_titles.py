"""A phase's title stays true when a Master closes phases early (issue 21): it names
the phase by its number and the day it really ended. Before, two nights closed on one
day were both "notte di lunedì 23 novembre" in the archive, and a bulletin announced
"giorno di martedì 24" for a day the archive later called "lunedì 23"."""
from __future__ import annotations

import re
from sqlalchemy import select

from pbm.models import OutboxRow, User
from pbm.operations import desk

from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino"}


def test_phases_closed_early_on_one_day_keep_distinct_true_titles(app, factory, clock):
    game_id = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        master_id = s.scalar(select(User.id).where(User.email == "master@example.org"))
    for _ in range(4):  # night 1, day 1, night 2, day 2: each closed an hour after it opened
        clock.advance(hours=1)
        assert desk.close_now(factory, app.config, game_id, clock.now(), by_user_id=master_id)
    archive = app.test_client().get("/g/test-game/phases/").get_data(as_text=True)
    titles = re.findall(r'<li value="\d+"><a [^>]+>([^<]+)</a>', archive)
    assert titles == ["notte 1, lunedì 23 novembre", "giorno 1, lunedì 23 novembre",
                      "notte 2, lunedì 23 novembre", "giorno 2, lunedì 23 novembre"]
    # Each bulletin announced the next phase as scheduled then; the number is the one
    # the archive shows it under, whatever day it then closed.
    with factory() as s:
        bulletins = [r.body for r in s.scalars(select(OutboxRow).where(
            OutboxRow.kind == "phase_results", OutboxRow.to_addr == "anna@players.test").order_by(OutboxRow.id))]
    announced = [re.search(r"Ora: (\w+ \d+), ", body).group(1) for body in bulletins]
    assert announced == ["giorno 1", "notte 2", "giorno 2", "notte 3"]
