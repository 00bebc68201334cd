"""Joining a game and resetting a password on a phone, with the mail read from
the local mailbox the embedded SMTP server writes (as on `make run`)."""
from __future__ import annotations

import email
import email.policy
import mailbox
import re

import pytest

from pbm.mail import smtpd
from pbm.worker import Worker

from ..fixtures.smtp import free_port
from tests.support.helpers import make_game, make_master

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente"}


@pytest.fixture
def app(make_app):
    """The app with the embedded SMTP server: what the worker sends lands in LOCAL_MAILBOX."""
    port = free_port()
    app = make_app(MAIL_PORT=port, EMBEDDED_SMTP_PORT=port)
    controller = smtpd.start(app.config)
    yield app
    controller.stop()


def mail_to(app, clock, address: str, subject_has: str) -> str:
    """Send what is queued, then the newest message to this address, as its reader sees it."""
    Worker(app, clock).outbox()
    box = mailbox.Maildir(app.config["LOCAL_MAILBOX"], create=False)
    found = []
    for key in box.keys():
        with box.get_file(key) as f:
            message = email.message_from_binary_file(f, policy=email.policy.default)
        if message["To"] == address and subject_has in str(message["Subject"]):
            found.append(message)
    assert found, f"no mail to {address} about {subject_has!r}"
    return found[-1].get_body(("plain",)).get_content()


def link(body: str, path: str) -> str:
    match = re.search(rf"https?://\S+({re.escape(path)}\S+)", body)
    assert match, body
    return match.group(1)


@pytest.fixture
def phone(browser):
    """A phone set to Italian (what an anonymous visitor's language comes from)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
    yield context.new_page()
    context.close()


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_sign_up_on_a_phone_confirmed_from_the_mailbox(app, factory, clock, live_server, phone, browser):
    page = phone
    make_master(factory)
    master = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT").new_page()
    master.goto(f"{live_server}/login")
    master.fill("input[name=email]", "master@example.org")
    master.fill("input[name=password]", "master")
    master.click("#login button[type=submit]")
    master.goto(f"{live_server}/master/new")
    master.fill("input[name=name]", "Villaggio")
    master.click("form.stack button[type=submit]")
    master.click("#people-link")
    master.fill("input[name=closes_at]", "2026-11-30T20:00")
    master.fill("input[name=max_players]", "8")
    master.click("#open-signups button[type=submit]")
    assert "Le iscrizioni sono aperte" in master.locator(".flash.receipt").inner_text()
    assert fits_the_phone(master)
    join_url = master.locator("#signup-link").get_attribute("href")
    master.context.close()

    page.goto(join_url.replace("http://lupus.test", live_server))
    assert "Posti occupati: 0 su 8" in page.content()
    page.fill("#join input[name=name]", "Zoe")
    page.fill("#join input[name=email]", "zoe@example.org")
    page.click("#join button[type=submit]")
    assert "Abbiamo mandato una mail a zoe@example.org" in page.locator("#join-sent").inner_text()
    assert fits_the_phone(page)

    body = mail_to(app, clock, "zoe@example.org", "Conferma l'iscrizione")
    page.goto(live_server + link(body, "/join/"))
    assert "Giocherai come Zoe" in page.content()
    page.fill("#take-seat input[name=password]", "la mia password")
    page.fill("#take-seat input[name=confirm]", "la mia password")
    page.click("#take-seat button[type=submit]")
    assert "Ci sei: giochi come Zoe in Villaggio" in page.locator(".flash.receipt").inner_text()
    assert page.locator("text=La tua area riservata").count() == 1
    assert fits_the_phone(page)

    welcome = mail_to(app, clock, "zoe@example.org", "benvenuto")
    assert "la mia password" not in welcome and "/password-reset/" not in welcome


def test_password_reset_on_a_phone_from_the_mailbox(app, factory, clock, live_server, phone):
    page = phone
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    page.goto(f"{live_server}/login")
    page.click("text=Password dimenticata?")
    page.fill("#password-reset input[name=email]", "carla@players.test")
    page.click("#password-reset button[type=submit]")
    assert "Se un account ha l'indirizzo carla@players.test, gli abbiamo mandato un link" in page.locator("#reset-sent").inner_text()
    assert fits_the_phone(page)

    body = mail_to(app, clock, "carla@players.test", "reimposta la password")
    page.goto(live_server + link(body, "/password-reset/"))
    page.fill("#choose-password input[name=password]", "una nuova password")
    page.fill("#choose-password input[name=confirm]", "una nuova pasword")
    page.click("#choose-password button[type=submit]")
    assert "Le due password sono diverse" in page.locator(".flash.error").inner_text()
    page.fill("#choose-password input[name=password]", "una nuova password")
    page.fill("#choose-password input[name=confirm]", "una nuova password")
    page.click("#choose-password button[type=submit]")
    assert "Password salvata" in page.locator(".flash.receipt").inner_text()
    page.click("header button:has-text('Esci')")

    page.goto(f"{live_server}/login")
    page.fill("input[name=email]", "carla@players.test")
    page.fill("input[name=password]", "pw-carla")
    page.click("#login button[type=submit]")
    assert "Email o password errate" in page.locator(".flash.error").inner_text()
    page.fill("input[name=email]", "carla@players.test")
    page.fill("input[name=password]", "una nuova password")
    page.click("#login button[type=submit]")
    page.goto(f"{live_server}/g/test-game/me")
    assert "Carla" in page.content() and "/login" not in page.url

    page.goto(live_server + link(body, "/password-reset/"))  # the link worked once
    assert "già stato usato" in page.locator(".flash.error").inner_text()
