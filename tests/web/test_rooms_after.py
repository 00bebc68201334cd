"""The rooms as the game goes on and after it (issue 30): a substitute takes the seat's
rooms and their history, its former player and a disqualified one lose them; once the
game is over the rooms the Masters chose to keep go into the archive beside the reveal
(every room of the rules, the plenary one only, or none; never the whispers), and the
plenary room has an Atom feed, public only when the archive is."""
from __future__ import annotations

from xml.etree import ElementTree

import pytest
from sqlalchemy import select

from pbm.db import transaction
from pbm.models import Game, User
from pbm.operations import desk, seats
from pbm.operations import rooms as talk

from tests.support.helpers import login
from tests.support.rooms import (
    SLUG, choose, form_post, master, page, player, post_as, room_path, start, tokens_in,
)

ATOM = "{http://www.w3.org/2005/Atom}"


def _masters(factory, gid, work) -> None:
    with transaction(factory) as s:
        game = s.get(Game, gid)
        work(s, game, s.get(User, game.masters[0].user_id))


def test_a_substitute_reads_the_seats_rooms_and_history_and_the_old_player_loses_them(app, factory, clock):
    gid = start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "lupi", "Domani votiamo Carla")
    carla = player(app, "Carla")
    key = form_post(carla, f"/g/{SLUG}/rooms/whisper", {"with": ["Dario"]}).headers["Location"].rsplit("/", 1)[-1]
    post_as(app, factory, clock, "Carla", key, "Dario, fidati di me")
    post_as(app, factory, clock, "Carla", "piazza", "Sono la Veggente")

    def hand_over(s, game, mara):
        seats.substitute(s, app.config, game, game.seat_by_name("Carla"), email="nora@new.test", name="Nora",
                         now=clock.now(), by=mara)
        s.flush()
        s.scalar(select(User).where(User.email == "nora@new.test")).set_password("pw-nora")
        seats.substitute(s, app.config, game, game.seat_by_name("Anna"), email="olga@new.test", name="Olga",
                         now=clock.now(), by=mara)
        s.flush()
        s.scalar(select(User).where(User.email == "olga@new.test")).set_password("pw-olga")
    _masters(factory, gid, hand_over)

    nora = login(app, "nora@new.test", "pw-nora")
    assert "Dario, fidati di me" in page(nora, key) and "Sono la Veggente" in page(nora, "piazza")
    assert "Domani votiamo Carla" in page(login(app, "olga@new.test", "pw-olga"), "lupi")  # the den's history
    for path in (room_path(key), room_path("piazza"), room_path("piazza", "/since/0"), f"/g/{SLUG}/rooms"):
        assert carla.get(path).status_code == 403, path
    assert player(app, "Anna").get(room_path("lupi")).status_code == 403

    _masters(factory, gid, lambda s, game, mara: desk.intervene(s, app.config, game, "disqualify", ["Dario"],
                                                                 clock.now(), by=mara))
    dario = player(app, "Dario")
    for path in (room_path(key), room_path("piazza"), room_path(key, "/since/0")):
        assert dario.get(path).status_code == 403, path
    assert "Dario, fidati di me" not in dario.get(f"/g/{SLUG}/me").get_data(as_text=True)


def _ended(app, factory, clock, **choices) -> int:
    gid = start(app, factory, clock)
    if choices:
        choose(factory, gid, **choices)
    post_as(app, factory, clock, "Anna", "piazza", "In piazza, per tutti")
    post_as(app, factory, clock, "Anna", "lupi", "Nella tana, tra noi")
    post_as(app, factory, clock, "Carla", "piazza", "Un messaggio poi rimosso")
    post_as(app, factory, clock, "Carla", "piazza", "Un messaggio trattenuto")
    mara = master(app)
    removed, held = tokens_in(page(mara, "piazza"))[-2:]
    form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{removed}", {"action": "remove"})
    form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{held}", {"action": "hold"})
    key = form_post(player(app, "Carla"), f"/g/{SLUG}/rooms/whisper",
                    {"with": ["Dario"]}).headers["Location"].rsplit("/", 1)[-1]
    post_as(app, factory, clock, "Carla", key, "Un segreto sussurrato")
    return gid


def _end(app, factory, clock, gid) -> None:
    _masters(factory, gid, lambda s, game, mara: desk.intervene(s, app.config, game, "end", ["Villaggio"],
                                                                 clock.now(), by=mara))


def test_during_the_game_the_archive_of_the_rooms_is_the_masters_alone(app, factory, clock):
    _ended(app, factory, clock)
    anonymous, carla = app.test_client(), player(app, "Carla")
    for client in (anonymous, carla):
        assert client.get(f"/g/{SLUG}/reveal/rooms/piazza").status_code == 404
        assert client.get(f"/g/{SLUG}/piazza.atom").status_code == 404
    mara = master(app)
    assert "In piazza, per tutti" in mara.get(f"/g/{SLUG}/reveal/rooms/piazza").get_data(as_text=True)
    assert mara.get(f"/g/{SLUG}/piazza.atom").status_code == 200


@pytest.mark.parametrize("archive,kept", [(None, {"piazza"}), ("plenary", {"piazza"}),
                                          ("all", {"piazza", "lupi"}), ("none", set())])
def test_after_the_game_the_archive_keeps_the_rooms_the_masters_chose(app, factory, clock, archive, kept):
    gid = _ended(app, factory, clock, **({"archive": archive} if archive else {}))
    _end(app, factory, clock, gid)
    public = app.test_client()
    reveal = public.get(f"/g/{SLUG}/reveal").get_data(as_text=True)
    for key, text in (("piazza", "In piazza, per tutti"), ("lupi", "Nella tana, tra noi")):
        r = public.get(f"/g/{SLUG}/reveal/rooms/{key}")
        if key in kept:
            assert r.status_code == 200 and text in r.get_data(as_text=True)
            assert f'href="/g/{SLUG}/reveal/rooms/{key}"' in reveal
        else:
            assert r.status_code == 404 and f"/reveal/rooms/{key}" not in reveal
    with factory() as s:
        whisper = s.scalar(select(talk.RoomRow.key).where(talk.RoomRow.kind == "whisper"))
    assert public.get(f"/g/{SLUG}/reveal/rooms/{whisper}").status_code == 404  # never the whispers
    if "piazza" in kept:
        shown = public.get(f"/g/{SLUG}/reveal/rooms/piazza").get_data(as_text=True)
        assert "rimosso dal Master" in shown and "poi rimosso" not in shown and "trattenuto" not in shown
    for path in (f"/g/{SLUG}/reveal", f"/g/{SLUG}/reveal/rooms/piazza", f"/g/{SLUG}/piazza.atom"):
        text = public.get(path).get_data(as_text=True)
        assert "Un segreto sussurrato" not in text and "Un messaggio trattenuto" not in text, path


def test_the_plenary_rooms_feed_is_public_once_the_archive_is(app, factory, clock):
    gid = _ended(app, factory, clock)
    _end(app, factory, clock, gid)
    r = app.test_client().get(f"/g/{SLUG}/piazza.atom")
    assert r.status_code == 200 and r.mimetype == "application/atom+xml"
    feed = ElementTree.fromstring(r.data)
    entries = feed.findall(f"{ATOM}entry")
    contents = [e.find(f"{ATOM}content").text for e in entries]
    assert contents == ["rimosso dal Master", "In piazza, per tutti"]  # newest first, nothing held
    assert [e.find(f"{ATOM}author/{ATOM}name").text for e in entries] == ["Carla", "Anna"]
    assert all(e.find(f"{ATOM}link").get("href").startswith(f"http://lupus.test/g/{SLUG}/reveal/rooms/piazza#")
               for e in entries)
    choose(factory, gid, archive="none")
    assert app.test_client().get(f"/g/{SLUG}/piazza.atom").status_code == 404
