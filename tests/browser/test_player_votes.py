"""A player on a phone logs in, votes, and sees the receipt; the choice can be
changed but not withdrawn, and nothing of the others' secrets shows. The page's
script sends a choice without leaving the page (the answer in place: issue 33); a
reload never sends it again."""
from __future__ import annotations

from datetime import datetime, timezone

from playwright.sync_api import expect

from pbm.models import ActionRow
from pbm.worker import Worker

from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Guardia del corpo"}
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)


def login(page, base, email, password):
    page.goto(f"{base}/login")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", password)
    page.click("form.stack button[type=submit]")


def test_log_in_vote_and_see_the_receipt(app, factory, clock, live_server, page):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()  # night 1 -> day 1

    login(page, live_server, "bruno@players.test", "pw-bruno")
    page.goto(f"{live_server}/g/test-game/me")
    assert "Contadino" in page.content()
    assert "Lupo Mannaro" not in page.content()  # Anna's role is nobody's business
    options = page.locator("select[name=vote-vote] option").all_inner_texts()
    assert options == ["—", "Anna", "Bruno", "Carla", "Dario"]  # no name chosen for you
    page.evaluate("window.sameDocument = true")  # gone if the page is loaded again
    page.select_option("select[name=vote-vote]", "Anna")
    page.click("#form-vote button[type=submit]")
    receipt = page.locator(".flash.receipt").inner_text()
    assert "Registrato" in receipt and "Voto: Anna" in receipt and "24/11/2026 alle 21:00" in receipt

    page.select_option("select[name=vote-vote]", "Carla")  # changed, not withdrawn
    page.click("#form-vote button[type=submit]")
    expect(page.locator(".my-choices")).to_contain_text("Voto: Carla")
    assert "Voto: Carla" in page.locator(".flash.receipt").inner_text()  # the new receipt, in its place
    assert page.locator("select[name=vote-vote]").input_value() == "Carla"  # the vote as it stands
    assert page.evaluate("window.sameDocument === true")  # answered in place, not a new page
    page.reload()  # a reload shows the page again and sends nothing
    assert page.locator(".flash").count() == 0
    assert "Voto: Carla" in page.locator(".my-choices").inner_text()
    page.select_option("select[name=vote-vote]", "")  # §1.6: a vote cannot be withdrawn
    page.click("#form-vote button[type=submit]")
    expect(page.locator(".flash.error")).to_contain_text("Non registrato")  # the page again, saying why
    assert "Voto: Carla" in page.locator(".my-choices").inner_text()

    page.click("button[lang=en]")
    assert "Recorded" not in page.content()  # flashes are one-shot
    assert "Your choices so far" in page.content()

    with factory() as s:
        assert [(r.seat.name, r.args["vote"], r.source) for r in s.query(ActionRow)] == [
            ("Bruno", "Anna", "web"), ("Bruno", "Carla", "web")]
