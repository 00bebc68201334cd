"""The role card where a player looks for it (issue 31, Major 2): in the role mail, on
the reserved page, and every card of the game on its public rules page; a phase that
asks nothing of a player says so on the page, with its deadline."""
from __future__ import annotations

import html

from engine.registry import get_ruleset
from pbm.models import OutboxRow

from tests.support.helpers import login, make_game

# A tempo-reale-7 game of the kind: nobody is dead on night 1, so the Negromante
# has no form; the Medium's card is the one the issue quoted as a single line.
ROLES = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Medium", "Dario": "Contadino",
         "Elena": "Contadino", "Fabio": "Veggente"}


def _page(client, path: str) -> str:
    return html.unescape(client.get(path).get_data(as_text=True))


def test_the_role_mail_carries_the_card_with_the_games_players(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, ruleset="tempo-reale-7", mayor="Dario",
              langs={"Fabio": "en"})
    card = get_ruleset("tempo-reale-7").role_card("Medium", "it", ["Anna"])
    with factory() as s:
        letters = {m.to_addr: m.body for m in s.query(OutboxRow).filter_by(kind="role_letter")}
    carla = letters["carla@players.test"]
    assert card.does in carla and card.knows in carla, carla
    assert "Cosa fa:" in carla and "Quando:" in carla
    # The mail line names a player of this game, never the reader, never a stranger.
    line = next(x for x in carla.splitlines() if x.startswith("Per mail"))
    assert "POTERE " in line and "Carla" not in line
    assert any(name in line for name in ROLES)
    assert "/g/test-game/rules" in carla
    # In the reader's language.
    fabio = letters["fabio@players.test"]
    assert "What it does:" in fabio and "SEER (VEGGENTE)" in fabio and "Cosa fa" not in fabio, fabio


def test_the_reserved_page_shows_the_card_and_says_when_there_is_nothing_to_do(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, ruleset="tempo-reale-7", mayor="Dario")
    bruno = _page(login(app, "bruno@players.test", "pw-bruno"), "/g/test-game/me")
    card = get_ruleset("tempo-reale-7").role_card("Negromante", "it", [])
    assert card.does in bruno
    # Night 1: no dead to wake, no form; the page names the phase, its deadline, and says so.
    assert 'id="form-' not in bruno
    assert "In questa fase non hai nulla da fare." in bruno and "Termina il " in bruno
    assert "notte" in bruno.lower()
    fabio = _page(login(app, "fabio@players.test", "pw-fabio"), "/g/test-game/me")
    assert get_ruleset("tempo-reale-7").role_card("Veggente", "it", []).does in fabio
    assert "nulla da fare" not in fabio and 'id="form-power"' in fabio  # the Veggente has a form
    # Nobody's page shows another role's card.
    assert card.does not in fabio


def test_the_rules_page_lists_every_card_of_the_game(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, ruleset="tempo-reale-7", mayor="Dario")
    page = _page(app.test_client(), "/g/test-game/rules")
    rules = get_ruleset("tempo-reale-7")
    for role in rules.card_roles():
        assert rules.role_card(role, "it", list(ROLES)).does in page, role
    assert "POTERE Anna" in page or "POTERE Bruno" in page
    assert "/g/test-game/rules" in _page(app.test_client(), "/g/test-game/")


def test_a_complots_player_reads_the_cards_of_the_characters_held(app, factory, clock):
    from tests.service.windows.test_complots_windows import start
    hands = {"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"],
             "Carla": ["Ambasciatore", "Duchessa"]}
    start(app, factory, clock.now(), hands=hands)
    rules = get_ruleset("complots")
    with factory() as s:
        first = {m.to_addr: m.body for m in s.query(OutboxRow).filter_by(kind="window")}
    anna = first["anna@players.test"]
    assert rules.role_card("Capitano", "it", []).does in anna
    assert rules.role_card("Assassino", "it", []).does in anna
    assert rules.role_card("Contessa", "it", []).does not in anna  # not held: not hers to read
    page = _page(login(app, "anna@players.test", "pw-anna"), "/g/complotto/me")
    assert rules.role_card("Capitano", "it", []).does in page
    # The rules page of an Ambasciatore game has no Inquisitore.
    public = _page(app.test_client(), "/g/complotto/rules")
    assert rules.role_card("Ambasciatore", "it", []).does in public
    assert rules.role_card("Inquisitore", "it", []).does not in public


def test_an_english_role_letter_names_the_role_in_english(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, ruleset="tempo-reale-7", mayor="Dario",
              langs={"Fabio": "en"})
    with factory() as s:
        fabio = s.query(OutboxRow).filter_by(kind="role_letter", to_addr="fabio@players.test").one().body
    assert "Your role: Seer (Veggente)." in fabio
