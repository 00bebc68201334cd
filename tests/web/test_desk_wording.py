"""What the Masters and players read is worded in their language: no codes, no
Python dicts, no engine sentences in English on an Italian page, local times."""
from __future__ import annotations

import re

import pytest
from flask_babel import force_locale

from pbm import operations
from pbm.db import transaction
from pbm.models import User
from pbm.errors import refusal

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game, make_master

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino"}
RAW = re.compile(r"\{'|\{&#39;|submit_on_behalf|add_player|start_game|\[public\]|\(master,|\(sms\)")


def test_desk_log_submissions_and_preview_are_worded_in_local_time(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    client = login(app, "master@example.org", "master")
    desk = client.get("/g/test-game/master").get_data(as_text=True)
    client.post("/g/test-game/master/behalf", data={"csrf_token": csrf_from(desk), "player": "Carla",
                                                     "commands": "POTERE Anna", "source": "sms"})
    client.post("/g/test-game/master/pause", data={"csrf_token": csrf_from(desk)})
    desk = client.get("/g/test-game/master").get_data(as_text=True)
    assert not RAW.search(desk), RAW.search(desk).group(0)
    log = desk.split('<ul class="log">')[1].split("</ul>")[0]
    # The clock says Monday 10:00 in Rome (09:00 UTC): the log keeps the game's time.
    assert "lun 23 nov 2026, 10:00" in log and "09:00" not in log and "2026-11-23" not in log
    assert "ha aggiunto Anna (anna@players.test)" in log
    assert re.search(r"ha inserito per Carla \(SMS\): [^<]*Anna", log)
    assert "ha messo in pausa la partita" in log
    assert "SMS, inserita da Master Mara" in desk
    assert "[privato → Carla] " in desk.split('id="preview"')[1]  # the Veggente's answer

    english = login(app, "master@example.org", "master")
    english.post("/lang/en", data={"csrf_token": csrf_from(english.get("/").get_data(as_text=True))})
    desk_en = english.get("/g/test-game/master").get_data(as_text=True)
    assert "paused the game" in desk_en and "SMS, entered by Master Mara" in desk_en
    assert "Lupus LIVE!, 12th edition" in desk_en


def test_refused_setup_is_explained_in_the_readers_language_and_the_numbers_stay(app, factory, clock):
    make_master(factory)
    with transaction(factory) as s:
        master = s.query(User).one()
        game = operations.create_game(s, name="Tempo reale", ruleset="tempo-reale-7", master=master,
                                      now=clock.now())
        for name in ["Anna", "Bruno", "Carla", "Dario", "Elena"]:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@p.test",
                                  now=clock.now(), password="x")
    client = login(app, "master@example.org", "master")
    token = csrf_from(client.get("/g/tempo-reale/master").get_data(as_text=True))
    no_necromancer = {"csrf_token": token, "mayor": "", "role-Lupo": "2", "role-Contadino": "3"}
    page = client.post("/g/tempo-reale/master/draw", data=no_necromancer,
                       follow_redirects=True).get_data(as_text=True)
    assert "manca: Negromanti" in page and "needs all three factions" not in page
    # The Master corrects one number, not all of them again.
    assert re.search(r'name="role-Lupo" value="2"', page) and re.search(r'name="role-Contadino" value="3"', page)

    fixed = dict(no_necromancer, **{"role-Contadino": "2", "role-Negromante": "1"})
    page = client.post("/g/tempo-reale/master/draw", data=fixed, follow_redirects=True).get_data(as_text=True)
    assert re.search(r'name="role-Negromante" value="1"', page)


def test_account_page_offers_the_language_the_pages_are_shown_in(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")  # Anna's account says Italian
    client = app.test_client()
    client.post("/lang/en", data={"csrf_token": csrf_from(client.get("/login").get_data(as_text=True))})
    page = client.get("/login").get_data(as_text=True)
    client.post("/login", data={"csrf_token": csrf_from(page), "email": "anna@players.test",
                                "password": "pw-anna"})
    account = client.get("/account").get_data(as_text=True)
    assert re.search(r'<option selected value="en">|<option value="en" selected>', account), \
        "the page is in English: saving must not switch it back to Italian"


def test_outbox_states_and_rulesets_are_worded(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    client = login(app, "master@example.org", "master")
    mailbox = client.get("/master/mailbox").get_data(as_text=True)
    assert "in attesa di invio" in mailbox and "<td>pending</td>" not in mailbox
    index = client.get("/").get_data(as_text=True)
    assert "Lupus LIVE!, dodicesima edizione" in index and "lupus-live-12" not in index


def test_roll_back_is_offered_only_once_a_phase_is_published(app, factory, clock):
    from datetime import datetime, timezone

    from pbm.worker import Worker
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    client = login(app, "master@example.org", "master")
    assert 'id="rollback"' not in client.get("/g/test-game/master").get_data(as_text=True)
    clock.set(datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc))  # past night 1's end
    Worker(app, clock).boundaries()
    assert 'id="rollback"' in client.get("/g/test-game/master").get_data(as_text=True)


def test_every_refusal_of_a_setup_has_its_own_words(app, factory, clock):
    """The engine's set-up refusals carry a code; each is worded, none falls
    through to the engine's English sentence."""

    make_master(factory)
    attempts = [
        ("lupus-live-12", {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Lupo Ululante"}, None,
         "Non esiste un ruolo «Lupo Ululante»."),
        ("lupus-live-12", {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente"}, "Zeno",
         "il Sindaco Zeno non è un giocatore"),
        ("tempo-reale-7", {"Anna": "Lupo", "Bruno": "Contadino", "Carla": "Contadino"}, None,
         "manca: Negromanti"),
    ]
    for n, (ruleset, roles, mayor, expected) in enumerate(attempts):
        with transaction(factory) as s:
            master = s.query(User).filter_by(email="master@example.org").one()
            game = operations.create_game(s, name=f"Prova {n}", ruleset=ruleset, master=master, now=clock.now())
            for name in roles:
                operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}{n}@p.test",
                                      now=clock.now(), password="x")
            with pytest.raises(operations.OperationError) as refused:
                operations.start_game(s, app.config, game, roles=roles, options={"mayor": mayor} if mayor else None, now=clock.now())
        worded = refusal(refused.value, "it", ruleset=ruleset)
        assert expected in worded, (refused.value.params, worded)


def test_every_action_the_service_logs_is_worded_on_the_desk(app):
    """Each action a ``log(...)`` call of the service writes (and each remedy of every
    ruleset, which ``desk.intervene`` logs by its key) has its words on the desk: the
    log never falls back to a code and its data ("extend_window player: Bruno, phase:
    9, old: 2026-11-27T02:34:11+00:00")."""
    from datetime import datetime, timezone
    from pathlib import Path

    from engine import registry
    from pbm.mail.outbound import quota_watch
    from pbm.models import Game, MasterLog
    from pbm.web import desk_view

    root = Path(desk_view.__file__).resolve().parents[1]
    logged = set()
    for source in root.rglob("*.py"):
        logged |= set(re.findall(r"\blog\(\s*session,\s*[^,]+,\s*[^,]+,\s*\"(\w+)\"", source.read_text()))
    logged.add(quota_watch.WARNED)
    logged |= {f"post_{action}" for action in ("hold", "release", "remove")}  # operations.rooms.moderate
    logged |= {"disqualify"} | {r.key for key in registry.available() for r in registry.get_ruleset(key).remedies()}
    assert {"extend_window", "standing_answers", "close_phase", "kill"} <= logged  # the search finds them

    game = Game(id=1, name="G", slug="g", ruleset="lupus-live-12")
    at = datetime(2026, 11, 27, 1, 34, tzinfo=timezone.utc)
    details = {"player": "Bruno", "phase": 9, "old": "2026-11-27T02:34:11.085422+00:00",
               "new": "2026-11-28T02:34:11+00:00", "first_day": "2026-11-26", "last_day": "2026-11-29",
               "players": ["Bruno"], "name": "Bruno", "email": "b@p.test", "standing": ["x"]}
    fallback = {}
    for lang in ("it", "en"):
        with app.test_request_context(), force_locale(lang):
            entries = [MasterLog(action=action, details=details, at=at, user=None) for action in sorted(logged)]
            fallback[lang] = desk_view._("did something this version of the service cannot describe")
            with app.extensions["pbm_sessions"]() as session:
                lines = desk_view._log_lines(session, game, entries, lang, "Europe/Rome")
        unworded = [e.action for e, (_, _, text) in zip(entries, lines) if text == fallback[lang]]
        assert unworded == [], (lang, unworded)
        dated = {e.action: text for e, (_, _, text) in zip(entries, lines)
                 if e.action in ("extend", "extend_window", "absence", "absence_withdrawn")}
        assert len(dated) == 4 and not [t for t in dated.values() if "2026-11-2" in t], (lang, dated)
        assert "27/11/2026" in dated["extend_window"] and ("giovedì 26 novembre" if lang == "it" else "Thursday 26 November") in dated["absence"]
        assert {when for when, _, _ in lines} == {"ven 27 nov 2026, 02:34" if lang == "it" else "Fri 27 Nov 2026, 02:34"}


def test_a_players_own_move_says_how_it_came_in_words(app, factory, clock):
    """Beside a move that did not come from the page, the player reads how it came
    ("per mail", "tramite i Master"), never the stored code "(mail)"."""
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with transaction(factory) as s:
        from pbm.models import Game
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name("Carla"), {"target": "Anna"},
                          source="mail", now=clock.now())
    page = login(app, "carla@players.test", "pw-carla").get("/g/test-game/me").get_data(as_text=True)
    assert "(per mail)" in page and "(mail)" not in page


def test_a_desk_shows_a_role_column_only_for_a_game_with_roles(app, factory, clock):
    from tests.service.windows.test_complots_windows import start

    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    lupus = login(app, "master@example.org", "master").get("/g/test-game/master").get_data(as_text=True)
    assert "<th>Ruolo</th>" in lupus
    gid = start(app, factory, clock.now(), hands={"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"],
                                                  "Carla": ["Ambasciatore", "Duchessa"]})
    with factory() as s:
        from pbm.models import Game
        slug = s.get(Game, gid).slug
    complots = login(app, "master@example.org", "master").get(f"/g/{slug}/master").get_data(as_text=True)
    assert "<th>Ruolo</th>" not in complots and "<th>Stato</th>" in complots


def test_the_desk_lists_who_is_still_awaited(app, factory, clock):
    """Issue 31: the desk listed who had acted, not who the phase still waits for."""
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")  # night 1
    client = login(app, "master@example.org", "master")
    desk = client.get("/g/test-game/master").get_data(as_text=True)
    awaited = desk.split('id="awaited"')[1].split("</ul>")[0]
    # Night 1: the Veggente has a power to use; the wolf's kill waits for night 2.
    assert "Carla: potere" in awaited and "Anna" not in awaited
    client.post("/g/test-game/master/behalf", data={"csrf_token": csrf_from(desk), "player": "Carla",
                                                     "commands": "POTERE Anna", "source": "sms"})
    desk = client.get("/g/test-game/master").get_data(as_text=True)
    assert "Nessuno: hanno agito tutti." in desk.split('id="awaited"')[1].split("</ul>")[0]


def test_a_new_games_desk_shows_no_empty_table(app, factory):
    """Issue 31: empty tables before the start."""
    make_master(factory)
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Vuota",
                                     "ruleset": "lupus-live-12", "auto_publish": "y", "listing": "public"})
    desk = client.get("/g/vuota/master").get_data(as_text=True)
    players = desk.split("<h2>Giocatori</h2>")[1].split("</section>")[0]
    assert "<table>" not in players and "Ancora nessun giocatore." in players
