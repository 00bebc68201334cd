"""Issue 31 ("Told and taught") in a real browser on a phone (Chromium, 360x740): what
a new Master and new players tripped over, each class checked where people meet it.

- a role without its card: every player's reserved page shows their own card, which
  fits the screen, and a night with nothing to do says so with its deadline;
- the rules page lists every card of the game;
- a value of the other language and a word that takes the reader's gender: the pages
  a player reads, in English and in Italian, hold neither (tests/support/wording.py);
- the new-game form shows only the chosen ruleset's settings; the desk's composition
  keeps a running total."""
from __future__ import annotations

import pytest

from engine.registry import get_ruleset
from pbm import operations
from pbm.db import transaction
from pbm.models import User

from tests.support import wording
from tests.support.helpers import make_game, make_master

PHONE = {"viewport": {"width": 360, "height": 740}, "locale": "it-IT"}
TR7 = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Medium", "Dario": "Contadino",
       "Elena": "Veggente"}


def _login(page, base: str, email: str, password: str) -> None:
    page.goto(f"{base}/login")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", password)
    page.click("form.stack button[type=submit]")


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def _readable_problems(page, lang: str) -> list[str]:
    return [str(p) for p in wording.problems_of("page", page.content(), lang)]


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def test_each_player_reads_their_card_and_a_quiet_night_says_so(app, factory, clock, live_server, phone):
    make_game(factory, app.config, clock.now(), TR7, ruleset="tempo-reale-7", mayor="Dario",
              langs={"Elena": "en"})
    rules = get_ruleset("tempo-reale-7")
    for name, role in TR7.items():
        lang = "en" if name == "Elena" else "it"
        _login(phone, live_server, f"{name.lower()}@players.test", f"pw-{name.lower()}")
        if lang == "en":  # her account's language: the pages follow it
            phone.goto(f"{live_server}/g/test-game/")
            phone.click("button[lang=en]")
        phone.goto(f"{live_server}/g/test-game/me")
        card = rules.role_card(role, lang, [])
        summary = phone.locator("details.role-cards summary")
        assert summary.is_visible(), name
        assert phone.locator("details.role-cards").get_attribute("open") is not None  # night 1: open
        assert card.does in phone.locator("details.role-cards").inner_text(), name
        _fits(phone)
        assert not _readable_problems(phone, lang), (name, _readable_problems(phone, lang))
        if role == "Negromante":  # nobody dead yet: no form tonight, and the page says so
            idle = phone.locator("section.phase.idle").inner_text()
            assert "nulla da fare" in idle and "Termina il" in idle
        phone.context.clear_cookies()


def test_the_rules_page_lists_every_card_and_fits_a_phone(app, factory, clock, live_server, phone):
    make_game(factory, app.config, clock.now(), TR7, ruleset="tempo-reale-7", mayor="Dario")
    phone.goto(f"{live_server}/g/test-game/rules")
    cards = phone.locator("article.role-card")
    assert cards.count() == len(get_ruleset("tempo-reale-7").card_roles())
    _fits(phone)
    assert not _readable_problems(phone, "it")


def test_the_new_game_form_shows_only_the_chosen_rulesets_settings(app, factory, live_server, phone):
    make_master(factory)
    _login(phone, live_server, "master@example.org", "master")
    phone.goto(f"{live_server}/master/new")
    window = phone.locator("input[name=answer_window]")
    contradictions = phone.locator("input[name=review_contradictions]")
    phone.select_option("select[name=ruleset]", "lupus-live-12")
    assert not window.is_visible() and not contradictions.is_visible()
    phone.select_option("select[name=ruleset]", "complots")
    assert window.is_visible() and not contradictions.is_visible()
    phone.select_option("select[name=ruleset]", "tempo-reale-7")
    assert contradictions.is_visible() and not window.is_visible()
    _fits(phone)


def test_the_composition_keeps_a_running_total(app, factory, clock, live_server, phone):
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Inverno", ruleset="lupus-live-12", master=master,
                                      now=clock.now())
        for name in ("Anna", "Bruno", "Carla", "Dario"):
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@p.test",
                                  now=clock.now(), password="pw")
    _login(phone, live_server, "master@example.org", "master")
    phone.goto(f"{live_server}/g/inverno/master")
    total = phone.locator("#composition-total")
    assert "Totale: 0 ruoli per 4 giocatori." in total.inner_text()
    phone.fill("#composition input[name='role-Lupo Mannaro']", "1")
    phone.fill("#composition input[name='role-Contadino']", "2")
    assert "Totale: 3 ruoli per 4 giocatori." in total.inner_text()
    # Each role says what it does, where the Master picks it.
    assert "sbranare" in phone.locator("#composition label", has_text="Lupo Mannaro").get_attribute("title")
