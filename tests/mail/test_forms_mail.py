"""The same vocabulary by mail (issues 3 and 4, "Ways in"): a reply to the game's mail,
in Italian or in English, reaches the engine as the web form would send it. Each test
delivers a real message into the Maildir, runs the worker's mail pass, and checks the
ActionRow args stored and that the receipt reports no error."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbm.models import ActionRow, InboundRow, OutboxRow, Seat
from pbm.worker import Worker

from tests.support.helpers import make_game
from tests.support.forms import edit_open_state, kill
from tests.support.mail import deliver, message, run_mail

TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)


def mail(app, factory, worker, name: str, body: str, kind: str = "role_letter") -> dict:
    """Reply to the last game mail of this kind (the role letter invites night 1);
    return the inbound row's result: {applied: [...], errors: [...]}."""
    with factory() as s:
        address = s.query(Seat).filter_by(name=name).one().user.email
        sent = (s.query(OutboxRow).filter_by(to_addr=address, kind=kind)
                .order_by(OutboxRow.id.desc()).first())
    deliver(app, message(address, sent.reply_to, body, reply_to_row=sent))
    run_mail(app, worker)
    with factory() as s:
        row = s.query(InboundRow).order_by(InboundRow.id.desc()).first()
        return dict(row.result)


def stored(factory, name: str) -> list[tuple[str, dict]]:
    with factory() as s:
        return [(r.kind, dict(r.args)) for r in s.query(ActionRow).order_by(ActionRow.id)
                if r.seat.name == name and r.source == "mail"]


# --------------------------------------------------------------------------- Lupus LIVE! 12

LIVE_ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Satanista", "Carla": "Veggente", "Dario": "Profeta",
              "Elena": "Contadino", "Fabio": "Contadino", "Gino": "Contadino", "Ida": "Contadino"}


@pytest.fixture
def live(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), LIVE_ROLES, mayor="Carla",
                    langs={"Fabio": "en", "Bruno": "en"})
    edit_open_state(factory, gid, kill(["Elena", "Fabio", "Gino", "Ida"]))
    return Worker(app, clock)


@pytest.mark.parametrize("name, body, expected", [
    ("Elena", "RITUALE Voto diretto 2 CON Fabio, Gino SU Anna",
     {"ritual": "Voto diretto", "with": ["Fabio", "Gino"], "target": "Anna", "n": 2}),
    ("Fabio", "RITUAL Meno voto delegato n=3 WITH Elena and Gino ON Carla",
     {"ritual": "Meno voto delegato", "with": ["Elena", "Gino"], "target": "Carla", "n": 3}),
    ("Gino", "Rituale omicidio con Bruno, Elena, Fabio su Carla",
     {"ritual": "Omicidio", "with": ["Bruno", "Elena", "Fabio"], "target": "Carla"}),
    ("Ida", "RITUALE end story 1 CON Elena, Fabio, Gino, Bruno",
     {"ritual": "\\end{story}", "with": ["Elena", "Fabio", "Gino", "Bruno"], "target": None, "n": 1}),
    ("Elena", "RITUALE Resurrezione CON Fabio, Gino, Ida, Bruno SU Ida",
     {"ritual": "Resurrezione", "with": ["Fabio", "Gino", "Ida", "Bruno"], "target": "Ida"}),
])
def test_a_ghosts_ritual_by_mail(app, factory, live, name, body, expected):
    result = mail(app, factory, live, name, body)
    assert result["errors"] == []
    assert stored(factory, name) == [("ritual", expected)]


@pytest.mark.parametrize("body", [
    "RITUALE Omicidio CON Elena, Fabio, Gino SU Carla",
    "RITUAL Omicidio WITH Elena, Fabio and Gino ON Carla",
])
def test_the_satanistas_ritual_by_mail(app, factory, live, body):
    result = mail(app, factory, live, "Bruno", body + "\nURLO Ahimè")
    assert result["errors"] == []
    assert stored(factory, "Bruno") == [
        ("ritual", {"ritual": "Omicidio", "with": ["Elena", "Fabio", "Gino"], "target": "Carla"}),
        ("shout", {"shout": "Ahimè"})]


def test_a_forbidden_ritual_by_mail_is_refused_with_the_reason(app, factory, live):
    result = mail(app, factory, live, "Elena", "RITUALE Omicidio CON Fabio SU Gino")
    assert stored(factory, "Elena") == []
    assert any("Il bersaglio di Omicidio dev'essere vivo; Gino non lo è." in e for e in result["errors"])


def test_question_vice_and_shout_by_mail(app, factory, live):
    assert mail(app, factory, live, "Dario", "DOMANDA Anna è un Lupo?\nNOTE chiedo di Anna")["errors"] == []
    assert mail(app, factory, live, "Carla", "VICE Dario\nPOTERE Anna")["errors"] == []
    assert stored(factory, "Dario") == [("question", {"question": "Anna è un Lupo?"}),
                                        ("notes", {"notes": "chiedo di Anna"})]
    assert stored(factory, "Carla") == [("appoint", {"appoint": "Dario"}), ("power", {"target": "Anna"})]


def test_become_by_mail(app, factory, clock):
    worker = Worker(app, clock)
    gid = make_game(factory, app.config, clock.now(), {"Anna": "Erede", "Bruno": "Usurpatore",
                                                       "Carla": "Contadino", "Dario": "Lupo Mannaro"},
                    mayor="Carla")
    edit_open_state(factory, gid, lambda s: s.update(phase={"kind": "night", "number": 3}))
    assert mail(app, factory, worker, "Anna", "DIVENTO Veggente")["errors"] == []
    assert mail(app, factory, worker, "Bruno", "POWER Anna\nBECOME Rasputin")["errors"] == []
    assert stored(factory, "Anna") == [("become", {"become": "Veggente"})]
    assert stored(factory, "Bruno") == [("power", {"target": "Anna"}), ("become", {"become": "Rasputin"})]


# --------------------------------------------------------------------------- tempo-reale-7

TR_ROLES = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Contadino", "Dario": "Veggente",
            "Elena": "Contadino", "Fabio": "Contadino", "Gino": "Ipnotista", "Ida": "Divinatore"}
TR_SPECTRES = {"Elena": "Confusione", "Fabio": "Ipnosi"}


@pytest.fixture
def tempo(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), TR_ROLES, mayor="Dario", ruleset="tempo-reale-7",
                    langs={"Fabio": "en"})

    def change(state):
        for p in state["players"]:
            if p["name"] in ("Carla", *TR_SPECTRES):
                p["alive"] = False
            if p["name"] in TR_SPECTRES:
                p.update(role="Spettro", faction="Negromanti")
                p["data"].update(spettro=TR_SPECTRES[p["name"]], spettro_from=1, last_used=None,
                                 used_once=False)
    edit_open_state(factory, gid, change)
    return Worker(app, clock)


@pytest.mark.parametrize("name, body, expected", [
    ("Elena", "POTERE Anna, Dario", {"target": "Anna", "target2": "Dario"}),
    ("Elena", "BERSAGLIO Anna e Carla", {"target": "Anna", "target2": "Carla"}),
    ("Fabio", "POWER Gino and Dario", {"target": "Gino", "target2": "Dario"}),
    ("Bruno", "POTERE Carla SPETTRO Visione", {"target": "Carla", "power": "Visione"}),
    ("Bruno", "POWER Carla SPECTRE Morte", {"target": "Carla", "power": "Morte"}),
    ("Bruno", "POTERE Carla SPETTRO della Morte", {"target": "Carla", "power": "Morte"}),
    ("Bruno", "POWER Carla SPECTRE of Vision", {"target": "Carla", "power": "Visione"}),
])
def test_two_targets_and_the_negromante_by_mail(app, factory, tempo, name, body, expected):
    result = mail(app, factory, tempo, name, body)
    assert result["errors"] == []
    assert stored(factory, name) == [("power", expected)]


def test_a_power_already_given_is_refused_by_mail(app, factory, tempo):
    result = mail(app, factory, tempo, "Bruno", "POTERE Carla SPETTRO Ipnosi")
    assert stored(factory, "Bruno") == []
    assert any("Il potere Ipnosi è già stato assegnato a uno Spettro." in e for e in result["errors"])


def test_election_and_successor_by_mail(app, factory, tempo, clock):
    clock.set(TUESDAY_0930_ROME)
    tempo.boundaries()  # night 1 -> day 1; the results mail invites the day
    assert mail(app, factory, tempo, "Anna", "ELEGGO Gino\nVOTO Ida", kind="phase_results")["errors"] == []
    assert mail(app, factory, tempo, "Ida", "ELECT Anna", kind="phase_results")["errors"] == []
    assert mail(app, factory, tempo, "Dario", "SUCCESSORE Ida", kind="phase_results")["errors"] == []
    assert mail(app, factory, tempo, "Dario", "SUCCESSOR Gino", kind="phase_results")["errors"] == []
    assert stored(factory, "Anna") == [("elect", {"elect": "Gino"}), ("vote", {"vote": "Ida"})]
    assert stored(factory, "Ida") == [("elect", {"elect": "Anna"})]
    assert stored(factory, "Dario") == [("appoint", {"appoint": "Ida"}), ("appoint", {"appoint": "Gino"})]


def test_a_parametric_ritual_without_n_by_mail_as_on_the_web(app, factory, live):
    result = mail(app, factory, live, "Elena", "RITUALE Voto diretto CON Fabio, Gino SU Anna")
    assert result["errors"] == []
    assert stored(factory, "Elena") == [
        ("ritual", {"ritual": "Voto diretto", "with": ["Fabio", "Gino"], "target": "Anna", "n": 2})]
