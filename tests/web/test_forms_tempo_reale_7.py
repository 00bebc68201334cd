"""Lupus in tempo reale 7 from the reserved area (issue 4, "Ways in"): two choosers for
the two-target powers, the Negromante's target and power, the mayor election and the
successor; what the forms send is what the engine receives; forbidden choices are
refused with the reason. Also what each player and the Masters are shown from setup.

Expected choices are written from Lupus in tempo reale, 7ª edizione §3.7, not read from the engine."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from flask import render_template_string
from flask_login import login_user

from pbm.models import Game, User
from pbm.web import desk_view
from pbm.worker import Worker

from tests.support.helpers import make_game
from tests.support.forms import (
    area, edit_open_state, flash_of, forms_of, logged_in, post_form, recorded,
)

RULESET = "tempo-reale-7"
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)
ROLES = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Contadino", "Dario": "Veggente",
         "Elena": "Contadino", "Fabio": "Contadino", "Gino": "Ipnotista", "Ida": "Divinatore",
         "Luca": "Massone", "Mara": "Massone", "Olga": "Contadino"}
SPECTRES = {"Elena": "Confusione", "Fabio": "Ipnosi", "Olga": "Illusione"}
DEAD = ["Carla", *SPECTRES]
LIVING = sorted(set(ROLES) - set(DEAD))
EVERYONE = sorted(ROLES)
POWERS = ["Amnesia", "Confusione", "Corruzione", "Ipnosi", "Illusione", "Morte", "Occultamento",
          "Visione"]


def spectres(state):
    for p in state["players"]:
        if p["name"] in DEAD:
            p["alive"] = False
        if p["name"] in SPECTRES:
            p.update(role="Spettro", faction="Negromanti")
            p["data"].update(spettro=SPECTRES[p["name"]], spettro_from=1, last_used=None,
                             used_once=False)


@pytest.fixture
def night(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Dario", ruleset=RULESET)
    edit_open_state(factory, gid, spectres)
    return gid


# Confusione: "un personaggio, vivo o morto" + "un secondo personaggio, vivo o morto";
# Ipnosi: "un personaggio vivo" + "un secondo personaggio vivo";
# Illusione: "un personaggio, vivo o morto" + "un'illusione di un personaggio vivo".
TWO_TARGETS = {"Elena": ("Confusione", EVERYONE, EVERYONE),
               "Fabio": ("Ipnosi", LIVING, LIVING),
               "Olga": ("Illusione", EVERYONE, LIVING)}


@pytest.mark.parametrize("spectre", sorted(TWO_TARGETS))
def test_two_target_powers_get_two_choosers(app, factory, night, spectre):
    power, first, second = TWO_TARGETS[spectre]
    client = logged_in(app, spectre)
    page = area(client)
    form = forms_of(page)["form-power"]
    assert power in form.text
    assert form.options("power-target") == [n for n in first if n != spectre]  # never oneself (R5)
    assert form.options("power-target2") == [n for n in second if n != spectre]
    role = page[page.index('<section class="role">'):page.index("</section>")]
    assert f"Il tuo potere di Spettro:</strong> {power}</p>" in role  # the role section says which power
    target, target2 = "Anna", "Dario"
    assert "Registrato" in flash_of(post_form(client, "form-power", {"target": target, "target2": target2}))
    assert recorded(factory) == [(spectre, "power", {"target": target, "target2": target2})]


@pytest.mark.parametrize("spectre, values, why", [
    ("Elena", {"target": "Anna"}, "Il potere Confusione richiede di scegliere anche un secondo personaggio."),
    ("Elena", {"target": "Elena", "target2": "Anna"}, "Non puoi usare il potere su di te."),
    ("Fabio", {"target": "Anna", "target2": "Carla"}, "Carla non è più in vita."),
    ("Olga", {"target": "Carla", "target2": "Carla"}, "Carla non è più in vita."),
])
def test_a_forbidden_second_target_is_refused_with_the_reason(app, factory, night, spectre, values, why):
    page = post_form(logged_in(app, spectre), "form-power", values)
    assert flash_of(page) == f"Non registrato: {why}"
    assert recorded(factory) == []


def test_the_negromante_picks_the_dead_and_the_power(app, factory, night):
    client = logged_in(app, "Bruno")
    form = forms_of(area(client))["form-power"]
    assert form.options("power-target") == sorted(DEAD)  # "un personaggio morto"
    # "Ciascun potere soprannaturale può essere assegnato ad un solo Spettro".
    assert sorted(form.options("power-power")) == sorted(set(POWERS) - set(SPECTRES.values()))
    post_form(client, "form-power", {"target": "Carla", "power": "Visione"})
    assert recorded(factory) == [("Bruno", "power", {"target": "Carla", "power": "Visione"})]
    page = post_form(client, "form-power", {"target": "Carla", "power": "Ipnosi"})
    assert flash_of(page) == "Non registrato: Il potere Ipnosi è già stato assegnato a uno Spettro."
    page = post_form(client, "form-power", {"target": "Anna", "power": "Amnesia"})
    assert flash_of(page) == "Non registrato: Anna è ancora in vita."
    page = post_form(client, "form-power", {"target": "Carla"})
    assert flash_of(page) == "Non registrato: Scegli il potere soprannaturale da dare al nuovo Spettro."
    assert len(recorded(factory)) == 1


def test_election_successor_and_vote_by_day(app, factory, night, clock):
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()  # night 1 -> day 1
    voter = logged_in(app, "Anna")
    forms = forms_of(area(voter))
    assert forms["form-elect"].options("elect-elect") == LIVING  # oneself included (FAQ 7)
    assert "form-appoint" not in forms  # only the mayor designates
    post_form(voter, "form-elect", {"elect": "Anna"})
    post_form(voter, "form-vote", {"vote": "Gino"})
    mayor = logged_in(app, "Dario")
    assert forms_of(area(mayor))["form-appoint"].options("appoint-appoint") == [n for n in LIVING if n != "Dario"]
    post_form(mayor, "form-appoint", {"appoint": "Luca"})
    assert flash_of(post_form(mayor, "form-appoint", {"appoint": "Dario"})).replace("&#39;", "'") == (
        "Non registrato: Il successore dev'essere un altro giocatore.")
    assert flash_of(post_form(mayor, "form-elect", {"elect": "Carla"})) == "Non registrato: Carla non è più in vita."
    assert "form-elect" not in forms_of(area(logged_in(app, "Elena")))  # the dead do not elect
    assert recorded(factory) == [("Anna", "elect", {"elect": "Anna"}), ("Anna", "vote", {"vote": "Gino"}),
                                 ("Dario", "appoint", {"appoint": "Luca"})]


def test_exiled_players_have_no_forms_and_are_no_target(app, factory, night):
    from tests.support.forms import edit_open_state as edit

    def exile(state):
        state["data"]["lost"] = ["Lupi"]
        for p in state["players"]:
            if p["name"] == "Anna":
                p["data"]["exiled"] = True
    gid = night
    edit(factory, gid, exile)
    assert not forms_of(area(logged_in(app, "Anna")))
    assert "Anna" not in forms_of(area(logged_in(app, "Dario")))["form-power"].options("power-target")


def test_each_player_sees_what_setup_told_them_and_nothing_more(app, factory, night):
    diviner = area(logged_in(app, "Ida"))
    assert "Le tue quattro proposizioni" in diviner
    with factory() as s:
        props = s.query(Game).one().state["data"]["divinatore"]["Ida"]
    for p in props:
        assert f"{p['player']} ha il ruolo {p['role']}" in diviner
    assert "vera" not in diviner and "falsa" not in diviner  # which two are true is the puzzle
    mason = area(logged_in(app, "Luca"))
    assert "Conosci dall'inizio: Mara (Massone)." in mason.replace("&#39;", "'")
    farmer = area(logged_in(app, "Dario"))
    for secret in ("Massone", "Lupo", "Negromante", "Divinatore", "proposizioni"):
        assert secret not in farmer
    assert "Hai l'attributo mistico." in farmer.replace("&#39;", "'")  # the Veggente is a mystic (§3.7)


def test_the_masters_panels_show_propositions_spectres_and_exiles(app, factory, night):
    def exile(state):
        state["data"]["lost"] = ["Lupi"]
        for p in state["players"]:
            if p["name"] == "Anna":
                p["data"]["exiled"] = True
    edit_open_state(factory, night, exile)
    with app.test_request_context(), factory() as s:
        game = s.get(Game, night)
        login_user(s.query(User).filter_by(email="master@example.org").one())
        html = render_template_string('{% include "partials/ruleset_panels.html" %}',
                                      panels=desk_view.panels(s, game, "it"))
        props = game.state["data"]["divinatore"]["Ida"]
    assert "Proposizioni del Divinatore" in html
    for p in props:
        assert f"{p['player']} ha il ruolo {p['role']} ({'vera' if p['true'] else 'falsa'})" in html
    for name, power in SPECTRES.items():
        assert f"{name}: {power}, dalla notte 1" in html
    assert "Fazioni sconfitte: i Lupi" in html and "In esilio: Anna" in html


def test_the_panels_are_for_the_masters_only(app, factory, night):
    from tests.support.helpers import login
    assert login(app, "ida@players.test", "pw-ida").get("/g/test-game/master").status_code == 403


def test_the_panels_are_worded_in_english_too(app, factory, night):
    with factory() as s:
        game = s.get(Game, night)
        panels = desk_view.panels(s, game, "en")
        props = game.state["data"]["divinatore"]["Ida"]
    lines = [line for panel in panels for line in panel.lines]
    assert [panel.title for panel in panels][:2] == ["Divinatore propositions", "Spettri"]
    for p in props:
        assert any(f"{p['player']} has the role {p['role']} ({'true' if p['true'] else 'false'})" in line
                   for line in lines)


def test_the_desk_page_carries_the_panels_and_the_reserved_area_does_not(app, factory, night):
    from tests.support.helpers import login
    with factory() as s:
        props = s.query(Game).one().state["data"]["divinatore"]["Ida"]
    desk = login(app, "master@example.org", "master").get("/g/test-game/master")
    assert desk.status_code == 200
    html = desk.get_data(as_text=True)
    assert "Proposizioni del Divinatore" in html
    for p in props:
        assert f"{p['player']} ha il ruolo {p['role']} ({'vera' if p['true'] else 'falsa'})" in html
    for name in ("Ida", "Dario"):
        assert "Proposizioni del Divinatore" not in area(logged_in(app, name))
