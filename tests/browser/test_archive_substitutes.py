"""Substitutes, absences and the archive in a real browser, on a phone (360×740) and a
desktop, with axe-core run on every page they touch and on the main pages."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pbm.db import transaction

from tests.support.play import played_a_day
from .axe import violations


def login(page, base, email, password):
    page.goto(f"{base}/login")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    assert "/login" not in page.url, page.content()


def logout(page):
    page.context.clear_cookies()


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def accessible(page, axe_js) -> None:
    found = violations(page, axe_js)
    assert not found, f"{page.url}:\n" + "\n".join(found)


def test_substitution_mid_game(app, clock, live_server, sized_page, axe_js):
    """Vera volunteers from the game's page; the Master hands her Anna's seat; Anna is
    locked out at once and Vera reads the seat's role and history."""
    page = sized_page
    slug = played_a_day(app, clock)  # night 2 open; Carla (Veggente) burned on day 1
    base = live_server
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        from pbm import operations
        vera, _ = operations.ensure_user(s, email="vera@vol.test", name="Vera")
        vera.set_password("pw-vera")
    login(page, base, "vera@vol.test", "pw-vera")
    page.goto(f"{base}/g/{slug}/")
    page.click("#volunteer")
    assert "elenco dei sostituti" in page.locator(".flash.receipt").inner_text()
    accessible(page, axe_js)
    logout(page)

    login(page, base, "master@example.org", "master")
    page.goto(f"{base}/g/{slug}/master")
    accessible(page, axe_js)
    assert fits(page)
    form = page.locator("#substitute-form")
    form.locator("select[name=seat]").select_option("Anna")
    form.locator("select[name=volunteer]").select_option("vera@vol.test")
    form.locator("input[name=announced_as]").fill("Vera")
    form.locator("input[name=extend_hours]").fill("2")
    form.locator("button[type=submit]").click()  # confirmed (the page's dialog is accepted)
    assert "Anna" in page.locator(".flash.receipt").inner_text()
    assert "Vera (dalla fase 3)" in page.locator("#substitutes").inner_text()
    logout(page)

    # The old player is locked out at once.
    login(page, base, "anna@players.test", "pw-anna")
    response = page.goto(f"{base}/g/{slug}/me")
    assert response.status == 403
    logout(page)

    # The newcomer sees the seat's role and history.
    login(page, base, "vera@vol.test", "pw-vera")
    page.goto(f"{base}/g/{slug}/me")
    text = page.locator("main").inner_text()
    assert "Lupo Mannaro" in text and "Bruno" in text  # the role and the pack
    accessible(page, axe_js)
    assert fits(page)
    page.goto(f"{base}/g/{slug}/")
    assert page.locator("#volunteer").count() == 0  # she plays now: no button


def test_absence_is_seen_on_the_desk(app, clock, live_server, sized_page, axe_js):
    page = sized_page
    slug = played_a_day(app, clock)
    login(page, live_server, "dario@players.test", "pw-dario")
    page.goto(f"{live_server}/g/{slug}/me")
    accessible(page, axe_js)
    form = page.locator("#absence-form")
    form.locator("input[name=first_day]").fill("2026-11-26")
    form.locator("input[name=last_day]").fill("2026-11-29")
    form.locator("textarea[name=note]").fill("In montagna")
    form.locator("button[type=submit]").click()
    assert "Assenza registrata" in page.locator(".flash.receipt").inner_text()
    assert "In montagna" in page.locator("#absences").inner_text()
    accessible(page, axe_js)  # with the absence listed and its withdraw button
    assert fits(page)
    logout(page)
    login(page, live_server, "master@example.org", "master")
    page.goto(f"{live_server}/g/{slug}/master")
    desk = page.locator("#absences-desk").inner_text()
    assert "Dario" in desk and "giovedì 26 novembre 2026" in desk and "In montagna" in desk
    accessible(page, axe_js)


def test_archive_and_the_vote_picture(app, clock, live_server, sized_page, axe_js):
    page = sized_page
    slug = played_a_day(app, clock)
    page.goto(f"{live_server}/g/{slug}/")
    accessible(page, axe_js)
    page.click("a:has-text('Archivio')")
    accessible(page, axe_js)
    page.click(f"a[href='/g/{slug}/phases/2']")
    img = page.locator(".votes-picture img")
    expect(img).to_be_visible()
    # The element comes with the page, its picture (votes.svg) after it: wait until the
    # browser has it decoded (it fails after the timeout if it never loads).
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
    # The picture fits the screen; the same facts are in the tables beside it.
    box = img.bounding_box()
    assert box["width"] <= page.viewport_size["width"]
    counts = page.locator("table.counts").inner_text()
    assert "Carla" in counts and "3" in counts
    assert "Elena" in page.locator("table.who-voted").inner_text()
    accessible(page, axe_js)
    assert fits(page)


@pytest.mark.parametrize("who", ["public", "player", "master"])
def test_main_pages_have_no_serious_violation(app, clock, live_server, sized_page, axe_js, who):
    page = sized_page
    slug = played_a_day(app, clock)
    page.goto(f"{live_server}/login")
    accessible(page, axe_js)
    paths = [f"/g/{slug}/", f"/g/{slug}/phases/", f"/g/{slug}/phases/1", f"/g/{slug}/phases/2", "/"]
    if who == "public":
        paths += ["/password-reset"]
    if who == "player":
        login(page, live_server, "dario@players.test", "pw-dario")
        paths += [f"/g/{slug}/me", "/account", "/account/password"]
    if who == "master":
        login(page, live_server, "master@example.org", "master")
        paths += [f"/g/{slug}/master", f"/g/{slug}/reveal", f"/g/{slug}/master/as/Anna",
                  f"/g/{slug}/master/people", "/master/new", "/master/mailbox"]
    for path in paths:
        response = page.goto(f"{live_server}{path}")
        assert response.status == 200, path
        accessible(page, axe_js)


def test_the_checker_itself_finds_a_serious_violation(page, axe_js):
    """The checks above can fail: an image without a text alternative is critical."""
    page.set_content('<!doctype html><html lang="it"><title>t</title><main><img src="x.png"></main></html>')
    assert any(v.startswith("image-alt") for v in violations(page, axe_js))
