"""The rooms through the web for tests: a started Lupus LIVE! 12 game of five (Anna and
Bruno the Lupi, so the den exists), its players' and Master's browsers, and posting as
a browser without script does (the room's page, its CSRF token, its composer)."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from pbm.db import transaction
from pbm.models import Game, User
from pbm.operations import rooms as talk
from pbm.talk_models import PostRow, RoomRow

from tests.conftest import csrf_from
from tests.support.forms import logged_in
from tests.support.helpers import login, make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino"}
SLUG = "test-game"
TOKEN = re.compile(r'<li id="([A-Za-z0-9_-]{22})"')


def start(app, factory, clock, *, langs: dict[str, str] | None = None, **settings: bool) -> int:
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", langs=langs)
    if settings:
        choose(factory, gid, **settings)
    return gid


def choose(factory, gid: int, *, archive: str | None = None, **settings: bool) -> None:
    """The Masters' talk choices, as the desk's form stores them."""
    with transaction(factory) as s:
        game = s.get(Game, gid)
        chosen = {**talk.settings_of(game), **settings}
        master = s.get(User, game.masters[0].user_id)
        talk.choose_talk(s, game, chosen, archive, master, game.created_at)


def player(app, name: str):
    return logged_in(app, name)


def master(app):
    return login(app, "master@example.org", "master")


def room_path(key: str, rest: str = "") -> str:
    return f"/g/{SLUG}/rooms/{key}{rest}"


def page(client, key: str, **query: str) -> str:
    r = client.get(room_path(key), query_string=query)
    assert r.status_code == 200, (key, r.status_code)
    return r.get_data(as_text=True)


def send(client, key: str, body: str, **extra: Any):
    """The composer of room ``key`` sent with ``body`` (the CSRF token read from a page
    of the game the client may see)."""
    token = csrf_from(client.get(f"/g/{SLUG}/rooms").get_data(as_text=True))
    return client.post(room_path(key, "/post"), data={"csrf_token": token, "body": body, **extra})


def form_post(client, path: str, data: dict[str, Any] | None = None, *, follow: bool = False):
    """Any of the game's forms, with a valid CSRF token."""
    token = csrf_from(client.get(f"/g/{SLUG}/rooms").get_data(as_text=True))
    return client.post(path, data={"csrf_token": token, **(data or {})}, follow_redirects=follow)


def tokens_in(html: str) -> list[str]:
    return TOKEN.findall(html)


def posts(factory, key: str | None = None) -> list[tuple[str, str, str]]:
    """(room key, signature, body) of every stored post, in order."""
    with factory() as s:
        query = select(RoomRow.key, PostRow.signature, PostRow.body).join(RoomRow, RoomRow.id == PostRow.room_id)
        if key is not None:
            query = query.where(RoomRow.key == key)
        return [tuple(row) for row in s.execute(query.order_by(PostRow.id))]


def post_as(app, factory, clock, name: str, key: str, body: str) -> int:
    """A post stored through the operations (what a reply by mail does)."""
    with transaction(factory) as s:
        game = s.scalar(select(Game).where(Game.slug == SLUG))
        seat = game.seat_by_name(name)
        return talk.post(s, app.config, game, key, body, user=seat.user, seat=seat, now=clock.now()).id


def unread_badge(html: str) -> int:
    """The number beside the menu's link to the rooms (0: none shown)."""
    found = re.search(r'id="rooms-link">[^<]*(?:<span class="unread"[^>]*>(\d+)</span>)?', html)
    assert found, "no link to the rooms in the menu"
    return int(found.group(1) or 0)
