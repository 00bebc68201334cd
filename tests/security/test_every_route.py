"""Every route of the URL map, with every kind of visitor, by GET and POST
(with a valid CSRF token, so a refusal is the route's own and not the
token's): nobody gets a 500; the Masters' pages of game A answer only game
A's Masters; a player's pages answer only that game's players; and nothing
anyone but A's Master sends changes game A.

The routes are read from the app, not listed here: a route added later is
tried too (with the rules its path prefix implies)."""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select

from pbm.db import transaction
from pbm.models import ActionRow, Game, GameMaster, InboundRow, MasterLog, OutboxRow, PhaseRow, Seat, User
from pbm.operations import rooms, seasons
from pbm.talk_models import PostRow, RoomReader, RoomRow
from pbm.web.post_tokens import PostTokens

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game
from tests.support.forms import edit_open_state, kill
from tests.support.mail import deliver, fast_passwords, run_mail  # noqa: F401

ROLES_A = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
           "Elena": "Contadino"}
ROLES_B = {"Zeno": "Lupo Mannaro", "Ugo": "Contadino", "Vera": "Veggente"}
MASTER_A, MASTER_B = "master@example.org", "other.master@example.org"


@dataclass
class Visitor:
    kind: str
    client: object
    csrf: str


@pytest.fixture
def world(app, factory, clock):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a failing route answers 500, listed below
    a = make_game(factory, app.config, clock.now(), ROLES_A, mayor="Bruno", master_email=MASTER_A)
    b = make_game(factory, app.config, clock.now(), ROLES_B, mayor="Ugo", master_email=MASTER_B)
    edit_open_state(factory, a, kill(["Elena"]))
    with factory() as s:
        slug = s.get(Game, a).slug
        token = s.query(Seat).filter_by(game_id=a, name="Dario").one().token
    # A refused message of game A, for the raw-mail page.
    from email.message import EmailMessage
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "x@evil.test", f"lupus+{token}@lupus.localhost", "ciao"
    msg["Message-ID"] = "<route-test@evil.test>"
    msg.set_content("VOTO Anna")
    deliver(app, bytes(msg))
    from pbm.worker import Worker
    run_mail(app, Worker(app, clock))
    # A post in game A's piazza, and a whisper of two of its players with one in it, so
    # the rooms' routes are tried on a real room and a real post.
    with transaction(factory) as s:
        game = s.get(Game, a)
        carla, dario = game.seat_by_name("Carla"), game.seat_by_name("Dario")
        rooms.post(s, app.config, game, "piazza", "Carla in piazza", user=carla.user, seat=carla, now=clock.now())
        whisper = rooms.open_whisper(s, app.config, game, carla, [dario], clock.now())
        rooms.post(s, app.config, game, whisper.key, "Carla sussurra", user=carla.user, seat=carla, now=clock.now())
        # A group of game A's Master and a season (issue 34), for the statistics' routes.
        group = seasons.create_group(s, name="Circolo", owner=game.masters[0].user, now=clock.now())
        seasons.add_season(s, group, name="Autunno", by=game.masters[0].user, now=clock.now())
    Worker(app, clock).room_posts()  # their mail made, as the worker does seconds later
    return a, b, slug


def visitor(app, kind: str) -> Visitor:
    who = {"outsider": ("zeno@players.test", "pw-zeno"), "living": ("anna@players.test", "pw-anna"),
           "dead": ("elena@players.test", "pw-elena"), "other_master": (MASTER_B, "master"),
           "master": (MASTER_A, "master")}
    client = app.test_client() if kind == "anonymous" else login(app, *who[kind])
    return Visitor(kind, client, csrf_from(client.get("/").get_data(as_text=True)))


VISITORS = ["anonymous", "outsider", "living", "dead", "other_master", "master"]


def concrete_paths(app, factory, game_id: int, slug: str) -> list[tuple[str, str, str]]:
    """(method, path, rule) for every rule and method, its variables filled with game A's."""
    with factory() as s:
        phase_id = s.scalar(select(PhaseRow.id).where(PhaseRow.game_id == game_id))
        inbound_id = s.scalar(select(InboundRow.id).where(InboundRow.game_id == game_id))
        seat_id = s.scalar(select(Seat.id).where(Seat.game_id == game_id))
        room_id, post_id = s.execute(select(PostRow.room_id, PostRow.id).join(RoomRow, RoomRow.id == PostRow.room_id)
                                     .where(RoomRow.game_id == game_id, RoomRow.key == "piazza")).first()
        whisper = s.scalar(select(RoomRow.key).where(RoomRow.game_id == game_id, RoomRow.kind == "whisper"))
    token = PostTokens(app.config["SECRET_KEY"], room_id).of(post_id)
    values = {"slug": slug, "name": "Carla", "phase_id": phase_id, "inbound_id": inbound_id,
              "seat_id": seat_id, "n": 1, "absence_id": 1,
              "code": "en", "filename": "style.css", "token": "not-a-real-token", "signed": "not-signed",
              "key": "piazza", "post": token, "after": "0",
              "group_slug": "circolo", "season_slug": "autunno", "fmt": "json", "user_id": seat_id}
    out = []
    for rule in app.url_map.iter_rules():
        missing = set(rule.arguments) - set(values)
        assert not missing, f"{rule.rule}: give this test a value for {missing}"
        path = rule.rule
        for arg in rule.arguments:
            path = re.sub(r"<(?:[^:<>]+:)?" + arg + ">", str(values[arg]), path)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((method, path, rule.rule))
            if "<key>" in rule.rule:  # the rooms: a whisper, a room of others, none
                for key in (whisper, "lupi", "no-such-room"):
                    out.append((method, path.replace("/piazza", f"/{key}", 1), rule.rule))
    return sorted(out)


def game_a_fingerprint(factory, game_id: int) -> tuple:
    """Everything a visitor could change in game A."""
    with factory() as s:
        game = s.get(Game, game_id)
        return (
            game.status, game.paused_at, game.state, game.prepared,
            [(p.id, p.status, p.ends_at, p.gm_input) for p in s.query(PhaseRow).filter_by(game_id=game_id)],
            s.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.game_id == game_id)),
            # Offering oneself as a substitute is open to any logged-in user (issue 14) and
            # logged; everything else in the log is a change to the game.
            s.scalar(select(func.count()).select_from(MasterLog).where(
                MasterLog.game_id == game_id,
                MasterLog.action.not_in(("volunteer", "volunteer_withdrawn")))),
            s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.game_id == game_id)),
            [(seat.name, seat.disqualified, seat.user.address_failing, seat.user.email)
             for seat in s.query(Seat).filter_by(game_id=game_id)],
            s.scalar(select(func.count()).select_from(GameMaster).where(GameMaster.game_id == game_id)),
            # The rooms: what was said, and the Masters' moderation of it.
            [(p.body, p.status) for p in s.scalars(select(PostRow).where(PostRow.game_id == game_id))],
            [(r.key, r.locked) for r in s.scalars(select(RoomRow).where(RoomRow.game_id == game_id))],
            [r.silenced_until for r in s.scalars(select(RoomReader).join(RoomRow, RoomRow.id == RoomReader.room_id)
                                                 .where(RoomRow.game_id == game_id))],
            game.talk,
        )


def expected(kind: str, method: str, rule: str) -> set[int] | None:
    """The answers allowed to this visitor; None: any but a server error."""
    login_redirect = {302, 401}
    if rule.startswith("/g/<slug>/master"):
        return {"anonymous": login_redirect, "master": None}.get(kind, {403})
    if rule.startswith("/master/"):
        if kind == "anonymous":
            return login_redirect
        return None if kind in ("master", "other_master") else {403}
    if rule.startswith("/g/<slug>/rooms"):  # a player's, or a Master's, of this game
        if kind == "anonymous":
            return login_redirect
        return {403} if kind in ("outsider", "other_master") else None
    if rule.startswith("/g/<slug>/reveal/rooms") or rule == "/g/<slug>/piazza.atom":
        return None if kind == "master" else {404}  # the game runs: its archive is its Masters'
    if rule in ("/g/<slug>/me", "/g/<slug>/act"):
        if kind == "anonymous":
            return login_redirect
        if kind in ("outsider", "other_master", "master"):
            return {403, 404} if method == "GET" or kind != "master" else {302, 400, 403, 404}
        return None
    return None


def server_error(rule: str, response) -> bool:
    """A 5xx, except /healthz's 503, which is its answer while no worker runs (as here)."""
    if rule == "/healthz" and response.status_code == 503:
        return "worker" not in response.get_data(as_text=True)
    return response.status_code >= 500


def request(v: Visitor, method: str, path: str):
    if method == "GET":
        return v.client.get(path)
    return v.client.post(path, data={"csrf_token": v.csrf})


@pytest.mark.parametrize("kind", [k for k in VISITORS if k != "master"])
def test_no_one_but_the_games_master_reads_or_acts_in_its_masters_pages(app, factory, world, kind):
    a, _, slug = world
    v = visitor(app, kind)
    before = game_a_fingerprint(factory, a)
    wrong = []
    paths = concrete_paths(app, factory, a, slug)
    assert len({rule for _, _, rule in paths}) >= 25  # the whole map, not a few pages
    for method, path, rule in paths:
        if rule == "/logout":
            continue  # tried last: it ends this visitor's session
        response = request(v, method, path)
        allowed = expected(kind, method, rule)
        if server_error(rule, response) or (allowed is not None and response.status_code not in allowed):
            wrong.append(f"{method} {path}: {response.status_code}")
        if method == "GET" and path == "/master/mailbox" and response.status_code == 200:
            page = response.get_data(as_text=True)
            with factory() as s:
                secrets = [x for seat in s.query(Seat).filter_by(game_id=a) for x in (seat.token, seat.user.email)]
            wrong += [f"{path} shows {x}" for x in secrets if x in page]
    assert request(v, "POST", "/logout").status_code < 500
    assert wrong == []
    assert game_a_fingerprint(factory, a) == before


def test_the_games_master_gets_no_server_error_anywhere(app, factory, world):
    a, _, slug = world
    v = visitor(app, "master")
    paths = concrete_paths(app, factory, a, slug)
    wrong = []
    # Pages first, then what acts (an action may change what the pages can show).
    for method, path, rule in [p for p in paths if p[0] == "GET"] + [p for p in paths if p[0] == "POST"]:
        if rule == "/logout":
            continue
        response = request(v, method, path)
        if server_error(rule, response):
            wrong.append(f"{method} {path}: {response.status_code}")
        elif method == "GET" and rule.startswith(("/g/<slug>/master", "/master/")) and response.status_code != 200:
            wrong.append(f"{method} {path}: {response.status_code}")
    assert wrong == []


def test_a_master_of_another_game_cannot_act_even_with_the_games_own_forms(app, factory, world):
    """The real forms of A's desk, with their fields filled, sent by B's Master."""
    a, _, slug = world
    master_a, other = visitor(app, "master"), visitor(app, "other_master")
    desk = master_a.client.get(f"/g/{slug}/master").get_data(as_text=True)
    forms = re.findall(r'<form[^>]*action="(/g/[^"]+/master[^"]*)"', desk)
    assert len(forms) >= 3
    before = game_a_fingerprint(factory, a)
    fields = {"player": "Carla", "commands": "VOTO Anna", "source": "sms", "name": "Intruso",
              "email": "intruso@evil.test", "lang": "it", "action": "disqualify", "players": "Carla",
              "reason": "x", "new_end": "2026-12-01T21:00"}
    for action in set(forms):
        r = other.client.post(action, data={"csrf_token": other.csrf, **fields})
        assert r.status_code == 403, action
    assert game_a_fingerprint(factory, a) == before
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(User).where(User.email == "intruso@evil.test")) == 0
