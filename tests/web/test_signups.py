"""Joining a game by its sign-up link, confirming the address by mail; co-Masters."""
from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from pbm import operations
from pbm.operations import signups
from pbm.db import transaction
from pbm.models import Game, GameMaster, MasterLog, OutboxRow, Seat, User

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master

CONFIRM = re.compile(r"https?://\S+(/join/\S+/confirm/\S+)")


def setup_game(app, factory, clock, *, max_players: int = 5, players: tuple[str, ...] = ()) -> str:
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Inverno", ruleset="lupus-live-12", master=master, now=clock.now())
        for name in players:
            operations.add_player(s, app.config, game, name=name,
                                  email=f"{name.lower()}@p.test", now=clock.now(), password="pw-" + name.lower())
        signup = signups.open_signups(s, game, closes_at=clock.now() + timedelta(days=3),
                                      max_players=max_players, by=master, now=clock.now())
        return signup.token


def ask(app, token: str, name: str, email: str, lang: str = "it"):
    client = app.test_client()
    page = client.get(f"/join/{token}").get_data(as_text=True)
    return client.post(f"/join/{token}", data={"csrf_token": csrf_from(page), "name": name, "email": email,
                                                "lang": lang})


def last_mail(factory, to: str) -> OutboxRow:
    with factory() as s:
        return s.scalars(select(OutboxRow).where(OutboxRow.to_addr == to).order_by(OutboxRow.id.desc())).first()


def confirm_path(factory, to: str) -> str:
    match = CONFIRM.search(last_mail(factory, to).body)
    assert match
    return match.group(1)


def take(app, path: str, password: str | None = None, client=None):
    client = client or app.test_client()
    page = client.get(path)
    assert page.status_code == 200, page.location
    data = {"csrf_token": csrf_from(page.get_data(as_text=True))}
    if password is not None:
        data |= {"password": password, "confirm": password}
    return client, client.post(path, data=data)


def seats(factory) -> list[tuple[str, str]]:
    with factory() as s:
        return [(seat.name, seat.user.email) for seat in s.scalars(select(Seat).order_by(Seat.position))]


def test_sign_up_confirm_by_mail_choose_a_password_and_play(app, factory, clock):
    token = setup_game(app, factory, clock)
    r = ask(app, token, "  Zoe  ", "Zoe@Example.org", lang="en")
    assert "Abbiamo mandato una mail a zoe@example.org" in r.get_data(as_text=True)
    assert seats(factory) == []  # nothing until the address is confirmed
    mail = last_mail(factory, "zoe@example.org")
    assert mail.subject.startswith("[Inverno] Confirm your sign-up")
    path = confirm_path(factory, "zoe@example.org")

    client, short = take(app, path, "short")
    assert short.status_code == 200 and seats(factory) == []
    client, r = take(app, path, "zoe's secret")
    assert r.status_code == 302 and r.location.endswith("/g/inverno/")
    assert seats(factory) == [("Zoe", "zoe@example.org")]
    assert client.get("/g/inverno/me").status_code == 200  # logged in, seated
    welcome = last_mail(factory, "zoe@example.org")
    assert welcome.kind == "welcome" and "/password-reset/" not in welcome.body  # she chose it already
    with factory() as s:
        zoe = s.scalar(select(User).where(User.email == "zoe@example.org"))
        assert zoe.lang == "en" and zoe.check_password("zoe's secret")

    _, again = take(app, path, "another secret")  # the link worked once: now the account has a password
    assert again.status_code == 403 and seats(factory) == [("Zoe", "zoe@example.org")]


def test_sign_up_refusals_say_why_and_store_nothing(app, factory, clock):
    token = setup_game(app, factory, clock, max_players=3, players=("Anna", "Bruno"))
    taken = ask(app, token, "anna", "new@example.org").get_data(as_text=True)
    assert "Il nome anna è già usato" in taken
    bad = ask(app, token, "Carla", "not an address").get_data(as_text=True)
    assert "Scrivi un solo indirizzo email" in bad
    assert ask(app, "wrong-token", "Carla", "c@example.org").status_code == 404

    ask(app, token, "Carla", "carla@example.org")
    ask(app, token, "Dario", "dario@example.org")
    take(app, confirm_path(factory, "carla@example.org"), "carla's secret")
    assert len(seats(factory)) == 3
    client, full = take(app, confirm_path(factory, "dario@example.org"), "dario's secret")
    assert "La partita è al completo" in full.get_data(as_text=True)
    assert "al completo" in app.test_client().get(f"/join/{token}").get_data(as_text=True)
    assert len(seats(factory)) == 3


def test_an_address_already_in_the_game_gets_a_mail_not_a_second_seat(app, factory, clock):
    token = setup_game(app, factory, clock, players=("Anna",))
    r = ask(app, token, "Annetta", "anna@p.test")
    assert "Abbiamo mandato una mail a anna@p.test" in r.get_data(as_text=True)
    assert last_mail(factory, "anna@p.test").kind == "signup"
    assert "ha già un posto" in last_mail(factory, "anna@p.test").body
    assert seats(factory) == [("Anna", "anna@p.test")]


def test_an_existing_account_joins_with_its_own_password(app, factory, clock):
    token = setup_game(app, factory, clock)
    with transaction(factory) as s:
        user = User(email="old@example.org", name="Old")
        user.set_password("old secret")
        s.add(user)
    ask(app, token, "Vecchio", "old@example.org")
    path = confirm_path(factory, "old@example.org")
    client = app.test_client()
    page = client.get(path).get_data(as_text=True)
    r = client.post(path, data={"csrf_token": csrf_from(page), "current": "old secret"})
    assert r.status_code == 302 and seats(factory) == [("Vecchio", "old@example.org")]
    with factory() as s:
        assert s.scalar(select(User).where(User.email == "old@example.org")).check_password("old secret")


def test_closing_date_closing_and_a_new_link(app, factory, clock):
    token = setup_game(app, factory, clock)
    ask(app, token, "Zoe", "zoe@example.org")
    path = confirm_path(factory, "zoe@example.org")
    client = login(app, "master@example.org", "master")
    page = client.get("/g/inverno/master/people").get_data(as_text=True)
    assert f"/join/{token}" in page
    client.post("/g/inverno/master/signups/new-link", data={"csrf_token": csrf_from(page)})
    assert app.test_client().get(f"/join/{token}").status_code == 404
    assert app.test_client().get(path).status_code == 404  # a confirmation of the old link too
    with factory() as s:
        new_token = signups.for_game(s, s.scalar(select(Game).where(Game.slug == "inverno"))).token
    assert new_token != token
    clock.advance(days=3)
    assert "chiuse alla data prevista" in app.test_client().get(f"/join/{new_token}").get_data(as_text=True)

    page = client.get("/g/inverno/master/people").get_data(as_text=True)
    past = client.post("/g/inverno/master/signups", follow_redirects=True,
                       data={"csrf_token": csrf_from(page), "closes_at": "2026-11-20T20:00", "max_players": "9"})
    assert "deve essere nel futuro" in past.get_data(as_text=True)
    later = client.post("/g/inverno/master/signups", follow_redirects=True,
                        data={"csrf_token": csrf_from(page), "closes_at": "2026-12-20T20:00", "max_players": "9"})
    assert "aperte" in later.get_data(as_text=True)
    with factory() as s:
        signup = signups.for_game(s, s.scalar(select(Game).where(Game.slug == "inverno")))
        # 20:00 in Rome, where the game's calendar is
        assert (signup.closes_at.hour, signup.max_players) == (19, 9)
    client.post("/g/inverno/master/signups/close", data={"csrf_token": csrf_from(page)})
    assert "sono chiuse" in app.test_client().get(f"/join/{new_token}").get_data(as_text=True)


def test_only_the_games_masters_manage_its_sign_ups(app, factory, clock):
    setup_game(app, factory, clock)
    make_master(factory, email="other@example.org")
    other = login(app, "other@example.org", "master")
    page = other.get("/account").get_data(as_text=True)
    assert other.get("/g/inverno/master/people").status_code == 403
    assert other.post("/g/inverno/master/signups/close", data={"csrf_token": csrf_from(page)}).status_code == 403
    assert other.post("/g/inverno/master/masters", data={"csrf_token": csrf_from(page),
                                                         "email": "x@example.org", "lang": "it"}).status_code == 403


def test_a_master_adds_co_masters(app, factory, clock):
    setup_game(app, factory, clock, players=("Anna",))
    client = login(app, "master@example.org", "master")
    page = client.get("/g/inverno/master/people").get_data(as_text=True)
    r = client.post("/g/inverno/master/masters", follow_redirects=True,
                    data={"csrf_token": csrf_from(page), "email": "Nora@Example.org", "name": "Nora", "lang": "it"})
    assert "Master aggiunta" in r.get_data(as_text=True)
    mail = last_mail(factory, "nora@example.org")
    assert mail.kind == "set_password" and "Master della partita «Inverno»" in mail.body
    path = "/password-reset/" + mail.body.split("/password-reset/", 1)[1].split()[0]
    nora = app.test_client()
    chooser = nora.get(path).get_data(as_text=True)
    nora.post(path, data={"csrf_token": csrf_from(chooser), "password": "nora's secret", "confirm": "nora's secret"})
    assert nora.get("/g/inverno/master").status_code == 200

    player = client.post("/g/inverno/master/masters", follow_redirects=True,
                         data={"csrf_token": csrf_from(page), "email": "anna@p.test", "lang": "it"})
    assert "non può anche giocarci" in player.get_data(as_text=True)
    twice = client.post("/g/inverno/master/masters", follow_redirects=True,
                        data={"csrf_token": csrf_from(page), "email": "nora@example.org", "lang": "it"})
    assert "già Master" in twice.get_data(as_text=True)
    make_master(factory, email="known@example.org")
    client.post("/g/inverno/master/masters", data={"csrf_token": csrf_from(page), "email": "known@example.org",
                                                   "lang": "it"})
    assert last_mail(factory, "known@example.org").kind == "master_added"
    with factory() as s:
        game = s.scalar(select(Game).where(Game.slug == "inverno"))
        masters = sorted(m.user.email for m in s.scalars(select(GameMaster).where(GameMaster.game_id == game.id)))
        assert masters == ["known@example.org", "master@example.org", "nora@example.org"]
        assert s.scalar(select(MasterLog).where(MasterLog.action == "add_master")) is not None
    desk = client.get("/g/inverno/master").get_data(as_text=True)
    assert "ha nominato Master della partita nora@example.org" in desk


def test_the_join_page_says_who_runs_the_game_when_its_phases_end_and_how_long_it_goes(app, factory, clock):
    """Issue 31: the join page said nothing of the schedule, the length or the Master."""
    import html as html_module
    token = setup_game(app, factory, clock)
    page = html_module.unescape(app.test_client().get(f"/join/{token}").get_data(as_text=True))
    about = page.split('id="about"')[1].split("</section>")[0]
    with factory() as s:
        master = s.scalars(select(User).where(User.email == "master@example.org")).one().name
    assert master in about
    assert about.count("<li>") == 3 and "fino al" in about and ("notte" in about or "giorno" in about)
    assert "finché una fazione vince" in about and "/rules" in about


def test_an_invited_player_can_decline_before_the_start(app, factory, clock):
    """Issue 31: invited players could not decline."""
    token = setup_game(app, factory, clock, players=("Anna", "Bruno", "Carla"))
    assert token
    with factory() as s:
        welcome = s.scalars(select(OutboxRow).where(OutboxRow.to_addr == "bruno@p.test",
                                                    OutboxRow.kind == "welcome")).one().body
    assert "puoi lasciare il posto" in welcome
    bruno = login(app, "bruno@p.test", "pw-bruno")
    page = bruno.get("/g/inverno/").get_data(as_text=True)
    assert 'id="decline"' in page
    done = bruno.post("/g/inverno/decline", data={"csrf_token": csrf_from(page)}, follow_redirects=True)
    assert "Hai lasciato la partita" in done.get_data(as_text=True)
    assert [name for name, _ in seats(factory)] == ["Anna", "Carla"]
    desk = login(app, "master@example.org", "master").get("/g/inverno/master").get_data(as_text=True)
    assert "ha lasciato il posto prima dell" in desk
