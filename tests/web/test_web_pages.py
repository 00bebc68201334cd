"""The Masters' pages and what each page lets each reader see."""
from __future__ import annotations

from datetime import datetime, timezone

from pbm.db import transaction
from pbm.models import EventRow, Game, OutboxRow
from pbm.worker import Worker

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game, make_master

TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)


def test_master_creates_a_game_adds_players_and_starts_it(app, factory):
    make_master(factory)
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    r = client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Villaggio d'inverno",
                                         "ruleset": "lupus-live-12", "auto_publish": "y"})
    assert r.status_code == 302 and r.location.endswith("/g/villaggio-d-inverno/master")
    desk = client.get("/g/villaggio-d-inverno/master").get_data(as_text=True)
    token = csrf_from(desk)
    for name in ["Anna", "Bruno", "Carla", "Dario"]:
        client.post("/g/villaggio-d-inverno/master/players",
                    data={"csrf_token": token, "name": name, "email": f"{name.lower()}@x.test", "lang": "it"})
    bad = client.post("/g/villaggio-d-inverno/master/players", follow_redirects=True,
                      data={"csrf_token": token, "name": "anna", "email": "other@x.test", "lang": "it"})
    assert "già usato" in bad.get_data(as_text=True)
    wrong = client.post("/g/villaggio-d-inverno/master/start", follow_redirects=True,
                        data={"csrf_token": token, "role-Lupo Mannaro": "1", "role-Contadino": "2"})
    assert "3 ruoli per 4 giocatori" in wrong.get_data(as_text=True)
    client.post("/g/villaggio-d-inverno/master/start",
                data={"csrf_token": token, "role-Lupo Mannaro": "1", "role-Contadino": "2",
                      "role-Veggente": "1", "mayor": ""})
    with factory() as s:
        game = s.query(Game).filter_by(slug="villaggio-d-inverno").one()
        assert game.status == "running"
        assert sorted(game.composition.items()) == [("Contadino", 2), ("Lupo Mannaro", 1), ("Veggente", 1)]
        assert game.state["mayor"] in {"Anna", "Bruno", "Carla", "Dario"}
        welcome = s.query(OutboxRow).filter_by(kind="welcome").all()
        assert sorted(m.to_addr for m in welcome) == ["anna@x.test", "bruno@x.test", "carla@x.test", "dario@x.test"]
        # No password in any mail: a link to choose one (kept in the outbox, it works once).
        assert all("/password-reset/" in m.body and "Password" not in m.body for m in welcome)
        letters = {m.to_addr: m.body for m in s.query(OutboxRow).filter_by(kind="role_letter")}
        for p in game.state["players"]:
            assert f"Il tuo ruolo: {p['role']}" in letters[f"{p['name'].lower()}@x.test"]


def test_nobody_sees_what_the_rules_keep_from_them(app, factory, clock):
    roles = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino"}
    gid = make_game(factory, app.config, clock.now(), roles, mayor="Bruno")
    with transaction(factory) as s:
        from pbm import operations
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name("Carla"), {"target": "Anna"},
                          source="web", now=clock.now())
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()
    with factory() as s:
        answer = s.query(EventRow).filter_by(kind="answer").one()
        assert answer.recipients == ["Carla"] and answer.published

    anonymous = app.test_client().get("/g/test-game/").get_data(as_text=True)
    bruno = login(app, "bruno@players.test", "pw-bruno")
    carla = login(app, "carla@players.test", "pw-carla")
    bruno_area = bruno.get("/g/test-game/me").get_data(as_text=True)
    carla_area = carla.get("/g/test-game/me").get_data(as_text=True)
    for page in (anonymous, bruno_area):
        assert "Lupo Mannaro" not in page and "Veggente" not in page and "aura nera" not in page
    assert "Anna ha l'aura nera." in carla_area.replace("&#39;", "'")
    assert bruno.get("/g/test-game/master").status_code == 403
    master = login(app, "master@example.org", "master")
    desk = master.get("/g/test-game/master").get_data(as_text=True)
    assert "Lupo Mannaro" in desk and "Veggente" in desk


def test_desk_shows_refused_mail_as_it_arrived_and_clears_a_bounce(app, factory, clock):
    import mailbox
    from email.message import EmailMessage

    from pbm.mail.sources import open_source
    from pbm.models import Seat, User
    make_game(factory, app.config, clock.now(), {"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                        "Carla": "Veggente"}, mayor="Bruno")
    with factory() as s:
        carla = s.query(Seat).filter_by(name="Carla").one()
        reply_to = f"lupus+{carla.token}@lupus.localhost"
        s.query(User).filter_by(email="bruno@players.test").one().address_failing = True
        s.commit()
    spoof = EmailMessage()
    spoof["From"] = "mallory@evil.test"
    spoof["To"] = reply_to
    spoof["Subject"] = "Re: partita"
    spoof["Message-ID"] = "<spoof-1@evil.test>"
    spoof.set_content("VOTO Anna")
    mailbox.Maildir(app.config["MAIL_SOURCE"]["path"], create=True).add(bytes(spoof))
    source = open_source(app.config["MAIL_SOURCE"])
    Worker(app, clock).mail_once(source)
    source.close()

    master = login(app, "master@example.org", "master")
    desk = master.get("/g/test-game/master").get_data(as_text=True)
    assert "mallory@evil.test" in desk and "rifiutata" in desk  # the status worded, not its code
    link = desk.split('href="/g/test-game/master/inbound/')[1].split('"')[0]
    raw = master.get(f"/g/test-game/master/inbound/{link}")
    assert raw.mimetype == "text/plain" and b"<spoof-1@evil.test>" in raw.data
    assert login(app, "bruno@players.test", "pw-bruno").get(f"/g/test-game/master/inbound/{link}").status_code == 403

    assert "rimbalza" in desk
    master.post("/g/test-game/master/clear-bounce/Bruno", data={"csrf_token": csrf_from(desk)})
    with factory() as s:
        assert not s.query(User).filter_by(email="bruno@players.test").one().address_failing

