"""Lupus Noctis at a table with the network cut (issue 35), on a phone (360 x 740):
the narrator's page, opened once online, opens again without a network and goes on
with the engine in Pyodide; a whole first night, the day's vote and run-off and the
second night (with the Veggente's and the Medium's answers) are tapped offline, the
page says it is offline and how many taps wait; back online the taps are sent, and
the server's game hashes as the phone's did, with the seating and the photo intact."""
from __future__ import annotations

import time
from datetime import datetime, timezone

from playwright.sync_api import Error as PlaywrightError
from sqlalchemy import select

from pbm.models import Game, Seat, SeatPhoto, User
from pbm.operations import table, table_sync
from pbm.web import narrator_offline

from tests.support.helpers import make_master
from .test_narrator_game import NAMES, PHONE, go, selfie
from .test_player_votes import login

WOLVES, SEER, MEDIUM = ["Bruno", "Fabio"], "Carla", "Gina"


def wait_until(page, expression: str, timeout: float = 30) -> None:
    """Poll ``expression`` (Playwright's wait_for_function evaluates a string, which the
    page's Content-Security-Policy forbids: the page is tested under its own policy)."""
    deadline = time.monotonic() + timeout
    while not _evaluated(page, expression):
        assert time.monotonic() < deadline, f"still not {expression}"
        page.wait_for_timeout(50)


def _evaluated(page, expression: str):
    """``expression`` on the page, or None while the page is being replaced (Chromium
    reloads a page it opened without a network once the network is back)."""
    try:
        return page.evaluate(expression)
    except PlaywrightError as exc:
        if "context was destroyed" in str(exc) or "navigation" in str(exc):
            return None
        raise


def rendered(page) -> int:
    return int(page.evaluate("document.documentElement.dataset.rendered || '0'"))


def offline_tap(page, selector: str) -> None:
    """A tap on the offline page: the engine answers and the page is laid out again."""
    before = rendered(page)
    page.click(selector)
    wait_until(page, f"Number(document.documentElement.dataset.rendered || 0) > {before}")


def faces(page, *names: str) -> None:
    for name in names:
        page.click(f"label.face:has(input[value='{name}'])")


def confirm(page, *names: str) -> None:
    faces(page, *names)
    offline_tap(page, "#tap-form button.confirm")


def vote_round(page, choose) -> list[str]:
    voters = []
    while page.locator("#voter").count():
        voter = page.locator("#voter").get_attribute("data-voter")
        voters.append(voter)
        confirm(page, choose(voter))
    offline_tap(page, "#close-form button")
    return voters


def seated_and_started(page, live_server, factory, tmp_path) -> None:
    """A Noctis game of eight at the table, one of them with a selfie, its first night open."""
    make_master(factory)
    login(page, live_server, "master@example.org", "master")
    page.goto(f"{live_server}/master/new")
    page.fill("input[name=name]", "Serata in baita")
    page.select_option("select[name=ruleset]", "lupus-noctis")
    go(page, "main form button[type=submit]")
    photo = tmp_path / "selfie.jpg"
    photo.write_bytes(selfie())
    for name in NAMES:
        page.fill("#join input[name=name]", name)
        if name == SEER:
            page.set_input_files("#join input[type=file]", str(photo))
        go(page, "#join button")
    go(page, "#start-standard button")


def test_a_night_and_a_day_without_a_network_then_synchronised(app, factory, live_server, browser, tmp_path):
    with app.app_context():
        assert narrator_offline.offline_ready(), "Pyodide is not in build/pyodide: run `make offline-assets`"
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    seated_and_started(page, live_server, factory, tmp_path)
    narrator_url = page.url
    assert page.locator("link[rel=manifest]").count() == 1
    # Once opened online, everything the page needs offline is kept (Pyodide: once).
    wait_until(page, "document.documentElement.dataset.offlineReady === '1'", 120)
    with factory() as s:
        game = s.scalar(select(Game))
        seating = [(x.name, x.position) for x in s.scalars(select(Seat).order_by(Seat.position))]
        picture = s.scalar(select(SeatPhoto.data))
        first = table_sync.hash_of(s, game)

    context.set_offline(True)
    page.reload()  # the phone locked, the page opened again: no network
    wait_until(page, "Number(document.documentElement.dataset.rendered || 0) >= 1", 120)
    assert page.evaluate("document.documentElement.dataset.offline") == "1"
    status = page.locator("#offline-status")
    assert status.is_visible() and ("Offline" in status.inner_text() or "senza rete" in status.inner_text().lower())
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Night 1: the faces of the Licantropi, the Veggente, the Medium, then the dawn.
    assert page.locator("#call").get_attribute("data-index") == "0"
    carla = page.locator("label.face:has(input[value='Carla']) img.pic")
    assert carla.count() == 1 and carla.evaluate("img => img.complete && img.naturalWidth > 0")
    confirm(page, *WOLVES)
    assert page.locator("label.face:has(input[value='Bruno'])").count() == 0  # a Licantropo already
    confirm(page, SEER)
    confirm(page, MEDIUM)
    offline_tap(page, "#close-form button")

    # The phone locks again: the page reopens offline where it was, the taps still waiting.
    page.reload()
    wait_until(page, "Number(document.documentElement.dataset.rendered || 0) >= 1", 120)
    assert page.evaluate("document.documentElement.dataset.tapsWaiting") == "4"

    # Day 1: everyone votes Bruno (Bruno votes Ivo); the run-off burns Bruno.
    assert page.locator("#narrator").get_attribute("data-step") == "vote"
    vote_round(page, lambda voter: "Ivo" if voter == "Bruno" else "Bruno")
    counts = page.locator("#tally tr").all_inner_texts()
    assert any(row.replace("✓", "").split() == ["Bruno", "7"] for row in counts), counts  # counted offline
    announce = page.locator("#announce").inner_text()
    assert "Bruno" in announce and "Ivo" in announce
    runoff = vote_round(page, lambda voter: "Bruno")
    assert runoff == ["Anna", "Carla", "Dario", "Elena", "Fabio", "Gina"]

    # Night 2: the pack devours Anna; the Veggente looks at Fabio, the Medium at Bruno.
    assert "Bruno" in page.locator("#announce").inner_text()
    confirm(page, "Anna")
    confirm(page, "Fabio")
    told = page.locator("#told").inner_text()
    assert "Fabio" in told and "malvagia" in told
    offline_tap(page, "#answer button.confirm")
    confirm(page, "Bruno")
    assert "Bruno" in page.locator("#told").inner_text()
    offline_tap(page, "#answer button.confirm")
    offline_tap(page, "#close-form button")
    assert "Anna" in page.locator("#announce").inner_text()
    waiting = int(page.evaluate("document.documentElement.dataset.tapsWaiting"))
    assert waiting == 4 + 8 + 1 + 6 + 1 + 5 + 1  # night 1, the vote, the run-off, night 2
    assert str(waiting) in status.inner_text()
    phone_hash = page.evaluate("document.documentElement.dataset.phoneHash")
    with factory() as s:
        assert table_sync.hash_of(s, s.scalar(select(Game))) == first  # nothing reached the server

    # Back online: the taps go, in order; the server's game is the phone's.
    with page.expect_navigation(timeout=60_000):
        context.set_offline(False)
    page.wait_for_load_state()
    assert page.url == narrator_url
    wait_until(page, "document.documentElement.dataset.tapsWaiting === '0'")
    with factory() as s:
        game = s.scalar(select(Game))
        assert table_sync.hash_of(s, game) == phone_hash
        assert [(x.name, x.position) for x in s.scalars(select(Seat).order_by(Seat.position))] == seating
        assert s.scalar(select(SeatPhoto.data)) == picture
    assert page.locator("#narrator").get_attribute("data-step") == "vote"  # day 2, from the server
    assert "Anna" in page.locator("#announce").inner_text()
    assert page.locator("#circle img.pic, img.pic").count() >= 1  # Carla's face, from the server
    context.close()


def test_a_browser_that_cannot_run_pyodide_gets_the_page_as_before(app, factory, live_server, browser, tmp_path):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script("delete globalThis.WebAssembly;")  # no WebAssembly: no Pyodide
    page = context.new_page()
    seated_and_started(page, live_server, factory, tmp_path)
    assert page.evaluate("typeof WebAssembly") == "undefined"
    page.wait_for_timeout(500)
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    assert page.locator("#offline-status").is_hidden()
    faces(page, *WOLVES)
    go(page, "#tap-form button.confirm")  # a form to the server, as before
    assert page.locator("#call").get_attribute("data-index") == "1"
    with factory() as s:
        book = table_sync.book_of(s, s.scalar(select(Game)))
        assert book.gm_input["identify_taps"] == {book.script()[0].role: WOLVES}
    context.close()


def test_a_game_changed_elsewhere_meanwhile_is_said_in_words_and_the_taps_stay(
        app, factory, live_server, browser, tmp_path):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="it-IT")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    seated_and_started(page, live_server, factory, tmp_path)
    wait_until(page, "document.documentElement.dataset.offlineReady === '1'", 120)
    context.set_offline(True)  # the network goes while the page is open: it goes on in place
    wait_until(page, "Number(document.documentElement.dataset.rendered || 0) >= 1", 120)
    confirm(page, *WOLVES)
    confirm(page, SEER)
    # Meanwhile, from another phone with a network, other faces for the first call.
    with factory() as s:
        game = s.scalar(select(Game))
        master = s.scalar(select(User).where(User.email == "master@example.org"))
        table.record_call(s, app.config, game, index=0, taps=["Anna", "Dario"], now=datetime.now(timezone.utc),
                          by=master)
        s.commit()
        changed = table_sync.hash_of(s, game)
    context.set_offline(False)
    wait_until(page, "document.getElementById('sync-conflict') !== null")
    said = page.locator("#sync-conflict").inner_text()
    assert "tocco 1" in said.lower() and "altrove" in said, said
    assert page.evaluate("document.documentElement.dataset.tapsWaiting") == "2"  # nothing dropped
    with factory() as s:
        assert table_sync.hash_of(s, s.scalar(select(Game))) == changed  # nothing applied over it
    page.click("#sync-conflict button")  # the narrator chooses to discard them (confirmed)
    page.wait_for_load_state()
    wait_until(page, "document.documentElement.dataset.tapsWaiting === '0'")
    assert page.locator("#call").get_attribute("data-index") == "1"  # the game as the server has it
    context.close()
