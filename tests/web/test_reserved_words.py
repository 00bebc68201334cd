"""The reserved area's game words come from the ruleset (issue 24): what a player knows
of themself, whether they play on as a ghost, the forms' titles, labels and help, which
free text gets a box of lines and how long it may be. The words are the rulebook's, as
the page always said them, in Italian and in English; the service names none of them."""
from __future__ import annotations

import logging

from tests.conftest import csrf_from
from tests.support.forms import area, flash_of, forms_of, logged_in
from tests.web.test_forms_lupus_live_12 import ghosts  # noqa: F401  (a fixture: night 1, four ghosts)


def _english(client) -> None:
    client.post("/lang/en", data={"csrf_token": csrf_from(client.get("/").get_data(as_text=True))})


def test_a_ghost_reads_what_they_know_of_themself_and_their_forms_in_the_rulebooks_words(app, ghosts):
    client = logged_in(app, "Elena")  # a dead Contadino
    page = area(client)
    assert "<strong>Ruolo:</strong> Contadino · <strong>Fazione:</strong> Villaggio" in page
    assert "<strong>Aura:</strong>" in page
    assert "Non sei più in vita: giochi da fantasma." in page and "Sei in vita." not in page
    shout = forms_of(page)["form-ritual"]  # the shout and the notes ride along with the ritual
    assert "Urlo notturno" in shout.text and "Anonimo: pubblicato con il prossimo bollettino." in shout.text
    assert shout.inputs["ritual-shout"]["maxlength"] == "280"  # one line
    assert "ritual-notes" in shout.textareas and "Note" in shout.text  # a box of lines
    _english(client)
    page = area(client)
    # Every value in English too (issue 31): the role as its card names it, the aura.
    assert "<strong>Role:</strong> Farmer (Contadino) · <strong>Faction:</strong> Village" in page
    assert "<strong>Aura:</strong> white" in page
    assert "You are dead: you play as a ghost." in page
    shout = forms_of(page)["form-ritual"]
    assert "Night shout" in shout.text and "Anonymous: published with the next bulletin." in shout.text


def test_the_living_read_their_power_and_their_question_in_the_rulebooks_words(app, ghosts):
    carla = area(logged_in(app, "Carla"))  # the Veggente
    assert "Sei in vita." in carla and "giochi da fantasma" not in carla
    assert "Il tuo potere: Veggente" in forms_of(carla)["form-power"].text
    dario = logged_in(app, "Dario")  # the Profeta, who may ask the Masters one question
    question = forms_of(area(dario))["form-question"]
    assert "Domanda ai Master" in question.text and "Domanda per i Master" in question.text
    assert "Una sola domanda Sì/No in tutta la partita; rispondono i Master." in question.text
    assert "question-question" in question.textareas
    _english(dario)
    question = forms_of(area(dario))["form-question"]
    assert "Question to the Masters" in question.text and "Question for the Masters" in question.text


def test_a_refusal_no_catalogue_words_reads_as_a_general_sentence_and_its_code_is_logged(
        app, ghosts, monkeypatch, caplog):
    """No operation raises an unworded code (tests/wording/test_refusals_worded.py), so one is
    made here: the desk's pause is replaced by one that refuses with a new code."""
    from pbm.operations import OperationError, desk

    def refuse(*args, **kwargs):
        raise OperationError("brand_new_refusal", hours=3)

    monkeypatch.setattr(desk, "pause", refuse)
    client = app.test_client()
    login = client.get("/login").get_data(as_text=True)
    client.post("/login", data={"csrf_token": csrf_from(login), "email": "master@example.org",
                                "password": "master"})
    token = csrf_from(client.get("/g/test-game/master").get_data(as_text=True))
    with caplog.at_level(logging.WARNING, logger="pbm.errors"):
        page = client.post("/g/test-game/master/pause", data={"csrf_token": token},
                           follow_redirects=True).get_data(as_text=True)
    assert flash_of(page) == "Questo non si può fare."
    assert "brand_new_refusal" not in page
    assert any("brand_new_refusal" in r.getMessage() for r in caplog.records)
