"""The Masters' desk in a real browser: enter an action on a player's behalf,
see the preview, close and publish, roll back and publish a correction."""
from __future__ import annotations

from datetime import datetime, timezone

from pbm.models import ActionRow, Game, OutboxRow
from pbm.worker import Worker

from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino"}
TUESDAY_1000_ROME = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


def login(page, base):
    page.goto(f"{base}/login")
    page.fill("input[name=email]", "master@example.org")
    page.fill("input[name=password]", "master")
    page.click("form.stack button[type=submit]")


def test_on_behalf_preview_publish_and_roll_back(app, factory, clock, live_server, page):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        s.get(Game, gid).auto_publish = False
        s.commit()
    clock.set(TUESDAY_1000_ROME)
    Worker(app, clock).boundaries()  # night 1 resolves to a draft: auto-publish is off
    dialogs: list[str] = []
    answer = {"accept": True}

    def on_dialog(dialog):
        dialogs.append(dialog.message)
        dialog.accept() if answer["accept"] else dialog.dismiss()
    page.on("dialog", on_dialog)
    login(page, live_server)
    page.goto(f"{live_server}/g/test-game/master")
    page.click("button[id^=publish-]")
    assert "Pubblicato" in page.locator(".flash.receipt").inner_text()
    # On a phone the desk fits the screen: nothing to scroll sideways (the players' table).
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]

    for name, target in [("Dario", "Anna"), ("Elena", "Anna"), ("Anna", "Carla")]:
        page.select_option("#on-behalf select[name=player]", name)
        page.fill("#on-behalf textarea[name=commands]", f"VOTO {target}")
        page.select_option("#on-behalf select[name=source]", "sms")
        page.click("#on-behalf button[type=submit]")
        assert f"Registrato per {name}" in page.locator(".flash.receipt").inner_text()
    preview = page.locator("#preview").inner_text()
    assert "Anna" in preview and "rogo" in preview

    page.click("#close-phase")
    page.click("button[id^=publish-]")
    page.goto(f"{live_server}/g/test-game/")
    assert "Il villaggio manda al rogo Anna." in page.content()

    page.goto(f"{live_server}/g/test-game/master")
    answer["accept"] = False  # a Master who clicked by mistake and says no: nothing happens
    page.click("#rollback")
    assert "Annullare l'ultima fase pubblicata?" in dialogs[-1]
    assert page.locator(".flash").count() == 0
    page.goto(f"{live_server}/g/test-game/")
    assert "Il villaggio manda al rogo Anna." in page.content()
    page.goto(f"{live_server}/g/test-game/master")
    answer["accept"] = True
    page.click("#rollback")
    assert "bozza" in page.locator(".flash.receipt").inner_text()
    page.goto(f"{live_server}/g/test-game/")
    assert "manda al rogo Anna" not in page.content()
    page.goto(f"{live_server}/g/test-game/master")
    page.click("button[id^=publish-]")
    page.goto(f"{live_server}/g/test-game/")
    assert "Il villaggio manda al rogo Anna." in page.content()

    with factory() as s:
        behalf = s.query(ActionRow).filter_by(source="master").all()
        assert sorted((a.seat.name, a.source_detail) for a in behalf) == [
            ("Anna", "sms"), ("Dario", "sms"), ("Elena", "sms")]
        copies = s.query(OutboxRow).filter_by(kind="on_behalf_copy").count()
        corrections = s.query(OutboxRow).filter(OutboxRow.subject.contains("Correzione")).count()
    assert copies == 3 and corrections == len(ROLES)
