"""Roles are drawn for the Masters to review before anything is dealt, and the
Divinatore's propositions can be edited before the game starts (tempo-reale-7)."""
from __future__ import annotations

from pbm.db import transaction
from pbm.models import Game, OutboxRow, User
from pbm import operations

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino"]
COMPOSITION = {"Lupo": 2, "Negromante": 1, "Divinatore": 1, "Contadino": 3}


def test_draw_edit_propositions_and_start(app, factory, clock):
    make_master(factory)
    with transaction(factory) as s:
        master = s.query(User).one()
        game = operations.create_game(s, name="Tempo reale", ruleset="tempo-reale-7", master=master,
                                      now=clock.now())
        for name in PLAYERS:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@p.test",
                                  now=clock.now(), password="x")
    client = login(app, "master@example.org", "master")
    desk = client.get("/g/tempo-reale/master").get_data(as_text=True)
    token = csrf_from(desk)
    data = {"csrf_token": token, "mayor": ""}
    data.update({f"role-{role}": str(n) for role, n in COMPOSITION.items()})
    client.post("/g/tempo-reale/master/draw", data=data)
    with factory() as s:
        game = s.query(Game).one()
        assert game.status == "setup" and s.query(OutboxRow).filter_by(kind="role_letter").count() == 0
        seating = dict(game.prepared["seating"])
        (diviner,) = [n for n, r in seating.items() if r == "Divinatore"]
    desk = client.get("/g/tempo-reale/master").get_data(as_text=True)
    assert f"Proposizioni per il Divinatore {diviner}" in desk

    others = [n for n in PLAYERS if n != diviner]
    wrong = {"Contadino": "Lupo", "Lupo": "Contadino", "Negromante": "Contadino"}
    chosen = [(others[0], seating[others[0]]), (others[1], seating[others[1]]),
              (others[2], wrong[seating[others[2]]]), (others[3], wrong[seating[others[3]]])]
    form = {"csrf_token": token}
    for i, (name, role) in enumerate(chosen):
        form[f"prepared|divinatore_propositions|{diviner}|{i}|player"] = name
        form[f"prepared|divinatore_propositions|{diviner}|{i}|role"] = role
    too_true = dict(form, **{f"prepared|divinatore_propositions|{diviner}|2|role": seating[others[2]]})
    r = client.post("/g/tempo-reale/master/setup-options", data=too_true, follow_redirects=True)
    assert "esattamente due vere" in r.get_data(as_text=True)  # the engine's reason, in Italian
    r = client.post("/g/tempo-reale/master/setup-options", data=form, follow_redirects=True)
    assert "Modifiche salvate" in r.get_data(as_text=True)

    client.post("/g/tempo-reale/master/start", data={"csrf_token": token, "mayor": ""})
    with factory() as s:
        game = s.query(Game).one()
        assert game.status == "running" and {p["name"]: p["role"] for p in game.state["players"]} == seating
        props = game.state["data"]["divinatore"][diviner]
        assert [(p["player"], p["role"], p["true"]) for p in props] == [
            (n, r, i < 2) for i, (n, r) in enumerate(chosen)]
        letter = s.query(OutboxRow).filter_by(kind="role_letter", to_addr=f"{diviner.lower()}@p.test").one()
    for name, role in chosen:
        assert name in letter.body and role in letter.body
