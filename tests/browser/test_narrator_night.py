"""A Lupus Noctis night on the narrator's phone (360 x 740), in the dark: the Veggente's
answer on a screen of its own, large and in view, before the next call; a mis-tapped
face corrected, and the answer shown again as it now is; axe-core on each screen.

The game up to the second night is played through the same routes by a test client
(tests/web/test_narrator.py's Narrator): only the night is tapped in Chromium."""
from __future__ import annotations

import pytest

from tests.conftest import csrf_from
from tests.support.helpers import login as client_login
from tests.support.helpers import make_master
from tests.web.test_narrator import Narrator, first_night, seat_everyone
from tests.web.test_narrator_night import burn

from .axe import violations
from .test_narrator_game import PHONE, call_title, confirm, go, tap_faces
from .test_player_votes import login


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="it-IT")
    page = context.new_page()
    yield page
    context.close()


def accessible(page, axe_js) -> None:
    found = violations(page, axe_js)
    assert not found, "\n".join(found)


def in_view(page, selector: str) -> bool:
    """Entirely on the screen as it opens, with no scrolling."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_answer_is_large_and_first_and_a_correction_shows_it_again(app, factory, live_server, phone, axe_js):
    make_master(factory)
    client = client_login(app, "master@example.org", "master")
    form = client.get("/master/new").get_data(as_text=True)
    client.post("/master/new", data={"csrf_token": csrf_from(form), "name": "Serata al bar",
                                     "ruleset": "lupus-noctis", "auto_publish": "y"})
    narrator = Narrator(client, "serata-al-bar")
    seat_everyone(narrator)
    first_night(narrator, factory)  # Bruno and Fabio the Licantropi, Carla the Veggente, Gina the Medium
    burn(narrator, factory, "Anna", "Dario")

    page = phone
    login(page, live_server, "master@example.org", "master")
    page.goto(f"{live_server}/g/serata-al-bar/narrator")
    # The stake's vote, counted, folded away at nightfall (no tie to explain): the night first.
    assert page.locator("#tally details.vote-fold").get_attribute("open") is None
    page.click("#tally summary.cue")
    assert "Anna" in page.locator("#tally table").inner_text()
    accessible(page, axe_js)
    pack = call_title(page)
    tap_faces(page, "Dario")
    confirm(page)
    tap_faces(page, "Fabio")  # the Veggente points at a Licantropo
    confirm(page)

    # The answer, and nothing else to do: no next call until "Done".
    assert page.locator("#call").count() == 0 and page.locator("#dawn").count() == 0
    told = page.locator("#told")
    assert "Fabio" in told.inner_text() and "malvagia" in told.inner_text()
    size = float(told.evaluate("e => getComputedStyle(e).fontSize")[:-2])
    weight = int(told.evaluate("e => getComputedStyle(e).fontWeight"))
    assert size >= 28 and weight >= 700, (size, weight)  # large, to read at arm's length in the dark
    assert in_view(page, "#told") and in_view(page, "#shown-form button")
    assert "Fabio" in page.locator("#answer .asked").inner_text()  # what was asked, with the face
    done = page.locator("#shown-form button").bounding_box()
    assert done["height"] >= 48 and page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    accessible(page, axe_js)

    go(page, "#shown-form button")
    medium = call_title(page)
    assert medium not in (pack, "Veggente") and "Veggente, chiudi gli occhi." in page.locator(".say.then").inner_text()

    # Fabio was a mis-tap: the Veggente pointed at Elena. Corrected before the dawn.
    go(page, "#tonight li:has-text('Veggente') a.fix-link")
    assert page.locator("#fix input[value='Fabio']").is_checked()
    accessible(page, axe_js)
    tap_faces(page, "Elena")
    confirm(page)
    told = page.locator("#told")
    assert "Elena" in told.inner_text() and "buona" in told.inner_text() and "Fabio" not in told.inner_text()
    assert "Corretto" in page.locator("#answer").inner_text()
    go(page, "#shown-form button")
    assert call_title(page) == medium

    tap_faces(page, "Anna")  # the Medium looks at the burned Anna
    confirm(page)
    assert "Anna" in page.locator("#told").inner_text()
    go(page, "#shown-form button")
    assert page.locator("#tonight a.fix-link").count() == 3  # every call, until the dawn
    go(page, "#close-form button")
    assert page.locator("#tonight").count() == 0 and page.locator("a.fix-link").count() == 0
    assert "Dario" in page.locator("#announce").inner_text()  # the pack's tap stood
