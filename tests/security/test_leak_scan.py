"""The leak scanner (tests/security/leak_scanner.py) on a whole bot-played game of each
ruleset: every page, feed, picture and mail, read by every kind of viewer, must be the
same in two games that differ only in a secret the viewer may not know.

The quick version runs here; faults/test_leak_scan_full.py reads every page as every
viewer at every step (`make faults`)."""
from __future__ import annotations

from typing import Any

import pytest

from engine import registry

from tests.support import table_variant

from .leak_scanner import Leak, Scenario, draw, scan

SEVEN = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia"]


def swapped(roles: dict[str, str], x: str, y: str) -> dict[str, str]:
    return {**roles, x: roles[y], y: roles[x]}


# --------------------------------------------------------------------------- Lupus LIVE! 12

# Elena's questions as the Profeta (personaggi §1.11) hold the night's results for the
# Masters: the pages are read while they settle them, too.
LIVE_ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Contadino",
              "Elena": "Profeta", "Fabio": "Contadino", "Giulia": "Guardia del corpo"}

LIVE_WHO_IS_A_WOLF = Scenario(
    name="lupus-live-12: which of Bruno and Dario is the second wolf",
    ruleset="lupus-live-12", players=SEVEN,
    setup=lambda side: {"roles": LIVE_ROLES if side == "A" else swapped(LIVE_ROLES, "Bruno", "Dario"),
                        "options": {"mayor": "Fabio"}},
    # Personaggi §2: the pack knows each other; nobody else knows who is a wolf.
    knowers={"Anna", "Bruno", "Dario"}, spared={"Bruno", "Dario"},
    by_mail={"Elena", "Giulia"}, by_web={"Carla", "Fabio"},
)

# The Veggente and the Medium: both white, both corrupted at death with the same
# chance (personaggi §1.11.1), neither seen by the village at work.
LIVE_SEER_AND_MEDIUM = {**LIVE_ROLES, "Dario": "Medium"}

LIVE_WHO_WAS_THE_SEER = Scenario(
    name="lupus-live-12: which of Carla, who may die, and Dario is the Veggente, and which the Medium",
    ruleset="lupus-live-12", players=SEVEN,
    setup=lambda side: {"roles": LIVE_SEER_AND_MEDIUM if side == "A"
                        else swapped(LIVE_SEER_AND_MEDIUM, "Carla", "Dario"), "options": {"mayor": "Fabio"}},
    # Nothing publishes the role of the dead (principale §1.5): Carla is not spared, so
    # her death, and the games after it, are read too.
    knowers={"Carla", "Dario"}, spared={"Dario"}, by_mail={"Giulia"}, by_web={"Fabio"},
)

# --------------------------------------------------------------------------- Tempo reale 7

TR7_ROLES = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Veggente", "Dario": "Contadino",
             "Elena": "Contadino", "Fabio": "Guardia del corpo", "Giulia": "Contadino"}

TR7_WHO_IS_THE_WOLF = Scenario(
    name="tempo-reale-7: which of Anna and Dario is the Lupo",
    ruleset="tempo-reale-7", players=SEVEN,
    setup=lambda side: {"roles": TR7_ROLES if side == "A" else swapped(TR7_ROLES, "Anna", "Dario"),
                        "options": {"mayor": "Elena"}},
    knowers={"Anna", "Dario"}, spared={"Anna", "Dario"},
    by_mail={"Elena", "Giulia"}, by_web={"Carla", "Fabio"},
)

# --------------------------------------------------------------------------- Complots

BRUNO_HANDS = {"A": ["Contessa", "Assassino"], "B": ["Capitano", "Ambasciatore"]}
OTHER_HANDS = {"Anna": ["Duchessa", "Capitano"], "Carla": ["Ambasciatore", "Duchessa"]}


def complots_bot(side, state, player, form, step) -> dict[str, Any] | None:
    """Plays from what everybody sees (coins, whose turn): never challenges nor blocks
    (the answer would depend on the cards), never exchanges (the court drawn from
    depends on the cards dealt), never aims at the spared player."""
    rng = draw(step, player)
    spared = side.scenario.spared
    if form.kind == "turn":
        legal = form.fields[0].choices
        targets = [t for t in form.fields[1].choices if t not in spared]
        if "coup" in legal and targets:
            return {"kind": "turn", "action": "coup", "target": rng.choice(targets)}
        safe = [a for a in ("income", "foreign_aid", "tax") if a in legal]
        if targets and "steal" in legal:
            safe.append("steal")
        # With nobody spared (the end of the game, compared no more), straight to a coup.
        action = rng.choice(safe) if spared else "tax"
        return {"kind": "turn", "action": action, **({"target": rng.choice(targets)} if action == "steal" else {})}
    if form.kind == "answer":
        return {"kind": "answer", "answer": "pass"}
    if form.kind == "lose":
        return {"kind": "lose", "card": form.fields[0].choices[0]}
    return None


def complots_setup(side: str) -> dict[str, Any]:
    return {"options": {"hands": {**OTHER_HANDS, "Bruno": BRUNO_HANDS[side]}}}


COMPLOTS_BRUNOS_CARDS = Scenario(
    name="complots: Bruno's face-down cards",
    ruleset="complots", players=["Anna", "Bruno", "Carla"], setup=complots_setup,
    knowers={"Bruno"}, spared={"Bruno"}, choose=complots_bot, max_steps=6, endgame_steps=60,
)

# --------------------------------------------------------------------------- Lupus Noctis

EIGHT = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]


def noctis_deal(side: str) -> dict[str, Any]:
    """The standard village for eight (ruling N12), dealt on paper: the narrator taps it."""
    second_wolf = "Fabio" if side == "A" else "Dario"
    return {"identities": {"Licantropo": ["Bruno", second_wolf], "Veggente": ["Carla"], "Medium": ["Gina"]}}


# The players at the table have no account: the public, the outsiders and the
# narrator (this game's Master) are the readers.
NOCTIS_WHO_IS_A_WOLF = Scenario(
    name="lupus-noctis: which of Dario and Fabio is the second Licantropo",
    ruleset="lupus-noctis", players=EIGHT, setup=noctis_deal, at_table=True,
    knowers=set(), spared={"Dario", "Fabio"},
)



def whose_death_was_whose(side: str, step: int, call: Any) -> list[str] | None:
    """The second night: the pack devours Anna and the Veggente's look kills Elena in
    game A, the other way round in game B; any other call is the bots'."""
    if call.tap.actor is None or not {"Anna", "Elena"} <= set(call.tap.choices):
        return None
    pack, looked = ("Anna", "Elena") if side == "A" else ("Elena", "Anna")
    return {"Licantropo": [pack], "Veggente": [looked]}.get(call.role)


# A variant whose rules list the pack's victim first (tests/support/table_variant.py):
# only the filter's order keeps the table, and the summary everybody reads at the end,
# from telling whose death was whose. The Veggente is spared so that she lives to look.
NOCTIS_WHOSE_DEATH = Scenario(
    name="lupus-noctis (a variant): whose victim were Anna and Elena",
    ruleset=table_variant.KEY, players=EIGHT, setup=lambda side: noctis_deal("A"), at_table=True,
    knowers=set(), spared={"Anna", "Elena", "Carla"}, taps=whose_death_was_whose,
    secret_at_the_end=("/summary",), max_steps=12, viewers_per_step=1,
)


@pytest.fixture(autouse=True)
def _the_variant(monkeypatch):
    monkeypatch.setitem(registry._MODULES, table_variant.KEY, table_variant.__name__)


SCENARIOS = [LIVE_WHO_IS_A_WOLF, TR7_WHO_IS_THE_WOLF, COMPLOTS_BRUNOS_CARDS, NOCTIS_WHO_IS_A_WOLF]


@pytest.mark.parametrize("scenario", SCENARIOS + [NOCTIS_WHOSE_DEATH],
                         ids=lambda s: s.ruleset)
def test_no_viewer_reads_a_secret_of_the_game(tmp_path, scenario):
    found = scan(scenario, tmp_path)
    print(scenario.name, found.pages_read, found.mails_read, found.steps, "\n".join(found.log))
    assert found.ended
    # The Masters see everything; so do the players the secret is about: what they read
    # differs, so the comparison above can fail.
    assert found.master_saw_difference
    assert found.knower_saw_difference or not scenario.knowers
    # The Profeta's question held a night for the Masters, and it was read meanwhile.
    assert found.drafts_read or scenario is not LIVE_WHO_IS_A_WOLF


# --------------------------------------------------------------------------- it can fail

@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.ruleset)
def test_the_scan_finds_a_filter_that_shows_every_event(tmp_path, scenario, monkeypatch):
    """A filter that forgets its rules: every event shown to every reader, by the
    ruleset's ``visible`` and by the SQL condition pages narrow their queries with."""
    from sqlalchemy import true

    from engine.registry import get_ruleset
    from pbm import visibility
    monkeypatch.setattr(get_ruleset(scenario.ruleset), "visible", lambda event, viewer: event)
    monkeypatch.setattr(visibility, "readable_by", lambda viewer: true())
    with pytest.raises(Leak, match="differs between the two games"):
        scan(scenario, tmp_path)


def test_the_scan_finds_an_address_on_a_page(tmp_path):
    """A game page that shows a player's address (the same in both games, so only the
    search for addresses can see it)."""
    def tamper(app):
        home = app.view_functions["public.game_home"]

        def leaky(*args, **kwargs):
            response = app.make_response(home(*args, **kwargs))
            response.set_data(response.get_data(as_text=True) + "<!-- giulia@players.test -->")
            return response
        app.view_functions["public.game_home"] = leaky
    with pytest.raises(Leak, match="Giulia's e-mail address"):
        scan(LIVE_WHO_IS_A_WOLF, tmp_path, tamper=tamper)


def test_the_scan_finds_another_players_result_shown_to_every_player(tmp_path, monkeypatch):
    """Every player reads the Masters' view: everybody's role letter, the Veggente's
    answers. The scan's own idea of who may read what does not come from the filter
    it tests, so the lines meant for others are found."""
    from engine.interface import Viewer
    from pbm import visibility
    real = visibility.seen

    def masters_view_for_players(items, viewer, ruleset, lang):
        return real(items, Viewer(master=True) if viewer.player else viewer, ruleset, lang)
    monkeypatch.setattr(visibility, "seen", masters_view_for_players)
    with pytest.raises(Leak, match="shows a line for"):
        scan(LIVE_WHO_IS_A_WOLF, tmp_path)


def test_the_scan_finds_the_role_of_the_dead_on_the_game_page(tmp_path):
    """The game page naming the role of each dead player: the dead seer's game tells
    it apart (Carla dies while the games are compared)."""
    from engine.core import GameState
    from pbm.models import Game

    def tamper(app):
        home = app.view_functions["public.game_home"]

        def leaky(slug, *args, **kwargs):
            response = app.make_response(home(slug, *args, **kwargs))
            with app.extensions["pbm_sessions"]() as s:
                game = s.query(Game).filter_by(slug=slug).one()
                dead = [p for p in GameState.from_dict(game.state).players if not p.alive]
            response.set_data(response.get_data(as_text=True)
                              + "".join(f"<!-- {p.name}: {p.role} -->" for p in dead))
            return response
        app.view_functions["public.game_home"] = leaky
    with pytest.raises(Leak, match="Carla: (Veggente|Medium)"):
        scan(LIVE_WHO_WAS_THE_SEER, tmp_path, tamper=tamper)


def test_the_scan_finds_a_room_read_by_players_outside_it(tmp_path, monkeypatch):
    """Rooms that let every player read them (issue 30): the den's posts, written by the
    pack alone, reach the village, and who wrote them tells who is a wolf."""
    from engine.lupus_live_12.rooms import LiveRooms
    from engine.rooms import Access, everyone
    from pbm.web import rooms_access

    members = LiveRooms.rules_members
    monkeypatch.setattr(LiveRooms, "rules_members",
                        lambda self, state, room: {**everyone(state, Access.READ), **members(self, state, room)})
    rooms_access.forget()  # nothing reckoned under the true rules is kept
    try:
        with pytest.raises(Leak, match="differs between the two games"):
            scan(LIVE_WHO_IS_A_WOLF, tmp_path)
    finally:
        rooms_access.forget()
