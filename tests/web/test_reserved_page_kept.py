"""The reserved page kept as written (pbm/web/reserved_page.py, issue 33): written once
per version of what it shows, with the player's choices, the messages shown once and
the session's form token put in at each request. Whatever changes, the page shown is
the page written from nothing; a session never gets another's token, a player never
another's page."""
from __future__ import annotations

import re
from datetime import timedelta

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, User
from pbm.operations import rooms as talk
from pbm.web import reserved_page, reserved_parts

from tests.support.forms import area, flash_of, forms_of, logged_in, post_form
from tests.support.helpers import make_game
from tests.support.reserved import TOKEN, afresh, forms_written, same_page

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino"}
def _tokens(page: str) -> set[str]:
    return {a or b for a, b in TOKEN.findall(page)}


def test_each_session_gets_its_own_token_in_the_kept_page(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES)
    first, second = logged_in(app, "Carla"), logged_in(app, "Carla")
    mine, theirs = area(first), area(second)  # the second is the page kept for the first
    assert same_page(mine, theirs)
    assert len(_tokens(theirs)) == 1 and _tokens(theirs) != _tokens(mine)
    # The second session's page works in the second session: its vote is recorded.
    assert "Registrato" in flash_of(post_form(second, "form-power", {"target": "Anna"}))
    # And the first session's token is refused in the second.
    form = forms_of(theirs)["form-power"]
    stolen = {**form.hidden, "power-csrf_token": _tokens(mine).pop(), "power-target": "Dario"}
    assert second.post(form.action, data=stolen).status_code == 400


def test_a_player_never_gets_anothers_kept_page(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES)
    anna, bruno = logged_in(app, "Anna"), logged_in(app, "Bruno")
    area(anna)
    page = area(bruno)
    assert "Area riservata: Bruno" in page and "Anna" not in page.split("<h1>")[1].split("</h1>")[0]
    assert "Lupo Mannaro" not in page.split("I tuoi risultati privati")[0].split('class="role"')[1]


def test_choices_and_receipts_are_written_at_each_request(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES)
    carla = logged_in(app, "Carla")
    area(carla)
    for target in ("Anna", "Bruno", "Anna"):
        shown = post_form(carla, "form-power", {"target": target})
        assert "Registrato" in flash_of(shown)
        chosen = shown.split("Le tue scelte")[1].split("</ul>")[0]
        assert target in chosen and ({"Anna", "Bruno"} - {target}).pop() not in chosen
        assert f'<option selected value="{target}">' in shown
        again = area(carla)
        assert 'class="flash' not in again  # the receipt shown once
        assert same_page(again, afresh(carla))


def test_what_the_page_shows_beside_the_game_is_never_stale(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES)
    elena, anna = logged_in(app, "Elena"), logged_in(app, "Anna")
    area(elena)
    with transaction(factory) as s:  # the Masters rename the game
        s.get(Game, gid).name = "La partita del giovedì"
    page = area(elena)
    assert "La partita del giovedì" in page and same_page(page, afresh(elena))

    with transaction(factory) as s:  # another player talks in the piazza: one unread post
        game = s.get(Game, gid)
        seat = game.seat_by_name("Anna")
        user = s.get(User, seat.user_id)
        talk.post(s, app.config, game, "piazza", "Buongiorno a tutti", user=user, seat=seat, now=clock.now())
    page = area(elena)
    assert re.search(r'class="unread">1 nuov', page) and same_page(page, afresh(elena))
    area(anna)

    with transaction(factory) as s:  # Elena says she will be away
        game = s.get(Game, gid)
        today = clock.now().date()
        operations.seats.declare_absence(s, app.config, game, game.seat_by_name("Elena"),
                                         first_day=today + timedelta(days=2), last_day=today + timedelta(days=3),
                                         note="In montagna", now=clock.now())
    page = area(elena)
    assert "In montagna" in page and same_page(page, afresh(elena))


def test_the_masters_view_of_the_page_is_never_kept_for_the_player(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES)
    carla = logged_in(app, "Carla")
    area(carla)
    master = app.test_client()
    page = master.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page) or re.search(
        r'csrf_token" type="hidden" value="([^"]+)"', page)
    assert master.post("/login", data={"csrf_token": token.group(1), "email": "master@example.org",
                                       "password": "master"}).status_code == 302
    seen = master.get("/g/test-game/master/as/Carla").get_data(as_text=True)
    assert "Area riservata: Carla" in seen and 'id="form-' not in seen and 'class="flash viewing"' in seen
    page = area(carla)
    assert 'id="form-power"' in page and 'class="flash viewing"' not in page


def test_what_the_players_share_is_made_once_and_each_page_is_its_own(app, factory, clock):
    """The game's parts (its state, the phase's name and deadline, the open phase) are
    made at the first player's visit and shared: every other player's page is still
    the page written for them from nothing."""
    make_game(factory, app.config, clock.now(), ROLES)
    clients = {name: logged_in(app, name) for name in ROLES}
    reserved_parts.forget(app)
    reserved_page.forget(app)
    pages = {name: area(client) for name, client in clients.items()}
    for name, client in clients.items():
        assert same_page(pages[name], afresh(client)), name
        assert f"Area riservata: {name}" in pages[name]


def test_a_visit_with_the_same_choices_builds_no_form_and_a_new_choice_shows(app, factory, clock, monkeypatch):
    make_game(factory, app.config, clock.now(), ROLES)
    carla = logged_in(app, "Carla")
    built = forms_written(monkeypatch)
    first = area(carla)
    assert built  # the first visit writes its forms
    built.clear()
    again = area(carla)
    assert not built and same_page(again, first)  # kept as written, with this session's token
    assert "Registrato" in flash_of(post_form(carla, "form-power", {"target": "Bruno"}))
    built.clear()
    page = area(carla)
    assert '<option selected value="Bruno">' in page and same_page(page, afresh(carla))


def test_each_app_keeps_its_own_parts_and_pages(app, make_app, factory, clock, tmp_path):
    """Two apps in one process (two databases: the tests make one a test) never answer
    from each other's kept parts, whose keys are a database's ids (kept.of_app)."""
    from pbm.web.kept import of_app
    other = make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'other' / 'other.sqlite3'}")
    make_game(factory, app.config, clock.now(), ROLES)
    make_game(other.extensions["pbm_sessions"], other.config, clock.now(),
              {**ROLES, "Carla": "Contadino", "Dario": "Veggente"})  # the same game id, another story
    mine = area(logged_in(app, "Carla"))
    assert len(of_app(app, "reserved_parts", 1)) == 1
    assert not len(of_app(other, "reserved_parts", 1))  # nothing made for the other app
    theirs = area(logged_in(other, "Carla"))
    assert "Veggente" in mine.split('class="role"')[1][:200]
    assert "Contadino" in theirs.split('class="role"')[1][:200]
    assert len(of_app(other, "reserved_parts", 1)) == 1


def test_seats_offered_the_same_forms_who_chose_alike_share_them_as_written(app, factory, clock, monkeypatch):
    """By day every villager is offered the same vote: the forms written for one who
    voted Anna serve the next who voted Anna, and a choice that came another way (by
    mail) or other forms (the wolves' and the seer's by night) are written for
    themselves. Every page is still the page written for its player from nothing."""
    from tests.web.test_reserved_page_cost import day_one
    gid = day_one(app, factory, clock, mayor="Fabio")  # none of the voters below
    bruno, dario, elena = (logged_in(app, name) for name in ("Bruno", "Dario", "Elena"))
    assert "Registrato" in flash_of(post_form(bruno, "form-vote", {"vote": "Anna"}))
    built = forms_written(monkeypatch)
    shown = post_form(dario, "form-vote", {"vote": "Anna"})
    assert not built  # Bruno's forms, as written for a vote for Anna
    assert "Area riservata: Dario" in shown and '<option selected value="Anna">' in shown
    assert same_page(area(dario), afresh(dario))

    with transaction(factory) as s:  # Elena's vote for Anna comes by mail
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name("Elena"), {"vote": "Anna"}, source="mail",
                          now=clock.now())
    built.clear()
    page = area(elena)
    assert built and same_page(page, afresh(elena))
    assert page.split("Le tue scelte")[1].split("</ul>")[0] != shown.split("Le tue scelte")[1].split("</ul>")[0]



def test_seats_offered_other_forms_never_get_them_as_written_for_another(app, factory, clock):
    """Every player of day 1 votes alike, the forms of some of them other than the
    rest's (the mayor's succession): each page after the vote is its player's own."""
    from tests.web.test_reserved_page_cost import ROLES as EIGHT, day_one
    day_one(app, factory, clock)
    forms = set()
    for name in EIGHT:
        client = logged_in(app, name)
        shown = post_form(client, "form-vote", {"vote": "Anna"})
        assert "Registrato" in flash_of(shown)
        page = area(client)
        assert same_page(page, afresh(client)), name
        forms.add(TOKEN.sub("", page[page.index('id="phase-forms"'):page.index("</form>", page.rindex('id="form-'))]))
    assert len(forms) > 1  # some were offered other forms
