"""A whole three-player Complots game in a real browser on phone-sized screens: the
Master creates it (variant, one-minute windows), adds the players and starts it; each
player taps the big answer buttons until one of them wins. Nobody's page ever shows
another player's face-down cards."""
from __future__ import annotations

from engine.complots.cards import cards_named
from pbm.db import transaction
from pbm.models import ActionRow, Game

from pbm import operations

PLAYERS = ("Anna", "Bruno", "Carla")


def login(page, base, email, password):
    page.goto(f"{base}/login")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", password)
    page.click("form.stack button[type=submit]")


def tap(page, field: str, value: str) -> bool:
    button = page.locator(f"form.answer:has(input[name={field}][value='{value}']) button")
    if button.count():
        button.first.click()
        return True
    return False


def play_once(page, step: int) -> bool:
    """One answer as a simple player would give it; False when nothing is asked."""
    if not page.locator("#window form").count() or page.locator(".my-answer").count():
        return False  # nothing asked, or answered already (it could still be changed)
    for field, value in (("action", "coup"), ("action", "assassinate"), ("answer", "pass"),
                         ("action", "tax"), ("action", "income")):
        if tap(page, field, value):
            return True
    boxes = page.locator("#window form.action input[type=checkbox]")
    if boxes.count():  # an exchange: keep the first cards offered
        legend = page.locator("#window form.action legend").inner_text()
        keep = int("".join(ch for ch in legend if ch.isdigit()) or 1)
        for i in range(keep):
            boxes.nth(i).check()
        page.locator("#window form.action button[type=submit]").click()
        return True
    page.locator("#window form.answer button").first.click()  # a card to reveal, to show...
    return True


def test_a_game_in_the_browser(app, factory, clock, live_server, browser):
    with transaction(factory) as s:
        for name in PLAYERS:
            user, _ = operations.ensure_user(s, email=f"{name.lower()}@players.test", name=name)
            user.set_password("pw-" + name.lower())
        master, _ = operations.ensure_user(s, email="master@example.org", name="Mara")
        master.set_password("master")
        master.is_admin = True
    phone = {"viewport": {"width": 390, "height": 844}}
    desk = browser.new_context(**phone).new_page()
    login(desk, live_server, "master@example.org", "master")
    desk.goto(f"{live_server}/master/new")
    desk.fill("input[name=name]", "Complotto")
    desk.select_option("select[name=ruleset]", "complots")
    desk.fill("input[name=answer_window]", "1")
    desk.fill("input[name=extensions]", "1")
    desk.click("form.stack button[type=submit]")
    for name in PLAYERS:
        desk.fill("input[name=name]", name)
        desk.fill("input[name=email]", f"{name.lower()}@players.test")
        desk.click("form:has(input[name=email]) button[type=submit]")
    desk.select_option("#draw-roles select[name=option-variant]", "inquisitore")
    desk.click("#draw-roles button[type=submit]")
    desk.click("#start-game button[type=submit]")
    with factory() as s:
        game = s.query(Game).one()
        assert game.status == "running" and game.state["data"]["variant"] == "inquisitore"
        slug = game.slug

    pages = {}
    for name in PLAYERS:
        pages[name] = browser.new_context(**phone).new_page()
        login(pages[name], live_server, f"{name.lower()}@players.test", "pw-" + name.lower())
    for step in range(400):
        with factory() as s:
            game = s.query(Game).one()
            if game.status == "over":
                break
            hands = {p["name"]: p["data"]["hand"] for p in game.state["players"]}
        acted = False
        for name, page in pages.items():
            page.goto(f"{live_server}/g/{slug}/me")
            # Only the reader's own hand: "Le tue carte" once, and nobody else's cards in it.
            table = page.locator("#table").inner_text()
            assert table.count("Le tue carte") == 1
            mine = page.locator("#table .panel").last
            assert mine.locator("h2").inner_text() == "Le tue carte"
            # Two cards alike are named once, with their count ("due Assassini": issue 31).
            assert mine.locator("li").inner_text() == (", ".join(cards_named(hands[name], "it"))
                                                       or "Nessuna carta coperta.")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            if play_once(page, step):
                acted = True
                break
        assert acted, f"step {step}: no page offered an answer"
    else:
        raise AssertionError("no winner after 400 answers")
    with factory() as s:
        game = s.query(Game).one()
        assert game.state["winner"] in PLAYERS
        assert {r.source for r in s.query(ActionRow)} == {"web"}
    public = desk.context.browser.new_context(**phone).new_page()
    public.goto(f"{live_server}/g/{slug}/")
    assert "Le tue carte" not in public.content() and "Your hand" not in public.content()
    assert game.state["winner"] in public.locator("#table").inner_text()


def test_an_answer_window_at_360_by_740(app, factory, clock, live_server, browser):
    """The answer window of Anna's Capitano on Carla, on a small phone: the buttons the
    page offers and their words (a pass names no card, a challenge names the claim, a
    block names each character that may block a steal), each on screen and tappable;
    a tap records the answer it names, and the page says who is still awaited."""
    from tests.service.windows.test_complots_windows import send, start
    hands = {"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"],
             "Carla": ["Ambasciatore", "Duchessa"]}
    t0 = clock.now()
    gid = start(app, factory, t0, hands=hands)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    with factory() as s:
        slug = s.get(Game, gid).slug
    small = {"viewport": {"width": 360, "height": 740}, "locale": "it-IT"}

    bruno = browser.new_context(**small).new_page()
    login(bruno, live_server, "bruno@players.test", "pw-bruno")
    bruno.goto(f"{live_server}/g/{slug}/me")
    labels = [b.strip() for b in bruno.locator("#window form.answer button").all_inner_texts()]
    assert labels == ["Passo", "Sfido il Capitano di Anna"]  # only the target may block a steal

    carla = browser.new_context(**small).new_page()
    login(carla, live_server, "carla@players.test", "pw-carla")
    carla.goto(f"{live_server}/g/{slug}/me")
    assert "Turno 1: tocca ad Anna" in carla.title() and "Complotto" in carla.title()
    buttons = carla.locator("#window form.answer button")
    labels = [b.strip() for b in buttons.all_inner_texts()]
    assert labels == ["Passo", "Sfido il Capitano di Anna", "Blocco con il Capitano",
                      "Blocco con l'Ambasciatore"]
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, (labels[i], box)
        assert box["height"] >= 40, (labels[i], box)  # a thumb's target
    # A pass carries no card; only the blocks carry the card they name.
    forms = carla.locator("#window form.answer")
    for i, label in enumerate(labels):
        carried = forms.nth(i).locator("input[name=as]")
        if label.startswith("Blocco"):
            assert label.endswith(carried.get_attribute("value"))
        else:
            assert carried.count() == 0
    assert carla.evaluate("document.documentElement.scrollWidth") <= 360
    assert carla.locator("#waiting").inner_text() == "Si attende ancora: Bruno, Carla."
    assert "attende" not in carla.locator("#table").inner_text()

    # A block risks a card: the button asks first (issue 31); dismissed, nothing is sent.
    asked: list[str] = []
    carla.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    buttons.nth(3).click()
    assert asked == ["Confermi: Blocco con l'Ambasciatore?"]
    with factory() as s:
        assert s.query(ActionRow).filter_by(game_id=gid, source="web", kind="answer").count() == 0
    carla.once("dialog", lambda d: d.accept())
    buttons.nth(3).click()
    carla.wait_for_load_state()
    assert "Registrato: Blocco con l'Ambasciatore." in carla.content().replace("&#39;", "'")
    with factory() as s:
        (row,) = s.query(ActionRow).filter_by(game_id=gid, source="web").filter(
            ActionRow.kind == "answer").all()
        assert row.args == {"answer": "block", "as": "Ambasciatore"}
    bruno.goto(f"{live_server}/g/{slug}/me")
    assert bruno.locator("#waiting").inner_text() == "Si attende ancora: Bruno."
