"""A room on a phone (issue 30), in Chromium at 360x740: the unread count in the menu,
the room with its newest post at the bottom and the composer under it, a post sent and
shown escaped, and another player's post appearing without a reload (the page polls
its room while it is seen); nothing wider than the screen, nothing axe-core calls
serious."""
from __future__ import annotations

import pytest

from tests.support.rooms import post_as, posts, start

from .axe import violations


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="it-IT")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def login(page, base, name):
    page.goto(f"{base}/login")
    page.fill("input[name=email]", f"{name.lower()}@players.test")
    page.fill("input[name=password]", f"pw-{name.lower()}")
    page.click("form.stack button[type=submit]")


def test_a_room_on_a_phone_with_new_posts_appearing_without_a_reload(app, factory, clock, live_server, phone,
                                                                      axe_js):
    app.config["ROOM_POLL_SECONDS"] = 0.5  # the page asks often, for the test's sake (10 s in use)
    start(app, factory, clock)
    for n in range(1, 13):
        post_as(app, factory, clock, "Anna", "piazza", f"Messaggio numero {n} di Anna")

    login(phone, live_server, "Carla")
    phone.goto(f"{live_server}/g/test-game/me")
    assert phone.locator("#rooms-link .unread").inner_text() == "12"
    assert "12 nuovi" in phone.locator("#rooms-block").inner_text()
    phone.click("#rooms-link")
    phone.click("#rooms a:has-text('Piazza')")

    last = phone.locator("#posts li.post").last
    assert "Messaggio numero 12 di Anna" in last.inner_text()
    assert last.is_visible() and phone.locator("#body").is_visible()  # opened at the bottom, on the composer
    box = phone.locator("#compose").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert violations(phone, axe_js) == []

    phone.fill("#body", "Io dico <b>Anna</b>, e non scherzo")
    phone.click("#send")
    mine = phone.locator("#posts li.post").last
    assert mine.locator(".text").inner_text() == "Io dico <b>Anna</b>, e non scherzo"  # shown as written
    assert phone.locator("#posts b").count() == 0  # never made into markup

    count = phone.locator("#posts li.post").count()
    post_as(app, factory, clock, "Dario", "piazza", "Dario arriva senza ricaricare")
    phone.wait_for_selector("#posts li.post:has-text('Dario arriva senza ricaricare')", timeout=10_000)
    assert phone.locator("#posts li.post").count() == count + 1
    assert phone.evaluate("performance.getEntriesByType('navigation').length") == 1  # no reload
    assert posts(factory, "piazza")[-2][2] == "Io dico <b>Anna</b>, e non scherzo"

    phone.goto(f"{live_server}/g/test-game/me")
    assert phone.locator("#rooms-link .unread").count() == 0  # read on the page as it came


def test_a_room_closed_now_says_why_on_a_phone(app, factory, clock, live_server, phone):
    start(app, factory, clock, night_silence=True)  # night 1: the piazza is silent
    login(phone, live_server, "Carla")
    phone.goto(f"{live_server}/g/test-game/rooms/piazza")
    assert "Di notte la piazza tace" in phone.locator("#why").inner_text()
    assert phone.locator("#compose").count() == 0
    den = phone.goto(f"{live_server}/g/test-game/rooms/lupi")  # Carla is no Lupo
    assert den is not None and den.status == 403
    assert "Tana dei Lupi" not in phone.content()
