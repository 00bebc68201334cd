"""A phase's title never changes once a player has read it (issue 31): it names the
phase by its number and the day its deadline fell on when it opened, and keeps that
name when a Master closes it early or moves its deadline. Before, receipts said "notte
2, lunedì 30 novembre" and the bulletin after an early close "notte 2, domenica 29
novembre" (issue 21 had named a phase by the day it really ended)."""
from __future__ import annotations

import re
from sqlalchemy import select

from pbm.models import OutboxRow, User
from pbm.operations import desk

from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino"}


def test_phases_closed_early_keep_the_title_they_were_announced_with(app, factory, clock):
    game_id = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        master_id = s.scalar(select(User.id).where(User.email == "master@example.org"))
        first = s.scalar(select(OutboxRow.body).where(OutboxRow.kind == "role_letter",
                                                      OutboxRow.to_addr == "anna@players.test"))
    announced = [re.search(r"Fase in corso: ([^;]+);", first).group(1)]
    for _ in range(4):  # night 1, day 1, night 2, day 2: each closed an hour after it opened
        clock.advance(hours=1)
        assert desk.close_now(factory, app.config, game_id, clock.now(), by_user_id=master_id)
    with factory() as s:
        bulletins = [r.body for r in s.scalars(select(OutboxRow).where(
            OutboxRow.kind == "phase_results", OutboxRow.to_addr == "anna@players.test").order_by(OutboxRow.id))]
    announced += [re.search(r"Ora: ([^;]+);", body).group(1) for body in bulletins]
    archive = app.test_client().get("/g/test-game/phases/").get_data(as_text=True)
    titles = re.findall(r'<li value="\d+"><a [^>]+>([^<]+)</a>', archive)
    # Each phase is archived under the very title it was announced with, though all four
    # closed on the day the game began; the numbers keep them apart.
    assert titles == announced[:4], (titles, announced)
    assert [t.split(",")[0] for t in titles] == ["notte 1", "giorno 1", "notte 2", "giorno 2"]
    assert len({t.split(", ")[1] for t in titles}) > 1  # not four phases on one date
