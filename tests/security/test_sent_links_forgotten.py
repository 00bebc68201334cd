"""A link that logs its reader in is not kept readable once its mail is sent.

The attack: the outbox keeps each mail's body RAW_MAIL_DAYS, so whoever read the
database (a world-readable file, a backup, a dump) read every set-password,
reset and sign-up confirmation link still in force and took the account. Now
the sender, as it marks such a mail sent, removes the link from the stored body:
the mail went out whole (the link in it works), the stored copy keeps the rest.

Every template that carries a link is driven here through the route that sends
it, and the test fails when a template with a link appears that it does not drive.
"""
from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from pbm import operations
from pbm.mail.outbound import send
from pbm.operations import signups
from pbm.db import transaction
from pbm.models import Game, OutboxRow, User

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game

TEMPLATES = Path(__file__).resolve().parents[2] / "mail_templates"
# The links that log someone in, as the service writes them (pbm.accounts.password_link,
# pbm.operations.signups): the path, then a signed token.
LOGIN_LINK = re.compile(r"https?://\S+/(?:password-reset|join/[^/\s]+/confirm)/[\w.-]{20,}")
# Each template carrying such a link, and how this test makes the service send it.
DRIVEN = {"password_reset", "set_password", "welcome", "substitute_welcome", "signup_confirm"}


def test_every_template_with_a_link_is_driven_here():
    carrying = {folder.name for folder in TEMPLATES.iterdir()
                if any(re.search(r"\{\{\s*\w*link\s*\}\}", f.read_text()) for f in folder.glob("body.*"))}
    assert carrying == DRIVEN


def _send_every_link_mail(app, factory, clock) -> None:
    """Each mail with a link, through the page a person uses."""
    make_game(factory, app.config, clock.now(), {"Anna": "lupo", "Bruno": "veggente", "Carla": "contadino",
                                                  "Dario": "contadino", "Elio": "contadino"})
    with transaction(factory) as s:
        master = s.scalar(select(User).where(User.email == "master@example.org"))
        game = operations.create_game(s, name="Inverno", ruleset="lupus-live-12", master=master, now=clock.now())
        token = signups.open_signups(s, game, closes_at=clock.now() + timedelta(days=3), max_players=9,
                                     by=master, now=clock.now()).token
    master = login(app, "master@example.org", "master")
    desk = master.get("/g/test-game/master").get_data(as_text=True)
    # substitute_welcome, with a set-password link for a new account
    assert master.post("/g/test-game/master/substitute", data={
        "csrf_token": csrf_from(desk), "seat": "Dario", "email": "zoe@new.test", "name": "Zoe", "lang": "it",
        "extend_hours": "0"}).status_code == 302
    # welcome, with a set-password link (a player added without an account)
    desk = master.get("/g/inverno/master").get_data(as_text=True)
    assert master.post("/g/inverno/master/players", data={
        "csrf_token": csrf_from(desk), "name": "Ugo", "email": "ugo@new.test", "lang": "it"}).status_code == 302
    # set_password: a co-Master without an account
    people = master.get("/g/inverno/master/people").get_data(as_text=True)
    assert master.post("/g/inverno/master/masters", data={
        "csrf_token": csrf_from(people), "email": "nora@new.test", "name": "Nora", "lang": "it"}).status_code == 302
    # signup_confirm
    stranger = app.test_client()
    page = stranger.get(f"/join/{token}").get_data(as_text=True)
    assert stranger.post(f"/join/{token}", data={"csrf_token": csrf_from(page), "name": "Vera",
                                                 "email": "vera@new.test", "lang": "it"}).status_code == 200
    # password_reset
    page = stranger.get("/password-reset").get_data(as_text=True)
    assert stranger.post("/password-reset", data={"csrf_token": csrf_from(page),
                                                  "email": "anna@players.test"}).status_code == 200


def test_the_links_leave_the_stored_bodies_when_sent_and_still_work(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    _send_every_link_mail(app, factory, clock)
    with factory() as s:
        queued = {r.to_addr: r.kind for r in s.scalars(select(OutboxRow)) if LOGIN_LINK.search(r.body)}
    assert set(queued) == {"zoe@new.test", "ugo@new.test", "nora@new.test", "vera@new.test", "anna@players.test"}

    sent = send.drain(app, factory, clock.now())
    received = smtp_server.wait_for(sent)
    with factory() as s:
        rows = list(s.scalars(select(OutboxRow)))
    assert {r.status for r in rows} == {"sent"}
    # Stored: no row keeps a link, the rest of each body stays.
    assert [r.to_addr for r in rows if LOGIN_LINK.search(r.body + (r.body_html or ""))] == []
    zoe = next(r for r in rows if r.to_addr == "zoe@new.test" and r.kind == "substitute_welcome")
    assert "Dario" in zoe.body and "link" in zoe.body.lower()

    # Delivered: each mail carried its link whole, and it works.
    links = {}
    for message in received:
        text = message.message.get_body(("plain",)).get_content()
        if match := LOGIN_LINK.search(text):
            links[message.rcpt_tos[0]] = match.group(0)
    assert set(links) == set(queued)
    path = links["anna@players.test"].split("lupus.test", 1)[1]
    assert app.test_client().get(path).status_code == 200
    confirm = links["vera@new.test"].split("lupus.test", 1)[1]
    assert app.test_client().get(confirm).status_code == 200


def test_mail_without_a_link_keeps_its_body(make_app, clock, smtp_server):
    """Only links are taken: results, letters and receipts stay as they were sent."""
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), {"Anna": "lupo", "Bruno": "veggente", "Carla": "contadino",
                                                  "Dario": "contadino", "Elio": "contadino"})
    with factory() as s:
        before = {r.id: (r.body, r.body_html) for r in s.scalars(select(OutboxRow))}
        game = s.scalar(select(Game))
        assert before and game is not None
    send.drain(app, factory, clock.now())
    with factory() as s:
        after = {r.id: (r.body, r.body_html) for r in s.scalars(select(OutboxRow).where(OutboxRow.id.in_(before)))}
    assert after == before


def test_a_link_in_mail_refused_for_good_or_sent_before_is_taken_out_within_the_hour(make_app, clock,
                                                                                       smtp_server):
    """What the sender did not take out (a mail the relay refused for good, a mail sent
    by an older version) goes at the worker's hourly retention job."""
    from pbm import retention
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    _send_every_link_mail(app, factory, clock)
    with transaction(factory) as s:
        for row in s.scalars(select(OutboxRow)):
            row.status = "failed" if row.to_addr == "vera@new.test" else "sent"
    clock.advance(hours=1)
    retention.prune(factory, app.config, clock.now())
    with factory() as s:
        rows = list(s.scalars(select(OutboxRow)))
    assert [r.to_addr for r in rows if LOGIN_LINK.search(r.body)] == []
    assert all(r.pruned_at is None and r.body for r in rows)  # only the links went
