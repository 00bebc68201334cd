"""A whole eight-player Lupus Noctis game on the narrator's phone (360 x 740), by taps:
seating (names typed, one selfie), the standard village, the first night's faces, two
days of votes and run-offs, a second night with the page reloaded mid-night, and the
summary at the end. Each information call's answer is on a screen of its own, before the
next call (test_narrator_night.py: large, correctable until dawn, the run-off's tally)."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from pbm.models import ActionRow, Game, GameStatus, PhaseRow

from tests.support.helpers import make_master
from .test_player_votes import login

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


def go(page, selector: str) -> None:
    """Tap something that sends a form, and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def tap_faces(page, *names: str) -> None:
    for name in names:
        page.click(f"label.face:has(input[value='{name}'])")


def confirm(page) -> None:
    go(page, "#tap-form button.confirm")


def call_title(page) -> str:
    return page.locator("#call h1").inner_text()


def vote_round(page, choose) -> None:
    """Every voter the page calls, in seat order, votes for choose(voter); then close."""
    while page.locator("#voter").count():
        voter = page.locator("#voter").get_attribute("data-voter")
        tap_faces(page, choose(voter))
        confirm(page)
    go(page, "#close-form button")


def assert_phone_sized(page) -> None:
    """Nothing wider than the phone; every target a thumb can hit (48 px and more)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for box in [page.locator(sel).first.bounding_box()
                for sel in ("label.face", "#tap-form button.confirm") if page.locator(sel).count()]:
        assert box["height"] >= 48 and box["width"] >= 48, box


def selfie() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (900, 1200), (90, 60, 40)).save(out, "JPEG")
    return out.getvalue()


def test_a_whole_game_at_the_table_by_taps(app, factory, live_server, phone, tmp_path):
    page = phone
    make_master(factory)
    login(page, live_server, "master@example.org", "master")
    page.goto(f"{live_server}/master/new")
    page.fill("input[name=name]", "Serata al bar")
    page.select_option("select[name=ruleset]", "lupus-noctis")
    go(page, "main form button[type=submit]")
    assert page.url.endswith("/g/serata-al-bar/narrator")
    # Dark by default: the screen must not light the narrator's face.
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert sum(int(x) for x in bg[bg.index("(") + 1:-1].split(",")[:3]) < 60, bg

    photo = tmp_path / "selfie.jpg"
    photo.write_bytes(selfie())
    for name in NAMES:
        page.fill("#join input[name=name]", name)
        if name == "Carla":
            assert page.get_attribute("#join input[type=file]", "capture") == "user"
            page.set_input_files("#join input[type=file]", str(photo))
        go(page, "#join button")
    assert page.locator("#circle li .name").all_inner_texts() == NAMES
    assert page.locator("#circle img.pic").count() == 1  # Carla's face
    go(page, "#start-standard button")

    # Night 1: the narrator calls each role but the Contadino and taps who wakes.
    assert_phone_sized(page)
    assert page.locator(".say").first.inner_text().strip() != ""
    confirm_button = page.locator("#tap-form button.confirm")
    tap_faces(page, "Bruno")
    assert confirm_button.is_disabled()  # two Licantropi: one face is not enough
    tap_faces(page, "Anna")
    tap_faces(page, "Anna")  # a mis-tap, undone
    tap_faces(page, "Fabio")
    assert confirm_button.is_enabled()
    confirm(page)
    assert page.locator("label.face:has(input[value='Bruno'])").count() == 0  # already a Licantropo
    tap_faces(page, "Carla")
    confirm(page)
    tap_faces(page, "Gina")
    confirm(page)
    go(page, "#close-form button")  # dawn

    # Day 1: everybody votes Bruno (who votes Ivo); the run-off is Bruno and Ivo.
    assert_phone_sized(page)
    vote_round(page, lambda voter: "Ivo" if voter == "Bruno" else "Bruno")
    announce = page.locator("#announce").inner_text()
    assert "Bruno" in announce and "Ivo" in announce
    voters = []
    while page.locator("#voter").count():
        voter = page.locator("#voter").get_attribute("data-voter")
        voters.append(voter)
        tap_faces(page, "Bruno")
        confirm(page)
    assert voters == ["Anna", "Carla", "Dario", "Elena", "Fabio", "Gina"]  # not the run-off's two
    go(page, "#close-form button")  # the evening: Bruno burned

    # Night 2: the pack (Fabio now) devours Anna; the Veggente looks at Fabio...
    assert "Bruno" in page.locator(".announce").first.inner_text()
    first_call = call_title(page)
    tap_faces(page, "Anna")
    confirm(page)
    second_call = call_title(page)
    assert second_call != first_call
    tap_faces(page, "Fabio")
    confirm(page)
    # The answer, large, for the narrator to signal; the next call only after "Done".
    assert page.locator("#call").count() == 0
    told = page.locator("#told")
    assert "Fabio" in told.inner_text() and "malvagia" in told.inner_text()
    page.reload()  # ...the phone locks; the narrator reopens the page at the same answer
    assert "malvagia" in page.locator("#told").inner_text()
    go(page, "#shown-form button")
    third_call = call_title(page)
    assert third_call not in (first_call, second_call)
    tap_faces(page, "Bruno")  # the Medium looks at the burned Licantropo
    confirm(page)
    assert "Bruno" in page.locator("#told").inner_text()
    go(page, "#shown-form button")
    go(page, "#close-form button")

    # Day 2: Anna died in the night; Fabio goes to the stake and the village wins.
    assert "Anna" in page.locator("#announce").inner_text()
    vote_round(page, lambda voter: "Ivo" if voter == "Fabio" else "Fabio")
    vote_round(page, lambda voter: "Fabio")

    assert page.url.endswith("/g/serata-al-bar/summary")
    assert "Villaggio" in page.locator("#end-line").inner_text()
    rows = page.locator("#roles tr").all_inner_texts()[1:]
    roles = {r.split("\t")[0]: r.split("\t")[1] for r in rows}
    assert roles == {"Anna": "Contadino", "Bruno": "Licantropo", "Carla": "Veggente",
                     "Dario": "Contadino", "Elena": "Contadino", "Fabio": "Licantropo",
                     "Gina": "Medium", "Ivo": "Contadino"}
    assert "Anna → Bruno" in page.locator("#moments").inner_text()
    assert_phone_sized(page)
    with factory() as s:
        game = s.query(Game).one()
        assert game.status == GameStatus.OVER
        night2 = s.query(ActionRow).join(PhaseRow).filter(PhaseRow.kind == "night").count()
        assert night2 == 3  # one tap per call, none twice across the reload
