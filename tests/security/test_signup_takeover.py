"""Issue 23, item 1: no account takeover through sign-ups on the embedded set-up.

The attack, as the reviewer's script played it: Mallory, a Master of her own
game, opens sign-ups; a visitor asks for a seat with the demo Master's address;
the confirmation mail, filed under Mallory's game, showed in her
``/master/mailbox``; opening its link logged the visitor in as that Master,
asking no password. The variant: an admin's unused set-password link showed in
her mailbox once she seated that address in her game.

Mail goes through the real embedded SMTP server into the local mailbox the page
reads, as on the demo.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from pbm import accounts, operations
from pbm.mail import smtpd
from pbm.operations import signups
from pbm.db import transaction
from pbm.models import Game, OutboxRow, Seat
from pbm.worker import Worker
from tests.conftest import csrf_from
from tests.fixtures.smtp import free_port
from tests.support.helpers import login

VICTIM, MALLORY = "master@lupus.localhost", "mallory@example.org"
LINK = re.compile(r"https?://\S+?(/(?:join/\S+/confirm|password-reset)/\S+)")


@pytest.fixture
def demo(make_app, clock):
    """The embedded set-up: the victim is a Master (and admin) with a password;
    Mallory is a Master of her own game, in set-up, sign-ups open."""
    port = free_port()
    app = make_app(MAIL_PORT=port, EMBEDDED_SMTP_PORT=port)
    controller = smtpd.start(app.config)
    try:
        factory = app.extensions["pbm_sessions"]
        with transaction(factory) as s:
            victim, _ = accounts.create_user(s, email=VICTIM, name="Master", lang="it")
            victim.is_admin = True
            victim.set_password("victim-secret")
            mallory, _ = accounts.create_user(s, email=MALLORY, name="Mallory", lang="it")
            mallory.is_admin = True
            mallory.set_password("mallory-secret")
            operations.create_game(s, name="Demo", ruleset="lupus-live-12", master=victim, now=clock.now())
            game = operations.create_game(s, name="Trappola", ruleset="lupus-live-12", master=mallory,
                                          now=clock.now())
            token = signups.open_signups(s, game, closes_at=clock.now() + timedelta(days=3),
                                         max_players=10, by=mallory, now=clock.now()).token
        yield app, factory, Worker(app, clock), token
    finally:
        controller.stop()


def _ask_seat(app, token: str, email: str) -> None:
    visitor = app.test_client()
    page = visitor.get(f"/join/{token}").get_data(as_text=True)
    r = visitor.post(f"/join/{token}", data={"csrf_token": csrf_from(page), "name": "Intruso",
                                              "email": email, "lang": "it"})
    assert r.status_code == 200


def _links_in_mallorys_mailbox(app) -> list[str]:
    page = login(app, MALLORY, "mallory-secret").get("/master/mailbox")
    assert page.status_code == 200
    return LINK.findall(page.get_data(as_text=True))


def _confirm_link(factory) -> str:
    """What the attacker would have read: the link in the mail to the victim."""
    with factory() as s:
        body = s.scalars(select(OutboxRow.body).where(OutboxRow.to_addr == VICTIM,
                                                      OutboxRow.kind == "signup")).one()
    return LINK.search(body).group(1)


def test_a_signup_confirmation_never_shows_in_a_masters_mailbox(demo):
    app, factory, worker, token = demo
    _ask_seat(app, token, VICTIM)
    worker.outbox()
    with factory() as s:  # the mail was sent, into the local mailbox the page reads
        assert s.scalar(select(OutboxRow.status).where(OutboxRow.to_addr == VICTIM)) == "sent"
    assert _links_in_mallorys_mailbox(app) == []
    # The addressee, a Master too, does read their own mail there.
    own = login(app, VICTIM, "victim-secret").get("/master/mailbox").get_data(as_text=True)
    assert LINK.search(own)


def test_the_confirmation_link_alone_does_not_log_in_to_an_existing_account(demo):
    app, factory, worker, token = demo
    _ask_seat(app, token, VICTIM)
    path = _confirm_link(factory)
    visitor = app.test_client()
    page = visitor.get(path)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'name="current"' in html  # the account's password is asked for
    r = visitor.post(path, data={"csrf_token": csrf_from(html)})
    assert r.status_code == 403
    r = visitor.post(path, data={"csrf_token": csrf_from(html), "current": "a guess"})
    assert r.status_code == 403
    assert "Password errata" in r.get_data(as_text=True)
    assert visitor.get("/account/password").status_code == 302  # to the login page: not logged in
    with factory() as s:
        assert s.scalars(select(Seat)).all() == []


def test_the_owner_takes_the_seat_with_their_password_or_logged_in(demo):
    app, factory, worker, token = demo
    _ask_seat(app, token, VICTIM)
    path = _confirm_link(factory)
    owner = app.test_client()
    html = owner.get(path).get_data(as_text=True)
    r = owner.post(path, data={"csrf_token": csrf_from(html), "current": "victim-secret"})
    assert r.status_code == 302
    with factory() as s:
        assert [seat.user.email for seat in s.scalars(select(Seat))] == [VICTIM]


def test_logged_in_as_the_account_no_password_is_asked(demo):
    app, factory, worker, token = demo
    _ask_seat(app, token, VICTIM)
    path = _confirm_link(factory)
    owner = login(app, VICTIM, "victim-secret")
    html = owner.get(path).get_data(as_text=True)
    assert 'name="current"' not in html
    assert owner.post(path, data={"csrf_token": csrf_from(html)}).status_code == 302
    with factory() as s:
        assert [seat.user.email for seat in s.scalars(select(Seat))] == [VICTIM]


def test_wrong_passwords_at_the_confirmation_are_throttled_like_logins(demo):
    app, factory, worker, token = demo
    _ask_seat(app, token, VICTIM)
    path = _confirm_link(factory)
    guesser = app.test_client()
    html = guesser.get(path).get_data(as_text=True)
    for _ in range(accounts.THROTTLE_DEFAULTS["LOGIN_FAILURES_PER_ACCOUNT"]):
        guesser.post(path, data={"csrf_token": csrf_from(html), "current": "guess"})
    r = guesser.post(path, data={"csrf_token": csrf_from(html), "current": "victim-secret"})
    assert r.status_code == 403  # even the right one, once the throttle is on
    with factory() as s:
        assert s.scalars(select(Seat)).all() == []


def test_an_unused_set_password_link_never_shows_in_a_masters_mailbox(demo, clock):
    """The variant: an admin made by `pbm user create --admin`, who has not yet
    chosen a password, seated by Mallory in her game."""
    app, factory, worker, _ = demo
    with transaction(factory) as s:
        admin, _ = accounts.create_user(s, email="admin@example.org", name="Admin", lang="it")
        admin.is_admin = True
        accounts.send_set_password(s, app.config, admin, clock.now())
        game = s.scalars(select(Game).where(Game.name == "Trappola")).one()
        operations.add_player(s, app.config, game, name="Admin", email="admin@example.org", now=clock.now())
    worker.outbox()
    with factory() as s:
        welcome = s.scalars(select(OutboxRow).where(OutboxRow.kind == "welcome")).one()
        # It did carry one (which left the stored body as it was sent: test_sent_links_forgotten).
        assert welcome.status == "sent" and welcome.login_link
    assert _links_in_mallorys_mailbox(app) == []
    # Nor can she answer it from the page as its addressee.
    mallory = login(app, MALLORY, "mallory-secret")
    assert "admin@example.org" not in mallory.get("/master/mailbox").get_data(as_text=True)


def test_every_mail_carrying_a_login_link_is_marked(demo, clock):
    """Whatever queues it, a mail with a set-password, reset or confirmation link
    is marked, and nothing else is (the page's filter rests on the mark)."""
    app, factory, worker, token = demo
    _ask_seat(app, token, "new.player@example.org")
    with transaction(factory) as s:
        accounts.request_reset(s, app.config, VICTIM, "127.0.0.1", clock.now(), "it")
        game = s.scalars(select(Game).where(Game.name == "Trappola")).one()
        operations.add_player(s, app.config, game, name="Nuovo", email="nuovo@example.org", now=clock.now())
        operations.add_player(s, app.config, game, name="Vecchio", email=MALLORY.replace("mallory", "old"),
                              now=clock.now(), password="old-secret")
    with factory() as s:
        rows = s.scalars(select(OutboxRow)).all()
        assert rows
        for row in rows:
            assert row.login_link == bool(LINK.search(row.body)), (row.kind, row.to_addr)
        assert {r.kind for r in rows if r.login_link} >= {"signup", "password_reset", "welcome"}
        assert any(r.kind == "welcome" and not r.login_link for r in rows)
