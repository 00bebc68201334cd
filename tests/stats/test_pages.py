"""The statistics' pages read by people (issue 34): a group's page, a season's table,
a player's page, in Italian and English; the export named and anonymised; the desk's
season and fair dealing; a private page; and nothing of a running game anywhere."""
from __future__ import annotations

import csv
import io
import json
import re

from sqlalchemy import select

from pbm.db import transaction
from pbm.models import Game, User
from pbm.season_models import GroupRow, SeasonRow
from pbm.operations import seasons

from tests.conftest import csrf_from
from tests.support.helpers import login
from tests.support.season_games import master_and_season, new_season_game, play_to_end

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
ROLES = ["Lupo Mannaro", "Lupo Mannaro", "Contadino", "Contadino", "Contadino", "Contadino", "Guardia",
         "Contadino"]


def _season_of_games(app, clock, games: int = 2) -> tuple[str, str]:
    factory = app.extensions["pbm_sessions"]
    master, group_id, season_id = master_and_season(factory, clock.now())
    for n in range(games):
        seating = dict(zip(PLAYERS, ROLES[n:] + ROLES[:n]))
        gid = new_season_game(factory, app.config, clock.now(), master, season_id, PLAYERS, seating,
                              name=f"Partita {n}", seed=f"seme{n}")
        play_to_end(factory, app.config, clock, gid, f"bots{n}")
    with factory() as s:
        group = s.get(GroupRow, group_id)
        return group.slug, s.get(SeasonRow, season_id).slug


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_group_and_season_pages_in_both_languages(app, clock):
    group, season = _season_of_games(app, clock)
    client = app.test_client()
    for lang, words in (("it", ["Classifica", "Punti", "Fazioni", "percentuali di vittoria"]),
                        ("en", ["Standings", "Points", "Factions", "win rates"])):
        client.set_cookie("lang", lang)
        for path in (f"/groups/{group}/", f"/groups/{group}/{season}/"):
            r = client.get(path, headers={"Accept-Language": lang})
            assert r.status_code == 200, path
            page = r.get_data(as_text=True)
            for w in words:
                assert w in page, (lang, path, w)
            assert "Anna" in page
            # Each chart an image with a title and a text alternative.
            svg = page[page.index("<svg"):page.index("</svg>")]
            assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
            assert "Village" in page if lang == "en" else "Villaggio" in page


def test_a_players_page_and_its_privacy(app, clock):
    group, _season = _season_of_games(app, clock, games=1)
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        anna = s.scalar(select(User).where(User.email == "anna@players.test"))
        anna_id = anna.id
    anyone = app.test_client()
    page = anyone.get(f"/players/{anna_id}/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Affidabilità" in page and "Notti sopravvissute" in page
    mine = login(app, "anna@players.test", "pw-anna")
    own = mine.get(f"/players/{anna_id}/").get_data(as_text=True)
    r = mine.post("/players/me/privacy", data={"csrf_token": csrf_from(own), "private": "1"})
    assert r.status_code == 302
    hidden = anyone.get(f"/players/{anna_id}/")
    assert hidden.status_code == 403
    assert "Affidabilità" not in hidden.get_data(as_text=True)
    assert mine.get(f"/players/{anna_id}/").status_code == 200
    # The standings name her, without a link to her page.
    standings = anyone.get(f"/groups/{group}/").get_data(as_text=True)
    assert "Anna" in standings and f"/players/{anna_id}/" not in standings


def test_the_season_exported_with_names_and_anonymised(app, clock):
    group, season = _season_of_games(app, clock, games=1)
    client = app.test_client()
    named = json.loads(client.get(f"/groups/{group}/{season}/export.json?names=1").get_data(as_text=True))
    assert len(named["games"]) == 1 and {s["player"] for s in named["games"][0]["seats"]} == set(PLAYERS)
    hidden = client.get(f"/groups/{group}/{season}/export.json", headers={"Accept-Language": "it"}).get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/groups/{group}/{season}/export.csv").get_data(as_text=True))))
    assert len(rows) == len(PLAYERS)
    for name in PLAYERS:
        assert name not in hidden
        assert all(name not in v for row in rows for v in row.values())
    assert {r["player"] for r in rows} == {f"Giocatore {i}" for i in range(1, len(PLAYERS) + 1)}
    # The same figures either way.
    assert sorted(int(r["done"]) for r in rows) == sorted(s["done"] for s in named["games"][0]["seats"])


def test_nothing_of_a_running_game_appears(app, clock):
    group, season = _season_of_games(app, clock, games=1)
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        master = s.scalar(select(User).where(User.email == "master@example.org"))
        season_id = s.scalar(select(SeasonRow.id).where(SeasonRow.slug == season))
        master_id = master.id
    running = ["Zelda", "Yuri", "Xeno", "Walter", "Vera"]
    new_season_game(factory, app.config, clock.now(), master_id, season_id, running,
                    dict(zip(running, ["Lupo Mannaro", "Veggente", "Contadino", "Contadino", "Contadino"])),
                    name="In corso")
    client = app.test_client()
    for path in (f"/groups/{group}/", f"/groups/{group}/{season}/", f"/groups/{group}/{season}/export.json?names=1"):
        page = client.get(path).get_data(as_text=True)
        assert "Veggente" not in page and "Seer" not in page, path
        assert not any(name in page for name in running), path
    with factory() as s:
        zelda = s.scalar(select(User).where(User.email == "zelda@players.test"))
        page = client.get(f"/players/{zelda.id}/").get_data(as_text=True)
    assert "Lupo Mannaro" not in _text(page)


def test_the_desk_places_a_game_and_shows_a_fair_deals_weights(app, clock):
    _group, season = _season_of_games(app, clock, games=1)
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        master = s.scalar(select(User).where(User.email == "master@example.org"))
        from pbm import operations
        game = operations.create_game(s, name="Nuova", ruleset="lupus-live-12", master=master, now=clock.now())
        for p in PLAYERS:
            operations.add_player(s, app.config, game, name=p, email=f"{p.lower()}@players.test", now=clock.now(),
                                  by=master)
        slug = game.slug
        season_id = s.scalar(select(SeasonRow.id).where(SeasonRow.slug == season))
    client = login(app, "master@example.org", "master")
    desk = client.get(f"/g/{slug}/master").get_data(as_text=True)
    assert 'name="season"' in desk
    r = client.post(f"/g/{slug}/master/season", data={"csrf_token": csrf_from(desk), "season": str(season_id),
                                                      "fair": "1"})
    assert r.status_code == 302
    desk = client.get(f"/g/{slug}/master").get_data(as_text=True)
    assert "Sta" in desk[desk.index('id="season"'):], desk
    composition = {"role-Lupo Mannaro": "2", "role-Contadino": "5", "role-Guardia del corpo": "1"}
    r = client.post(f"/g/{slug}/master/draw", data={"csrf_token": csrf_from(desk), **composition})
    desk = client.get(f"/g/{slug}/master").get_data(as_text=True)
    with factory() as s:
        game = s.scalar(select(Game).where(Game.slug == slug))
        fair = game.prepared["fair"]
        history = seasons.watched_history(s, game, "Lupi")
    assert fair["history"] == history and history  # the last game's wolves have history
    for name in history:
        assert fair["weights"][name] < 1
    assert "0.33" in desk and "1.00" in desk


def test_a_page_shows_a_new_end_and_a_new_privacy_at_once(app, clock):
    """The pages' bodies are kept between visits: a game that ends, or a player who
    makes their page private, shows on the next visit all the same."""
    group, season = _season_of_games(app, clock, games=1)
    factory = app.extensions["pbm_sessions"]
    client = app.test_client()
    page = client.get(f"/groups/{group}/{season}/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "1 finished game." in page
    with factory() as s:
        master_id = s.scalar(select(User.id).where(User.email == "master@example.org"))
        season_id = s.scalar(select(SeasonRow.id).where(SeasonRow.slug == season))
        anna = s.scalar(select(User).where(User.email == "anna@players.test"))
    gid = new_season_game(factory, app.config, clock.now(), master_id, season_id, PLAYERS,
                          dict(zip(PLAYERS, ROLES)), name="Seconda", seed="altro")
    play_to_end(factory, app.config, clock, gid, "altri-bots")
    page = client.get(f"/groups/{group}/{season}/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "2 finished games." in page
    assert f"/players/{anna.id}/" in page
    with transaction(factory) as s:
        seasons.set_private(s, s.get(User, anna.id), True)
    page = client.get(f"/groups/{group}/{season}/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f"/players/{anna.id}/" not in page


def test_the_new_game_form_puts_the_game_in_a_season(app, clock):
    """The season and fair dealing chosen when the game is made (issue 34), as on the
    desk; a Master without a group sees no season field, and a season of a group the
    Master does not run is refused."""
    from pbm.season_models import SeasonGame
    _group, season = _season_of_games(app, clock, games=1)
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        season_id = s.scalar(select(SeasonRow.id).where(SeasonRow.slug == season))
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    with factory() as s:
        label = f"{s.get(SeasonRow, season_id).group.name}: {s.get(SeasonRow, season_id).name}"
    assert 'name="season"' in page and label in page
    r = client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Con stagione",
                                          "ruleset": "lupus-live-12", "listing": "public",
                                          "season": str(season_id), "fair_deal": "y"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    with factory() as s:
        game = s.scalar(select(Game).where(Game.name == "Con stagione"))
        placed = s.get(SeasonGame, game.id)
        assert placed is not None and placed.season_id == season_id and placed.fair_deal


def test_the_new_game_form_without_a_group(app, clock):
    """No group yet: no season to choose, and a game made as before."""
    from tests.support.helpers import make_master
    make_master(app.extensions["pbm_sessions"])
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    assert 'name="season"' not in page
    r = client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Senza stagione",
                                          "ruleset": "lupus-live-12", "listing": "public"})
    assert r.status_code == 302
