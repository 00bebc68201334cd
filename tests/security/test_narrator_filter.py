"""The narrator's pages read every event through the one filter (pbm/visibility.py):
what the narrator is told to announce aloud, and the summary everybody may read once
the game is over.

Two games at the table, alike but for who did what in the second night: in one the
pack devours Anna and the Veggente's look kills Elena, in the other the other way
round. The table may learn who died, never which death was whose, so what is
announced, and the summary, must read the same in both. The rules of the test
variant (tests/support/table_variant.py) list the pack's victim first and keep the
ballot secret: only the filter keeps either from the table."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from sqlalchemy import select

from engine import registry
from pbm import operations
from pbm.db import transaction
from pbm.models import Game, GameStatus, User
from pbm.operations import table

from tests.support import table_variant
from tests.support.helpers import login, make_master

EIGHT = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]
EVENING = datetime(2026, 11, 23, 20, 0, tzinfo=timezone.utc)
IDENTITIES = {"Licantropo": ["Bruno", "Fabio"], "Veggente": ["Carla"], "Medium": ["Gina"]}


@pytest.fixture
def variant(monkeypatch):
    monkeypatch.setitem(registry._MODULES, table_variant.KEY, table_variant.__name__)
    return table_variant.KEY


class Table:
    """One game at the table, played through the operations the narrator's page calls."""

    def __init__(self, app, name: str, ruleset: str) -> None:
        self.app, self.factory = app, app.extensions["pbm_sessions"]
        with transaction(self.factory) as s:
            master = s.scalar(select(User).where(User.email == "master@example.org"))
            game = operations.create_game(s, name=name, ruleset=ruleset, master=master,
                                          now=self.when(), seed="the-same-seed")
            for player in EIGHT:
                table.seat_at_table(s, game, name=player, photo=None, now=self.when(), by=master)
            table.start_at_table(s, app.config, game, composition=None, now=self.when(), by=master)
            self.game_id, self.slug, self.master_id = game.id, game.slug, master.id

    def when(self) -> datetime:
        return EVENING

    def night(self, taps: dict[str, list[str]]) -> None:
        """Each call tapped as ``taps`` says (by role), then dawn."""
        with transaction(self.factory) as s:
            game, master = s.get(Game, self.game_id), s.get(User, self.master_id)
            phase = operations.current_phase(s, game)
            while (at := table.next_call(game, phase)) is not None:
                role = table.script_of(game, phase)[at].role
                table.record_call(s, self.app.config, game, index=at, taps=taps.get(role, []),
                                  now=self.when(), by=master)
        self.close()

    def votes(self, votes: dict[str, str]) -> None:
        with transaction(self.factory) as s:
            game, master = s.get(Game, self.game_id), s.get(User, self.master_id)
            for voter, choice in votes.items():
                table.record_vote(s, self.app.config, game, voter=voter, choice=choice,
                                  now=self.when(), by=master)
        self.close()

    def close(self) -> None:
        with self.factory() as s:
            phase_id = operations.current_phase(s, s.get(Game, self.game_id)).id
        table.close_moment(self.factory, self.app.config, self.game_id, phase_id=phase_id,
                           now=self.when(), by_user_id=self.master_id)

    def over(self) -> bool:
        with self.factory() as s:
            return s.get(Game, self.game_id).status == GameStatus.OVER


def announced(page: str) -> list[str]:
    """What the narrator's page says to read aloud to the table."""
    blocks = re.findall(r'<div class="(?:announce|say)[^"]*"[^>]*>(.*?)</div>', page, re.S)
    return [re.sub(r"<[^>]+>", "", p).strip() for b in blocks for p in re.findall(r"<p>(.*?)</p>", b, re.S)]


def play_to_morning_2(game: Table, pack: str, looked: str) -> None:
    game.night(IDENTITIES)
    # Day 1: Ivo (a Contadino) and Dario to the run-off, Ivo burned.
    game.votes({v: ("Ivo" if v != "Ivo" else "Dario") for v in EIGHT})
    game.votes({v: "Ivo" for v in EIGHT if v not in ("Ivo", "Dario")})
    game.night({"Licantropo": [pack], "Veggente": [looked], "Medium": ["Ivo"]})


def play_to_the_end(game: Table) -> None:
    living = ["Bruno", "Carla", "Dario", "Fabio", "Gina"]
    game.votes({v: ("Bruno" if v != "Bruno" else "Dario") for v in living})
    game.votes({v: "Bruno" for v in living if v not in ("Bruno", "Dario")})
    # Night 3: the pack (Fabio alone) devours Dario, the Veggente's look kills Fabio.
    game.night({"Licantropo": ["Dario"], "Veggente": ["Fabio"], "Medium": ["Ivo"]})
    assert game.over()


def test_the_table_hears_who_died_never_in_an_order_that_tells_whose_death_was_whose(app, variant):
    make_master(app.extensions["pbm_sessions"])
    narrator = login(app, "master@example.org", "master")
    one, other = Table(app, "Serata", variant), Table(app, "Serata", variant)
    play_to_morning_2(one, pack="Anna", looked="Elena")
    play_to_morning_2(other, pack="Elena", looked="Anna")
    heard = [announced(narrator.get(f"/g/{g.slug}/narrator").get_data(as_text=True)) for g in (one, other)]
    assert any("Anna" in line for line in heard[0]) and any("Elena" in line for line in heard[0])
    assert heard[0] == heard[1]


def test_the_summary_reads_the_game_as_the_public_may(app, variant):
    make_master(app.extensions["pbm_sessions"])
    anyone = app.test_client()
    one, other = Table(app, "Serata", variant), Table(app, "Serata", variant)
    play_to_morning_2(one, pack="Anna", looked="Elena")
    play_to_morning_2(other, pack="Elena", looked="Anna")
    play_to_the_end(one)
    play_to_the_end(other)
    pages = [anyone.get(f"/g/{g.slug}/summary").get_data(as_text=True) for g in (one, other)]
    moments = [page.split('id="moments"')[1] for page in pages]
    assert "Anna" in moments[0] and "Elena" in moments[0]
    assert moments[0] == moments[1]
    # The ballot is secret in this variant: the summary names nobody's vote.
    assert " → " not in moments[0]
