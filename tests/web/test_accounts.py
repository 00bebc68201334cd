"""Accounts: the first Master from the command line, no password in any mail,
set-password and reset links that expire and work once, login throttling,
sessions that end at logout and at a password change, cookies."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from sqlalchemy import func, select

from pbm import cli, operations
from pbm.db import transaction
from pbm.migrate import upgrade
from pbm.models import AuthAttempt, OutboxRow, User

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game, make_master

LINK = re.compile(r"https?://\S+/password-reset/\S+")
ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino"}


def link_in(body: str) -> str:
    match = LINK.search(body)
    assert match, body
    return "/password-reset/" + match.group(0).split("/password-reset/", 1)[1]


def choose(client, path: str, password: str, confirm: str | None = None):
    page = client.get(path)
    if page.status_code != 200:
        return page
    return client.post(path, data={"csrf_token": csrf_from(page.get_data(as_text=True)),
                                   "password": password, "confirm": confirm or password})


def post_login(client, email: str, password: str):
    page = client.get("/login").get_data(as_text=True)
    return client.post("/login", data={"csrf_token": csrf_from(page), "email": email, "password": password})


# 1. The first Master ------------------------------------------------------------

def test_user_create_prints_a_set_password_link_and_never_a_password(tmp_path, monkeypatch, capsys, make_app,
                                                                     clock):
    app = make_app()  # the instance folder and its migrated database
    clock.set(datetime.now(timezone.utc))  # the command runs on the real clock
    monkeypatch.setenv("PBM_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("PBM_DATABASE_URL", app.config["DATABASE_URL"])
    monkeypatch.setenv("PBM_BASE_URL", "http://lupus.test")
    monkeypatch.setenv("PBM_SECRET_KEY", app.config["SECRET_KEY"])
    assert cli.main(["user", "create", "--admin", "Mara@Example.org", "--name", "Mara"]) == 0
    out = capsys.readouterr().out
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        user = s.scalar(select(User).where(User.email == "mara@example.org"))
        assert user.is_admin and user.password_hash == ""
        (mail,) = s.scalars(select(OutboxRow).where(OutboxRow.to_addr == "mara@example.org")).all()
    path = link_in(out)
    assert path == link_in(mail.body)  # the same link, printed and mailed
    assert "password:" not in out.lower().replace("set the password", "")

    client = app.test_client()
    r = choose(client, path, "a long secret")
    assert r.status_code == 302
    assert client.get("/master/new").status_code == 200  # logged in, and an admin
    again = app.test_client().get(path)
    assert again.status_code == 302 and again.location.endswith("/password-reset")
    assert post_login(app.test_client(), "mara@example.org", "a long secret").status_code == 302

    assert cli.main(["user", "create", "not an address"]) == 2


def test_a_fresh_production_database_has_no_account(make_app):
    app = make_app()
    client = app.test_client()
    for path in ("/", "/login", "/password-reset"):
        assert client.get(path).status_code == 200
    assert post_login(client, "master@lupus.localhost", "master").status_code == 200  # refused
    with app.extensions["pbm_sessions"]() as s:
        assert s.scalar(select(func.count()).select_from(User)) == 0


# 2. No password in any mail ----------------------------------------------------

def test_welcome_mail_carries_a_link_that_works_once_and_expires(app, factory, clock):
    master = make_master(factory)
    with transaction(factory) as s:
        game = operations.create_game(s, name="G", ruleset="lupus-live-12", master=s.get(User, master),
                                      now=clock.now())
        for name in ("Anna", "Bruno"):
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@p.test",
                                  now=clock.now())
    with factory() as s:
        mails = {m.to_addr: m.body for m in s.scalars(select(OutboxRow).where(OutboxRow.kind == "welcome"))}
    assert all("Password:" not in body for body in mails.values())
    anna, bruno = link_in(mails["anna@p.test"]), link_in(mails["bruno@p.test"])

    client = app.test_client()
    short = choose(client, anna, "short")
    assert "almeno 8 caratteri" in short.get_data(as_text=True)
    differ = choose(client, anna, "a good password", "another password")
    assert "Le due password sono diverse" in differ.get_data(as_text=True)
    assert choose(client, anna, "a good password").status_code == 302
    assert "già stato usato" in app.test_client().get(anna, follow_redirects=True).get_data(as_text=True)

    clock.advance(days=15)  # the welcome link's 14 days are over
    expired = app.test_client().get(bruno, follow_redirects=True).get_data(as_text=True)
    assert "scaduto" in expired
    with factory() as s:
        assert s.scalar(select(User).where(User.email == "bruno@p.test")).password_hash == ""


def test_a_forged_or_foreign_token_is_refused(app, factory, clock):
    make_master(factory)
    client = app.test_client()
    r = client.get("/password-reset/not-a-token", follow_redirects=True)
    assert "non è valido" in r.get_data(as_text=True)


# Reset by mail ------------------------------------------------------------------

def ask_reset(app, email: str, client=None):
    client = client or app.test_client()
    page = client.get("/password-reset").get_data(as_text=True)
    return client.post("/password-reset", data={"csrf_token": csrf_from(page), "email": email})


def test_reset_answers_the_same_whether_or_not_the_address_exists(app, factory, clock):
    make_master(factory)
    known = ask_reset(app, "master@example.org").get_data(as_text=True)
    unknown = ask_reset(app, "nobody@example.org").get_data(as_text=True)
    strip = lambda html: re.sub(r'value="[^"]*"|[\w.]+@example\.org', "", html)  # noqa: E731
    assert strip(known) == strip(unknown)
    with factory() as s:
        mails = {m.to_addr: m.body for m in s.scalars(select(OutboxRow).where(OutboxRow.kind == "password_reset"))}
    # Issue 29: an anonymous request never makes the service mail an address with no
    # account (before, the unknown one got a note: 20 an hour from every client).
    assert set(mails) == {"master@example.org"}

    path = link_in(mails["master@example.org"])
    clock.advance(hours=1)
    assert choose(app.test_client(), path, "brand new secret").status_code == 302
    assert post_login(app.test_client(), "master@example.org", "master").status_code == 200
    assert post_login(app.test_client(), "master@example.org", "brand new secret").status_code == 302
    assert choose(app.test_client(), path, "yet another one").status_code == 302  # to the request page
    assert post_login(app.test_client(), "master@example.org", "yet another one").status_code == 200


def test_a_reset_link_expires_after_two_hours(app, factory, clock):
    make_master(factory)
    ask_reset(app, "master@example.org")
    with factory() as s:
        body = s.scalar(select(OutboxRow.body).where(OutboxRow.kind == "password_reset"))
    clock.advance(hours=2, minutes=6)  # two hours, and the allowance for clock skew
    assert "scaduto" in app.test_client().get(link_in(body), follow_redirects=True).get_data(as_text=True)


def test_reset_mail_is_capped_per_address_and_per_client(app, factory, clock):
    make_master(factory)
    for _ in range(5):
        assert ask_reset(app, "master@example.org").status_code == 200
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow)) == 3  # the rest silently not sent
    for n in range(15):
        ask_reset(app, f"someone{n}@example.org")
    refused = ask_reset(app, "last@example.org")
    assert refused.status_code == 429 and "Troppe richieste" in refused.get_data(as_text=True)


def test_a_login_checks_one_hash_whether_or_not_the_address_exists(app, factory, monkeypatch):
    import pbm.models
    make_master(factory)
    checks: list[str] = []
    real = pbm.models.check_password_hash
    monkeypatch.setattr(pbm.models, "check_password_hash",
                        lambda stored, pw: checks.append(stored.split("$")[0]) or real(stored, pw))
    post_login(app.test_client(), "master@example.org", "wrong")
    post_login(app.test_client(), "nobody@example.org", "wrong")
    with transaction(factory) as s:  # an account still waiting for its password
        s.add(User(email="new@example.org", name="New"))
    post_login(app.test_client(), "new@example.org", "")
    post_login(app.test_client(), "new@example.org", "x")
    assert checks == ["pbkdf2:sha256:1000"] * 3  # the empty password never reaches a check


# 3. Throttling, sessions, cookies --------------------------------------------------

def test_ten_wrong_passwords_lock_the_account_for_a_while(app, factory, clock):
    make_master(factory)
    for _ in range(9):  # typos, then the right one: they no longer count
        post_login(app.test_client(), "master@example.org", "typo")
    assert post_login(app.test_client(), "master@example.org", "master").status_code == 302
    for _ in range(10):
        assert post_login(app.test_client(), "master@example.org", "guess").status_code == 200
    refused = post_login(app.test_client(), "master@example.org", "master")
    assert refused.status_code == 429
    assert "Troppe password sbagliate" in refused.get_data(as_text=True)
    assert "15 minuti" in refused.get_data(as_text=True)
    english = app.test_client()
    english.post("/lang/en", data={"csrf_token": csrf_from(english.get("/login").get_data(as_text=True))})
    assert "Too many wrong passwords" in post_login(english, "master@example.org", "master").get_data(as_text=True)
    clock.advance(minutes=15, seconds=1)
    assert post_login(app.test_client(), "master@example.org", "master").status_code == 302


def test_thirty_wrong_passwords_from_one_client_stop_that_client(app, factory, clock):
    make_master(factory)
    for n in range(30):
        post_login(app.test_client(), f"guess{n}@example.org", "guess")
    assert post_login(app.test_client(), "master@example.org", "master").status_code == 429
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(AuthAttempt)) == 30


def test_a_reset_lifts_the_lock_of_the_account(app, factory, clock):
    make_master(factory)
    for _ in range(10):
        post_login(app.test_client(), "master@example.org", "guess")
    ask_reset(app, "master@example.org")
    with factory() as s:
        body = s.scalar(select(OutboxRow.body).where(OutboxRow.kind == "password_reset"))
    choose(app.test_client(), link_in(body), "the owner is back")
    assert post_login(app.test_client(), "master@example.org", "the owner is back").status_code == 302


def remember_cookie(client) -> str:
    cookie = client.get_cookie("remember_token")
    assert cookie is not None
    return cookie.value


def with_only_remember(app, value: str):
    other = app.test_client()
    other.set_cookie("remember_token", value, domain="localhost")
    return other


def test_logout_revokes_the_remember_cookie(app, factory):
    make_master(factory)
    client = login(app, "master@example.org", "master")
    stolen = remember_cookie(client)
    assert with_only_remember(app, stolen).get("/account").status_code == 200
    client.post("/logout", data={"csrf_token": csrf_from(client.get("/account").get_data(as_text=True))})
    assert with_only_remember(app, stolen).get("/account").status_code == 302  # to the login page


def test_a_password_change_ends_every_other_session(app, factory):
    make_master(factory)
    elsewhere = login(app, "master@example.org", "master")
    stolen = remember_cookie(elsewhere)
    client = login(app, "master@example.org", "master")
    page = client.get("/account/password").get_data(as_text=True)
    wrong = client.post("/account/password", data={"csrf_token": csrf_from(page), "current": "nope",
                                                   "password": "new password", "confirm": "new password"})
    assert "password attuale è sbagliata" in wrong.get_data(as_text=True)
    r = client.post("/account/password", data={"csrf_token": csrf_from(page), "current": "master",
                                               "password": "new password", "confirm": "new password"})
    assert r.status_code == 302
    assert client.get("/account").status_code == 200  # this session goes on
    assert elsewhere.get("/account").status_code == 302
    assert with_only_remember(app, stolen).get("/account").status_code == 302
    assert post_login(app.test_client(), "master@example.org", "new password").status_code == 302


@pytest.mark.parametrize("base_url, secure", [("http://lupus.test", False), ("https://lupus.example", True)])
def test_cookies_are_samesite_lax_and_secure_over_https(make_app, base_url, secure):
    app = make_app(BASE_URL=base_url)
    make_master(app.extensions["pbm_sessions"])
    client = app.test_client()
    page = client.get("/login")
    r = client.post("/login", data={"csrf_token": csrf_from(page.get_data(as_text=True)),
                                    "email": "master@example.org", "password": "master"})
    cookies = r.headers.getlist("Set-Cookie") + page.headers.getlist("Set-Cookie")
    assert {c.split("=")[0] for c in cookies} >= {"session", "remember_token"}
    for c in cookies:
        assert "SameSite=Lax" in c and "HttpOnly" in c
        assert ("Secure" in c) == secure


def test_account_keeps_language_time_zone_and_reminders(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    client = login(app, "anna@players.test", "pw-anna")
    page = client.get("/account").get_data(as_text=True)
    assert "America/New_York" in page
    r = client.post("/account", data={"csrf_token": csrf_from(page), "lang": "en", "tz": "America/New_York"})
    assert r.status_code == 302
    bad = client.post("/account", data={"csrf_token": csrf_from(page), "lang": "en", "tz": "Mars/Olympus"})
    assert bad.status_code == 200
    with factory() as s:
        anna = s.scalar(select(User).where(User.email == "anna@players.test"))
        assert (anna.lang, anna.tz, anna.reminders) == ("en", "America/New_York", False)


def test_the_migration_removes_passwords_from_welcome_mails_already_sent(database_url):
    from alembic import command
    from sqlalchemy import text

    from pbm.db import make_engine
    from pbm.migrate import alembic_config
    command.upgrade(alembic_config(database_url), "c36f18d6b636")
    engine = make_engine(database_url)
    body = "Ciao Anna,\n\nUtente: anna@p.test\nPassword: Xy7-secret\n\nRiceverai il tuo ruolo"
    kept = "Hello Bruno,\n\nPassword: the one you already use on the site.\n"
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO users (email, name, password_hash, lang, is_admin, reminders, "
                              "address_failing) VALUES ('anna@p.test', 'Anna', 'h', 'it', false, true, false)"))
            for n, (kind, b) in enumerate([("welcome", body), ("welcome", kept), ("receipt", body)]):
                conn.execute(text(
                    "INSERT INTO outbox (created_at, kind, to_addr, from_addr, subject, body, headers, message_id, "
                    "status, attempts, next_attempt_at, last_error) VALUES ('2026-11-20 10:00:00', :kind, 'anna@p.test', 'x', "
                    "'s', :body, '{}', :mid, 'sent', 1, '2026-11-20 10:00:00', '')"),
                    {"kind": kind, "body": b, "mid": f"<{n}@x>"})
        upgrade(database_url)
        with engine.connect() as conn:
            bodies = [r[0] for r in conn.execute(text("SELECT body FROM outbox ORDER BY id"))]
            (token,) = conn.execute(text("SELECT session_token FROM users")).one()
    finally:
        engine.dispose()
    assert "Xy7-secret" not in bodies[0] and "Password: [removed]" in bodies[0]
    assert bodies[1] == kept and bodies[2] == body  # only what a welcome mail carried
    assert len(token) >= 16


def test_mail_shows_times_in_the_readers_time_zone(app, factory, clock):
    from pbm.worker import Worker
    master = make_master(factory)
    with transaction(factory) as s:
        game = operations.create_game(s, name="G", ruleset="lupus-live-12", master=s.get(User, master),
                                      now=clock.now())
        for name in ROLES:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@p.test",
                                  now=clock.now(), password="x" * 8)
        s.scalar(select(User).where(User.email == "anna@p.test")).tz = "America/New_York"
        operations.start_game(s, app.config, game, roles=ROLES, options={"mayor": "Bruno"}, now=clock.now())
    with factory() as s:
        letters = {m.to_addr: m.body for m in s.scalars(select(OutboxRow).where(OutboxRow.kind == "role_letter"))}
    # Night 1 ends at 09:00 in Rome on Tuesday: 03:00 in New York.
    assert "24/11/2026 alle 03:00 (America/New_York)" in letters["anna@p.test"]
    assert "24/11/2026 alle 09:00 (Europe/Rome)" in letters["bruno@p.test"]
    clock.advance(hours=23, minutes=30)
    Worker(app, clock).boundaries()
    with factory() as s:
        results = {m.to_addr: m.body for m in s.scalars(select(OutboxRow).where(OutboxRow.kind == "phase_results"))}
    assert "(America/New_York)" in results["anna@p.test"] and "(Europe/Rome)" not in results["anna@p.test"]
    assert "(Europe/Rome)" in results["bruno@p.test"]


def test_tokens_expire_and_allow_a_little_clock_skew(clock):
    from datetime import timedelta

    from pbm.accounts import tokens
    config = {"SECRET_KEY": "s"}
    token = tokens.make(config, "reset", {"u": 1}, clock.now() + timedelta(minutes=1))  # a clock ahead
    assert tokens.read(config, "reset", token, clock.now()) == {"u": 1}
    with pytest.raises(tokens.TokenError) as exc:
        tokens.read(config, "set", token, clock.now())  # made for another use
    assert exc.value.code == "invalid"
    with pytest.raises(tokens.TokenError) as exc:
        tokens.read({"SECRET_KEY": "other"}, "reset", token, clock.now())
    assert exc.value.code == "invalid"
    with pytest.raises(tokens.TokenError) as exc:
        tokens.read(config, "reset", token, clock.now() + timedelta(hours=2, minutes=7))
    assert exc.value.code == "expired"


def test_behind_a_proxy_each_client_is_throttled_on_its_own(make_app):
    app = make_app(TRUSTED_PROXIES=1)
    make_master(app.extensions["pbm_sessions"])

    def attempt(forwarded_for: str, email: str, password: str):
        client = app.test_client()
        page = client.get("/login", headers={"X-Forwarded-For": forwarded_for}).get_data(as_text=True)
        return client.post("/login", headers={"X-Forwarded-For": forwarded_for},
                           data={"csrf_token": csrf_from(page), "email": email, "password": password})
    for n in range(30):
        attempt("203.0.113.9", f"guess{n}@example.org", "guess")
    assert attempt("203.0.113.9", "master@example.org", "master").status_code == 429
    assert attempt("198.51.100.7", "master@example.org", "master").status_code == 302


def test_the_language_switch_says_it_changes_the_mail_too(app, factory, clock):
    """Issue 31: the menu's switch silently changed the language of the account's mail."""
    from tests.support.helpers import login, make_game
    make_game(factory, app.config, clock.now(), {"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                  "Carla": "Veggente"})
    client = login(app, "anna@players.test", "pw-anna")
    page = client.get("/g/test-game/").get_data(as_text=True)
    from tests.conftest import csrf_from
    to_en = client.post("/lang/en", data={"csrf_token": csrf_from(page)}, follow_redirects=True)
    assert "Pages and your mail are now in English" in to_en.get_data(as_text=True)
    back = client.post("/lang/it", data={"csrf_token": csrf_from(to_en.get_data(as_text=True))},
                       follow_redirects=True)
    assert "ora sono in italiano" in back.get_data(as_text=True)


def test_the_time_zones_offered_are_one_per_region_without_aliases(app, factory, clock):
    """Issue 31: 600 time zones, aliases included ("US/Eastern" beside "America/New_York")."""
    from tests.support.helpers import login, make_game
    make_game(factory, app.config, clock.now(), {"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                  "Carla": "Veggente"})
    page = login(app, "anna@players.test", "pw-anna").get("/account").get_data(as_text=True)
    zones = re.findall(r'<option[^>]*value="([A-Za-z]+/[^"]+)"', page)
    assert "Europe/Rome" in zones and "America/New_York" in zones
    assert "US/Eastern" not in zones and "Europe/Vatican" not in zones
    assert len(zones) < 400


def test_the_account_page_reads_the_tz_database_once_per_process(app, factory, clock, monkeypatch):
    """CI's busy-service run: four first account pages took 15 s each (60 s on the CI
    machine, and the clients timed out), for ``available_timezones`` walks the tz
    database's 600 files at every call and was asked once per zone listed. Now the
    first page of a process walks it once and every page after it not at all, the
    kept zone of an account (an alias chosen before issue 31) included."""
    from pbm.web import account_forms
    from tests.support.helpers import login, make_game
    make_game(factory, app.config, clock.now(), {"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                  "Carla": "Veggente"})
    with transaction(factory) as s:
        s.scalar(select(User).where(User.email == "anna@players.test")).tz = "Europe/Vatican"
    walks = []
    real = account_forms.available_timezones
    monkeypatch.setattr(account_forms, "available_timezones", lambda: walks.append(1) or real())
    account_forms.known_zones.cache_clear()
    account_forms.time_zones.cache_clear()
    client = login(app, "anna@players.test", "pw-anna")
    pages = [client.get("/account").get_data(as_text=True) for _ in range(3)]
    assert all('value="Europe/Vatican" selected' in page or 'selected value="Europe/Vatican"' in page
               for page in pages), pages[0][:2000]
    assert len(walks) == 1
