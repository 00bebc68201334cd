"""Lupus LIVE! 12 from the reserved area (issue 3, "Ways in"): each form offers only
the choices the rulebooks allow, what it sends reaches the engine in the vocabulary
of docs/scenarios.md, and a forbidden choice is refused with the reason.

Expected choices come from the rulebooks (Lupus LIVE! 12ª edizione, Personaggi e poteri), written
out here, never read back from the engine's own forms."""
from __future__ import annotations

import pytest

from tests.support.helpers import make_game
from tests.support.forms import (
    area, edit_open_state, flash_of, forms_of, kill, logged_in, post_form, recorded,
)

# Personaggi §4: every ritual as the rulebook names it.
RITUALS = ["Confusione", "\\end{story}", "Impedimento", "Maledizione", "Meno voto delegato",
           "Meno voto diretto", "Omicidio", "Replay", "Resurrezione", "Spionaggio",
           "Voto delegato", "Voto diretto"]
ON_LIVING = {"Confusione", "Impedimento", "Meno voto delegato", "Meno voto diretto", "Omicidio",
             "Voto delegato", "Voto diretto"}
ON_DEAD = {"Maledizione", "Replay", "Resurrezione"}

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Satanista", "Carla": "Veggente", "Dario": "Profeta",
         "Elena": "Contadino", "Fabio": "Contadino", "Gino": "Contadino", "Ida": "Contadino"}
GHOSTS = ["Elena", "Fabio", "Gino", "Ida"]
LIVING = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture
def ghosts(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Carla")
    edit_open_state(factory, gid, kill(GHOSTS))
    return gid


def test_a_ghosts_ritual_form_has_what_section_1_4_2_lists(app, ghosts):
    form = forms_of(area(logged_in(app, "Elena")))["form-ritual"]
    assert form.options("ritual-ritual") == RITUALS
    # "un elenco di caselle associate ad altri giocatori morti ed all'eventuale Satanista",
    # the Satanista "scelto da un'apposita casella a discesa" of the living (personaggi §2.6)
    boxes = form.boxes("ritual-with")
    assert sorted(boxes) == ["Fabio", "Gino", "Ida"]
    assert form.options("ritual-satanista") == LIVING
    assert "Satanista" not in "".join(form.labels("ritual-satanista").values())  # nobody's role
    assert {"ritual-target", "ritual-n", "ritual-shout", "ritual-notes"} <= form.names()
    # The target list narrows with the ritual (forms.js reads this table).
    import json
    table = json.loads(form.select_attrs["ritual-target"]["data-depends"])
    for ritual in RITUALS:
        expected = (LIVING if ritual in ON_LIVING else GHOSTS if ritual in ON_DEAD
                    else LIVING + GHOSTS if ritual == "Spionaggio" else [])
        assert sorted(table[ritual]) == sorted(expected), ritual
    shown_n = json.loads(form.inputs["ritual-n"]["data-show-when"])["ritual-ritual"]
    assert sorted(shown_n) == sorted(["\\end{story}", "Meno voto delegato", "Meno voto diretto",
                                      "Voto delegato", "Voto diretto"])
    # The living who are not the Satanista get no ritual form.
    assert "form-ritual" not in forms_of(area(logged_in(app, "Carla")))


def test_ritual_with_group_n_target_notes_and_shout_reach_the_engine(app, factory, ghosts):
    client = logged_in(app, "Elena")
    page = post_form(client, "form-ritual", {"ritual": "Voto diretto", "with": ["Fabio", "Gino"],
                                             "target": "Anna", "n": "2", "shout": "Al lupo!",
                                             "notes": "Anna mente"})
    assert "Registrato" in flash_of(page)
    assert recorded(factory) == [
        ("Elena", "ritual", {"ritual": "Voto diretto", "with": ["Fabio", "Gino"], "target": "Anna", "n": 2}),
        ("Elena", "shout", {"shout": "Al lupo!"}),
        ("Elena", "notes", {"notes": "Anna mente"}),
    ]
    assert "Rituale: Voto diretto" in area(client)  # "your choices so far"


def test_a_lone_ghosts_ritual_is_recorded_with_the_participants_it_needs(app, factory, ghosts):
    """Issue 31: a ritual with nobody else was accepted and failed with no reason; it is
    still recorded (the others may join it), and the receipt says it needs 5 (§4.7)."""
    page = post_form(logged_in(app, "Elena"), "form-ritual", {"ritual": "Omicidio", "target": "Anna"})
    assert "Registrato" in flash_of(page)
    assert "richiede 5 partecipanti" in flash_of(page) and "fallirà" in flash_of(page)
    assert recorded(factory)[0][1] == "ritual"


def test_ritual_with_the_satanista_and_a_ritual_without_target(app, factory, ghosts):
    client = logged_in(app, "Fabio")
    post_form(client, "form-ritual", {"ritual": "Omicidio", "with": ["Elena", "Gino"],
                                      "satanista": "Bruno", "target": "Carla"})
    # \end{story} has no target: a target sent anyway is dropped, n is kept.
    post_form(client, "form-ritual", {"ritual": "\\end{story}", "with": ["Elena", "Gino", "Ida"],
                                      "satanista": "Bruno", "n": "1", "target": "Anna"})
    assert recorded(factory, "Fabio") == [
        ("Fabio", "ritual", {"ritual": "Omicidio", "with": ["Elena", "Gino", "Bruno"], "target": "Carla"}),
        ("Fabio", "ritual", {"ritual": "\\end{story}", "with": ["Elena", "Gino", "Ida", "Bruno"],
                             "target": None, "n": 1}),
    ]


def test_naming_a_living_player_who_is_not_the_satanista_tells_nothing(app, factory, ghosts):
    # A refusal would tell the ghost who the Satanista is not; the group fails at dawn instead.
    answers = []
    for ghost, living in (("Fabio", "Bruno"), ("Gino", "Carla")):
        page = post_form(logged_in(app, ghost), "form-ritual",
                         {"ritual": "Omicidio", "with": ["Elena", "Ida"], "satanista": living,
                          "target": "Anna"})
        answers.append(flash_of(page).replace(ghost, "X").replace(living, "Y"))
    assert answers[0] == answers[1] and "Registrato" in answers[0]
    assert [r[2]["with"] for r in recorded(factory)] == [["Elena", "Ida", "Bruno"], ["Elena", "Ida", "Carla"]]


@pytest.mark.parametrize("values, why", [
    ({"ritual": "Omicidio", "with": ["Fabio"], "target": "Gino"},
     "Il bersaglio di Omicidio dev'essere vivo; Gino non lo è."),
    ({"ritual": "Resurrezione", "with": ["Fabio"], "target": "Anna"},
     "Il bersaglio di Resurrezione dev'essere morto; Anna non lo è."),
    ({"ritual": "Omicidio", "with": ["Fabio"]}, "Il rituale Omicidio richiede un bersaglio."),
    ({"ritual": "Voto diretto", "with": ["Fabio"], "target": "Anna", "n": "0"},
     "Il parametro n dev'essere un intero positivo."),
    ({"ritual": "Voto diretto", "with": ["Fabio"], "target": "Anna", "n": "tre"},
     "Il parametro n dev'essere un intero positivo."),
    ({"ritual": "Omicidio", "with": ["Fabio", "Carla", "Dario"], "target": "Anna"},
     "Al rituale può partecipare al più un vivo, il Satanista."),
    ({"ritual": "Rito inventato", "with": ["Fabio"], "target": "Anna"},
     "Non esiste un rituale «Rito inventato»."),
])
def test_a_ritual_the_rules_forbid_is_refused_with_the_reason(app, factory, ghosts, values, why):
    page = post_form(logged_in(app, "Elena"), "form-ritual", values)
    assert flash_of(page).replace("&#39;", "'") == f"Non registrato: {why}"
    assert recorded(factory) == []


def test_the_satanista_ritual_form(app, factory, ghosts):
    client = logged_in(app, "Bruno")
    form = forms_of(area(client))["form-ritual"]
    assert "Satanista" in form.text
    assert sorted(form.boxes("ritual-with")) == GHOSTS  # the dead only, never another Satanista
    assert form.options("ritual-ritual") == RITUALS  # every ritual can reach 3 participants
    post_form(client, "form-ritual", {"ritual": "Omicidio", "with": ["Elena", "Fabio", "Gino"],
                                      "target": "Carla", "shout": "Ahimè"})
    assert recorded(factory) == [
        ("Bruno", "ritual", {"ritual": "Omicidio", "with": ["Elena", "Fabio", "Gino"], "target": "Carla"}),
        ("Bruno", "shout", {"shout": "Ahimè"}),
    ]
    # §2.6: "un rituale di almeno 3 fantasmi": Voto diretto with n=1 has two participants.
    page = post_form(client, "form-ritual", {"ritual": "Voto diretto", "with": ["Elena"],
                                             "target": "Anna", "n": "1"})
    assert "almeno 3 partecipanti" in flash_of(page)
    assert len(recorded(factory)) == 2


def test_the_refusal_is_worded_in_the_players_language(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Carla", langs={"Elena": "en"})
    edit_open_state(factory, gid, kill(GHOSTS))
    page = post_form(logged_in(app, "Elena"), "form-ritual",
                     {"ritual": "Replay", "with": ["Fabio"], "target": "Anna"})
    assert flash_of(page) == "Not recorded: The target of Replay must be dead; Anna is not."
    assert recorded(factory) == []


# --------------------------------------------------------------------------- powers

# Personaggi §1-§2: what each night power aims at ("vivo", "morto", "vivo o morto").
POWER_TARGETS = {
    "Cacciatore": "alive", "Espansivo": "alive", "Guardia del corpo": "alive", "Mago": "alive",
    "Medium": "dead", "Messia": "dead", "Missile": "alive", "Veggente": "alive",
    "Lupo Mannaro": "alive", "Avvocato": "alive", "Fattucchiera": "any+self", "Rasputin": "dead",
    "Sequestratore": "alive", "Usurpatore": "any",
}
EVERY_ROLE = {name.split()[0] + str(i): role for i, (role, name) in
              enumerate((r, r) for r in POWER_TARGETS)}
EVERY_ROLE.update({"Zeta": "Contadino", "Yuri": "Contadino", "Xena": "Contadino"})
DEAD = ["Yuri", "Xena"]


@pytest.fixture
def night_two(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), EVERY_ROLE, mayor="Zeta")

    def change(state):
        kill(DEAD)(state)
        # Night 2: the Lupo Mannaro may kill, the Missile must choose (personaggi §1.9, §2.1).
        state["phase"] = {"kind": "night", "number": 2}
    edit_open_state(factory, gid, change)
    return gid


def expected_targets(me: str, kind: str) -> list[str]:
    living = [n for n in EVERY_ROLE if n not in DEAD]
    pool = {"alive": living, "dead": DEAD, "any": list(EVERY_ROLE), "any+self": list(EVERY_ROLE)}[kind]
    return sorted(n for n in pool if n != me or kind == "any+self")


@pytest.mark.parametrize("role", sorted(POWER_TARGETS))
def test_every_night_power_offers_its_legal_targets_and_reaches_the_engine(app, factory, night_two, role):
    me = next(n for n, r in EVERY_ROLE.items() if r == role)
    client = logged_in(app, me)
    form = forms_of(area(client))["form-power"]
    assert sorted(form.options("power-target")) == expected_targets(me, POWER_TARGETS[role])
    assert {"power-shout", "power-notes"} <= form.names()  # §1.4.2: notes and shout beside the power
    target = sorted(set(expected_targets(me, POWER_TARGETS[role])) - {me})[-1]
    assert "Registrato" in flash_of(post_form(client, "form-power", {"target": target}))
    assert recorded(factory, me) == [(me, "power", {"target": target})]


@pytest.mark.parametrize("role, target, why", [
    ("Veggente", "self", "Non puoi usare il tuo potere su di te."),
    ("Veggente", "Yuri", "Yuri non è più in vita: il bersaglio dev'essere un giocatore vivo."),
    ("Medium", "Zeta", "Zeta è ancora in vita: il bersaglio dev'essere un fantasma."),
    ("Rasputin", "Zeta", "Zeta è ancora in vita: il bersaglio dev'essere un fantasma."),
    ("Sequestratore", "Nessuno", "Non c'è nessun giocatore di nome «Nessuno»."),
])
def test_a_forbidden_power_target_is_refused_with_the_reason(app, factory, night_two, role, target, why):
    me = next(n for n, r in EVERY_ROLE.items() if r == role)
    page = post_form(logged_in(app, me), "form-power", {"target": me if target == "self" else target})
    assert flash_of(page).replace("&#39;", "'") == f"Non registrato: {why}"
    assert recorded(factory) == []


def test_the_lupo_mannaro_has_no_kill_on_the_first_night(app, factory, clock):
    make_game(factory, app.config, clock.now(), {"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                 "Carla": "Contadino"}, mayor="Bruno")
    client = logged_in(app, "Anna")
    assert "form-power" not in forms_of(area(client))
    r = client.post("/g/test-game/act", data={"power-kind": "power", "power-target": "Bruno",
                                             "power-csrf_token": forms_of(area(client))["form-shout"].hidden["shout-csrf_token"]},
                    follow_redirects=True)
    assert "Non registrato" in flash_of(r.get_data(as_text=True))
    assert recorded(factory) == []


def test_the_profetas_question(app, factory, ghosts):
    client = logged_in(app, "Dario")
    forms = forms_of(area(client))
    assert "power" not in "".join(forms)  # no targeted power: a question instead
    post_form(client, "form-question", {"question": "Anna è un Lupo?"})
    post_form(client, "form-shout", {"shout": "Buonanotte", "notes": "chiedo di Anna"})
    assert recorded(factory) == [("Dario", "question", {"question": "Anna è un Lupo?"}),
                                 ("Dario", "shout", {"shout": "Buonanotte"}),
                                 ("Dario", "notes", {"notes": "chiedo di Anna"})]
    page = post_form(client, "form-question", {"question": "   "})
    assert "Non registrato" in flash_of(page)


def test_erede_and_usurpatore_become(app, factory, clock):
    roles = {"Anna": "Erede", "Bruno": "Usurpatore", "Carla": "Contadino", "Dario": "Lupo Mannaro"}
    gid = make_game(factory, app.config, clock.now(), roles, mayor="Carla")
    # Erede: from day ⌊4/4⌋+1 = 2; night 3 is after it.
    edit_open_state(factory, gid, lambda s: s.update(phase={"kind": "night", "number": 3}))
    erede = logged_in(app, "Anna")
    offered = forms_of(area(erede))["form-become"].options("become-become")
    # "un ruolo del Villaggio ad eccezione della Guardia del corpo e dell'Erede"
    assert sorted(offered) == sorted(["Contadino", "Cacciatore", "Espansivo", "Mago", "Mannella",
                                      "Medium", "Messia", "Missile", "Profeta", "Veggente"])
    post_form(erede, "form-become", {"become": "Veggente"})
    page = post_form(erede, "form-become", {"become": "Guardia del corpo"})
    assert "Non registrato: Non puoi diventare Guardia del corpo." in flash_of(page)
    usurpatore = logged_in(app, "Bruno")
    forms = forms_of(area(usurpatore))
    assert sorted(forms["form-become"].options("become-become")) == sorted(
        ["Lupo Mannaro", "Avvocato", "Fattucchiera", "Rasputin", "Sabbino", "Satanista",
         "Sequestratore"])
    post_form(usurpatore, "form-power", {"target": "Anna"})
    post_form(usurpatore, "form-become", {"become": "Rasputin"})
    assert recorded(factory) == [("Anna", "become", {"become": "Veggente"}),
                                 ("Bruno", "power", {"target": "Anna"}),
                                 ("Bruno", "become", {"become": "Rasputin"})]


def test_the_erede_cannot_become_before_her_day(app, factory, clock):
    roles = {"Anna": "Erede", "Bruno": "Contadino", "Carla": "Contadino", "Dario": "Lupo Mannaro"}
    make_game(factory, app.config, clock.now(), roles, mayor="Carla")
    client = logged_in(app, "Anna")
    assert "form-become" not in forms_of(area(client))


def test_the_mayor_appoints_a_vicesindaco_at_night_and_by_day(app, factory, ghosts, clock):
    from datetime import datetime, timezone

    from pbm.worker import Worker
    client = logged_in(app, "Carla")
    form = forms_of(area(client))["form-appoint"]
    assert sorted(form.options("appoint-appoint")) == ["Anna", "Bruno", "Dario"]  # living, not herself
    post_form(client, "form-appoint", {"appoint": "Dario"})
    page = post_form(client, "form-appoint", {"appoint": "Elena"})
    assert "Non registrato: Elena non è più in vita" in flash_of(page)
    assert "form-appoint" not in forms_of(area(logged_in(app, "Dario")))  # only the mayor
    clock.set(datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc))
    Worker(app, clock).boundaries()  # night 1 -> day 1
    post_form(client, "form-appoint", {"appoint": "Anna"})
    assert [a for _, k, a in recorded(factory, "Carla") if k == "appoint"] == [
        {"appoint": "Dario"}, {"appoint": "Anna"}]


def test_the_masters_panels_show_rituals_and_corruption(app, factory, ghosts, clock):
    from datetime import datetime, timezone

    from flask import render_template_string
    from flask_login import login_user

    from pbm.models import Game, User
    from pbm.web import desk_view
    from pbm.worker import Worker
    # Omicidio (five): the Satanista takes the place of two, beside three ghosts (§2.6).
    group = ["Bruno", "Elena", "Fabio", "Gino"]
    for me in group:
        post_form(logged_in(app, me), "form-ritual", {
            "ritual": "Omicidio", "with": [m for m in group if m != me], "target": "Carla"})
    clock.set(datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc))
    Worker(app, clock).boundaries()  # night 1 resolved and published
    with app.test_request_context(), factory() as s:
        game = s.get(Game, ghosts)
        login_user(s.query(User).filter_by(email="master@example.org").one())
        html = render_template_string('{% include "partials/ruleset_panels.html" %}',
                                      panels=desk_view.panels(s, game, "it"))
    assert "Riuscito: Omicidio su Carla da Bruno, Elena, Fabio e Gino" in html
    # The limits in words (§4): the Spionaggio balance by kind of group, \end{story} unspent.
    assert "Spionaggio da gruppi con almeno un paesano 0, da gruppi di soli Lupi 0" in html
    assert "\\end{story}: ancora possibile" in html
    # The Veggente's death draws a corruption with probability 0.05 (personaggi §1.12).
    assert "Morte di Carla (probabilità 0,05): corruzione" in html
    assert "Corruzioni attese 0,05, effettive" in html  # a decimal as Italian writes it (issue 31)


def test_each_player_sees_what_setup_told_them_and_nothing_more(app, clock, factory):
    roles = {"Anna": "Lupo Mannaro", "Bruno": "Satanista", "Carla": "Veggente", "Dario": "Contadino"}
    make_game(factory, app.config, clock.now(), roles, mayor="Carla")
    wolf = area(logged_in(app, "Anna"))
    # "Tutti i giocatori della fazione dei Lupi si conoscono tra di loro."
    assert "Il tuo branco (i Lupi si conoscono tra loro): Bruno." in wolf
    assert "Il tuo ruolo: Lupo Mannaro. Giochi per i Lupi; la tua aura è nera." in wolf
    seer = area(logged_in(app, "Carla"))
    assert "Il tuo ruolo: Veggente" in seer
    for secret in ("branco", "Lupo Mannaro", "Satanista", "Bruno (", "Anna ("):
        assert secret not in seer


def test_the_forms_show_what_was_submitted_and_never_preselect_a_name(app, factory, ghosts):
    carla = logged_in(app, "Carla")
    vote_page = forms_of(area(carla))
    # A night form: nothing submitted yet, so nothing chosen but the blank.
    power = vote_page["form-power"]
    assert power.selected.get("power-target", [""]) == [""]
    post_form(carla, "form-power", {"target": "Anna"})
    assert forms_of(area(carla))["form-power"].selected["power-target"] == ["Anna"]
    # A ghost's ritual comes back as sent, the Satanista in his drop-down.
    elena = logged_in(app, "Elena")
    post_form(elena, "form-ritual", {"ritual": "Omicidio", "with": ["Fabio", "Gino"],
                                     "satanista": "Bruno", "target": "Carla", "notes": "mah"})
    ritual = forms_of(area(elena))["form-ritual"]
    assert ritual.selected["ritual-ritual"] == ["Omicidio"]
    assert sorted(ritual.selected["ritual-with"]) == ["Fabio", "Gino"]
    assert ritual.selected["ritual-satanista"] == ["Bruno"]
    assert ritual.selected["ritual-target"] == ["Carla"]
