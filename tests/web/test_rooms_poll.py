"""The polling endpoint of a room (issue 30, and issue 33's costs): /g/<slug>/rooms/<key>/since/<token>.

Asked every ten seconds by every open room page, it answers "nothing new" (204) for the
price of one query besides the user's, without reading the game's state; but never to
someone who has no place in the room now: who reads is asked first, through a reckoning
of the rules kept per state (pbm/web/rooms_access.py). That reckoning is held here
against the authority, ``operations.rooms.place_of``, for every viewer and every room at
every moment of a game: deaths, a return to life, the Masters' choices, a substitute, a
disqualification, the end."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
from sqlalchemy import Text, cast, event, select

from pbm.db import transaction
from pbm.models import Game, Seat, User
from pbm.operations import desk, rooms as talk, seats
from pbm.talk_models import RoomRow
from pbm.web import rooms_access

from tests.support.cost import counting
from tests.support.forms import edit_open_state, kill
from tests.support.helpers import login
from tests.support.rooms import (
    ROLES, SLUG, choose, form_post, master, page, player, post_as, room_path, send, start, tokens_in,
)

SINCE = "/since/"


def poll(client, key: str, token: str = "0"):
    return client.get(room_path(key, SINCE + token))


def test_nothing_new_is_204_and_news_are_the_new_posts_as_list_items(app, factory, clock):
    start(app, factory, clock)
    carla = player(app, "Carla")
    assert poll(carla, "piazza").status_code == 204  # a room nobody wrote in yet
    post_as(app, factory, clock, "Anna", "piazza", "Primo <em>messaggio</em>")
    first = poll(carla, "piazza")
    assert first.status_code == 200 and first.mimetype == "text/html"
    html = first.get_data(as_text=True)
    assert html.lstrip().startswith('<li id="') and "Primo &lt;em&gt;messaggio&lt;/em&gt;" in html
    token, = tokens_in(html)
    assert first.headers["X-Newest"] == token
    assert poll(carla, "piazza", token).status_code == 204
    post_as(app, factory, clock, "Bruno", "piazza", "Secondo")
    post_as(app, factory, clock, "Bruno", "lupi", "Nella tana")
    news = poll(carla, "piazza", token).get_data(as_text=True)
    assert "Secondo" in news and "Primo" not in news and "Nella tana" not in news
    assert poll(carla, "piazza", tokens_in(news)[0]).status_code == 204


def test_tokens_of_another_room_or_forged_are_not_found(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "lupi", "Nella tana")
    post_as(app, factory, clock, "Anna", "piazza", "In piazza")
    den, = tokens_in(page(player(app, "Bruno"), "lupi"))
    bruno = player(app, "Bruno")
    assert poll(bruno, "lupi", den).status_code == 204
    assert poll(bruno, "piazza", den).status_code == 404  # a token names a post of one room only
    for forged in ("1", "A" * 22, den[:-1] + ("A" if den[-1] != "A" else "B"), "%2e%2e"):
        assert poll(bruno, "piazza", forged).status_code == 404, forged


def test_a_login_ended_since_is_no_login_for_the_polling_endpoint(app, factory, clock):
    """The session's login is checked in the endpoint's one query, as flask-login's
    loader checks it: a password changed (every session ended) leaves a 401."""
    start(app, factory, clock)
    carla = player(app, "Carla")
    assert poll(carla, "piazza").status_code == 204
    with transaction(factory) as s:
        s.scalar(select(User).where(User.email == "carla@players.test")).set_password("a-new-password")
    assert poll(carla, "piazza").status_code == 401
    assert carla.get(room_path("piazza")).status_code == 302  # the pages say the same: log in again


def test_who_has_no_place_in_the_room_gets_no_answer_about_it(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "lupi", "Nella tana")
    assert poll(app.test_client(), "piazza").status_code == 401
    assert poll(player(app, "Carla"), "lupi").status_code == 403
    assert poll(player(app, "Carla"), "no-such-room").status_code == 403  # the same: nothing told
    outsider = login(app, "master@example.org", "master")
    assert poll(outsider, "lupi").status_code == 200  # the Masters read every room
    with transaction(factory) as s:
        from pbm.operations import ensure_user
        stranger, _ = ensure_user(s, email="zeno@players.test", name="Zeno")
        stranger.set_password("pw-zeno")
    assert poll(login(app, "zeno@players.test", "pw-zeno"), "piazza").status_code == 403


def test_a_reader_who_lost_the_room_gets_403_even_when_nothing_is_new(app, factory, clock):
    """The cheap answer is never given before who reads is asked: a 204 would tell a
    reader removed from the game that the room is there and quiet."""
    gid = start(app, factory, clock)
    dario, carla = player(app, "Dario"), player(app, "Carla")
    assert poll(dario, "piazza").status_code == 204
    assert poll(carla, "piazza").status_code == 204
    with transaction(factory) as s:
        game = s.get(Game, gid)
        mara = s.get(User, game.masters[0].user_id)
        desk.intervene(s, app.config, game, "disqualify", ["Dario"], clock.now(), by=mara)
        seats.substitute(s, app.config, game, game.seat_by_name("Carla"), email="nuova@players.test",
                         now=clock.now(), by=mara)
        s.scalar(select(User).where(User.email == "nuova@players.test")).set_password("pw-nuova")
    assert poll(dario, "piazza").status_code == 403
    assert poll(carla, "piazza").status_code == 403  # her seat is someone else's now
    assert poll(login(app, "nuova@players.test", "pw-nuova"), "piazza").status_code == 204


def test_a_death_moves_the_dead_into_the_ghosts_room_and_a_return_out(app, factory, clock):
    gid = start(app, factory, clock)
    elena = player(app, "Elena")
    assert poll(elena, "ghosts").status_code == 403
    edit_open_state(factory, gid, kill(["Elena"]))
    assert poll(elena, "ghosts").status_code == 204
    assert poll(elena, "piazza").status_code == 204  # the ghosts keep talking in the piazza (§1.11)

    def alive(state):
        for p in state["players"]:
            p["alive"] = True
    edit_open_state(factory, gid, alive)
    assert poll(elena, "ghosts").status_code == 403


def test_more_new_posts_than_a_page_read_the_page_anew(app, factory, clock):
    start(app, factory, clock)
    for n in range(51):
        post_as(app, factory, clock, "Anna", "piazza", f"Messaggio {n}")
    assert poll(player(app, "Carla"), "piazza").status_code == 205


def test_a_post_held_for_review_is_no_news_but_to_the_masters_and_its_author(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "piazza", "Primo")
    carla = player(app, "Carla")
    seen, = tokens_in(poll(carla, "piazza").get_data(as_text=True))
    post_as(app, factory, clock, "Anna", "piazza", "Da trattenere")
    mara = master(app)
    held = tokens_in(page(mara, "piazza"))[-1]
    form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{held}", {"action": "hold"})
    assert poll(carla, "piazza", seen).status_code == 204
    assert "Da trattenere" in poll(player(app, "Anna"), "piazza", seen).get_data(as_text=True)
    assert "Da trattenere" in poll(mara, "piazza", seen).get_data(as_text=True)


def test_nothing_new_costs_one_query_and_loads_nothing(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "piazza", "Primo")
    carla = player(app, "Carla")
    newest, = tokens_in(poll(carla, "piazza").get_data(as_text=True))
    poll(carla, "piazza", newest)  # the state's reckoning is kept from now on
    for key, after, answer in (("piazza", newest, 204), ("lupi", "0", 403)):
        with counting(app) as spent, selects(app) as sent:
            assert poll(carla, key, after).status_code == answer
        assert len(sent) == 1 and "FROM games" in sent[0]  # one query, the login's token checked in it
        assert not spent.loaded  # no User, no Game, no Seat loaded: no state read


@contextmanager
def selects(app):
    """The SELECT statements sent while the block runs."""
    sent: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            sent.append(statement)

    engine = app.extensions["pbm_engine"]
    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", seen)


# --------------------------------------------------------------------------- the reckoning and the authority

def _viewers(factory, gid: int) -> list[tuple[str, int | None, bool]]:
    """(label, seat id, master) of every seat and of the Master."""
    with factory() as s:
        game = s.get(Game, gid)
        out = [(seat.name, seat.id, False) for seat in game.seats]
        return out + [("master", None, True)]


def _agree(factory, gid: int, moment: str) -> None:
    with factory() as s:
        game = s.get(Game, gid)
        keys = [spec.key for spec in talk.rooms_of(game).specs()]
        keys += list(s.scalars(select(RoomRow.key).where(RoomRow.game_id == gid, RoomRow.kind == "whisper")))
        for label, seat_id, is_master in _viewers(factory, gid):
            seat = s.get(Seat, seat_id) if seat_id else None
            user_id = seat.user_id if seat else game.masters[0].user_id
            who = rooms_access.asker(s, SLUG, user_id)
            held = {h.key for h in rooms_access.rooms_held(s, who)}
            if seat is not None:  # the reserved page's asker, from what it has read, is the same
                state_text = s.scalar(select(cast(Game.state, Text)).where(Game.id == gid))
                assert rooms_access.seated_asker(game, seat, state_text) == who, (moment, label)
            every = {p.key: p for p in talk.places(s, game, seat, master=is_master)}
            authority = set(every)
            assert held == authority, (moment, label)
            for key in keys + ["no-such-room"]:
                cheap = rooms_access.poll(s, SLUG, key, user_id).reads
                assert cheap == (key in authority), (moment, label, key)
                # place_of asks of one room what places finds of it
                assert talk.place_of(s, game, key, seat, master=is_master) == every.get(key), (moment, label, key)


def test_the_reckoning_agrees_with_the_rules_at_every_moment(app, factory, clock):
    gid = start(app, factory, clock)
    moments = []

    def step(name: str, change=None) -> None:
        if change is not None:
            change()
        moments.append(name)
        _agree(factory, gid, name)

    def whisper(name: str, others: list[str]):
        def change() -> None:
            with transaction(factory) as s:
                game = s.get(Game, gid)
                talk.open_whisper(s, app.config, game, game.seat_by_name(name),
                                  [game.seat_by_name(o) for o in others], clock.now())
        return change

    def masters(action: str, names: list[str]):
        def change() -> None:
            with transaction(factory) as s:
                game = s.get(Game, gid)
                mara = s.get(User, game.masters[0].user_id)
                if action == "substitute":
                    seats.substitute(s, app.config, game, game.seat_by_name(names[0]), email="nuova@players.test",
                                     now=clock.now(), by=mara)
                else:
                    desk.intervene(s, app.config, game, action, names, clock.now(), by=mara)
        return change

    step("dealt")
    step("whispers opened", lambda: (whisper("Carla", ["Dario"])(), whisper("Anna", ["Elena", "Bruno"])()))
    step("Elena dead", lambda: edit_open_state(factory, gid, kill(["Elena"])))
    step("Anna dead too", masters("kill", ["Anna"]))
    step("the Masters no longer read whispers", lambda: choose(factory, gid, masters_read_whispers=False))
    step("the dead only read", lambda: choose(factory, gid, dead_read_only=True, masters_read_whispers=True))
    step("Carla's seat to a substitute", masters("substitute", ["Carla"]))
    step("Dario disqualified", masters("disqualify", ["Dario"]))
    step("the game ended", masters("end", ["Villaggio"]))
    with factory() as s:
        assert s.get(Game, gid).status == "over"
    assert len(moments) == 9


@pytest.mark.parametrize("name", sorted(ROLES))
def test_every_player_can_poll_each_room_they_have(app, factory, clock, name):
    start(app, factory, clock)
    client = player(app, name)
    for key, title in (("piazza", "Piazza"), ("lupi", "Tana dei Lupi")):
        listed = title in client.get(f"/g/{SLUG}/rooms").get_data(as_text=True)
        assert poll(client, key).status_code == (204 if listed else 403), key
        assert send(client, key, f"{name} in {key}").status_code == (302 if listed else 403), key
