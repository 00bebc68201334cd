"""Reading the rooms by web (issue 30): the unread counts in the menu and on the reserved
page, a visit that marks a room read, a room page that reads a page of posts however
long the room (and an "older" link by token), the Masters' hold and removal as each
reader sees them, reports on the desk, whispers visible to their members (and to the
Masters as the game's settings say), and the Masters' talk choices from the desk."""
from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import insert, select
from sqlalchemy import text as sql

from pbm.models import Game
from pbm.talk_models import PostRow, RoomRow
from pbm.db import transaction

from tests.support.cost import counting, database_work
from tests.support.rooms import (
    SLUG, choose, form_post, master, page, player, post_as, posts, room_path, send, start, tokens_in,
    unread_badge,
)


def _reserved_counts(html: str) -> dict[str, str]:
    block = html[html.index('id="rooms-block"'):]
    block = block[:block.index("</section>")]
    return dict(re.findall(r'>([^<>]+)</a>(?: <span class="unread">([^<]+)</span>)?', block))


def test_unread_counts_in_the_menu_and_on_the_reserved_page(app, factory, clock):
    start(app, factory, clock)
    anna = player(app, "Anna")
    for text in ("Buongiorno", "Chi sospettate?"):
        assert send(anna, "piazza", text).status_code == 302
    assert send(anna, "lupi", "Stanotte?").status_code == 302
    bruno, carla = player(app, "Bruno"), player(app, "Carla")
    assert unread_badge(bruno.get(f"/g/{SLUG}/me").get_data(as_text=True)) == 3
    assert _reserved_counts(bruno.get(f"/g/{SLUG}/me").get_data(as_text=True)) == {
        "Piazza": "2 nuovi", "Tana dei Lupi": "1 nuovo"}
    assert unread_badge(carla.get(f"/g/{SLUG}/").get_data(as_text=True)) == 2  # no den for her
    assert _reserved_counts(carla.get(f"/g/{SLUG}/me").get_data(as_text=True)) == {"Piazza": "2 nuovi"}
    assert unread_badge(anna.get(f"/g/{SLUG}/me").get_data(as_text=True)) == 0  # her own posts are read

    page(bruno, "piazza")  # the visit marks the piazza read
    assert unread_badge(bruno.get(f"/g/{SLUG}/rooms").get_data(as_text=True)) == 1
    post_as(app, factory, clock, "Anna", "piazza", "E ora?")  # a post by mail counts alike
    assert unread_badge(bruno.get(f"/g/{SLUG}/rooms").get_data(as_text=True)) == 2
    assert 'class="new-mark"' in page(bruno, "piazza")  # where the new posts begin
    assert form_post(carla, room_path("piazza", "/reading"), {"delivery": "web", "muted": "1"}).status_code == 302
    assert unread_badge(carla.get(f"/g/{SLUG}/me").get_data(as_text=True)) == 0  # a muted room counts none


def test_a_room_page_reads_one_page_of_posts_however_long_the_room(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "piazza", "Il primo messaggio")
    carla = player(app, "Carla")

    def fill(first: int, n: int) -> None:
        with transaction(factory) as s:
            game = s.scalar(select(Game).where(Game.slug == SLUG))
            room = s.scalar(select(RoomRow).where(RoomRow.game_id == game.id, RoomRow.key == "piazza"))
            seat = game.seat_by_name("Dario")
            s.execute(insert(PostRow), [
                {"room_id": room.id, "game_id": game.id, "seat_id": seat.id, "author_id": seat.user_id,
                 "signature": "Dario", "heading": {}, "body": f"Messaggio {i}", "created_at": clock.now(),
                 "via": "web", "status": "shown"} for i in range(first, first + n)])
        if factory.kw["bind"].dialect.name == "postgresql":
            # What autovacuum does once a table has grown by a tenth: the planner then
            # knows the room's length (without it, it plans for the handful it last saw).
            with factory.kw["bind"].connect() as connection:
                connection.execute(sql("ANALYZE posts"))
                connection.commit()

    def cost() -> tuple[int, int, str, int]:
        page(carla, "piazza")  # the reader's place is made once, and the room read
        with counting(app) as spent, database_work(app) as work:
            html = page(carla, "piazza")
        return spent.statements, spent.loaded["PostRow"], html, work.statements

    fill(0, 59)
    few = cost()
    fill(59, 4940)  # 5,000 in all
    many = cost()
    assert few[0] == many[0]  # the same statements for 60 posts and for 5,000
    assert few[1] == many[1] == 51  # a page, and one more to know there are older ones
    # and about the same work of the database: nothing reads the room to its start (the
    # unread counts of the menu once did, 5,000 rows to count none)
    assert many[3] <= few[3] * 1.2 + 5, (few[3], many[3])
    html = many[2]
    shown = [int(n) for n in re.findall(r">Messaggio (\d+)<", html)]
    assert shown == list(range(4949, 4999))  # the newest 50, oldest first
    older = re.search(r'href="/g/test-game/rooms/piazza\?before=([A-Za-z0-9_-]{22})" id="older"', html)
    assert older, "no link to the older posts"
    before = page(carla, "piazza", before=older.group(1))
    assert [int(n) for n in re.findall(r">Messaggio (\d+)<", before)] == list(range(4899, 4949))
    assert carla.get(room_path("piazza"), query_string={"before": "not-a-token"}).status_code == 404
    # Tokens, never ids: nothing on the page counts the posts of the service.
    assert not re.search(r'id="p?\d+"', html)


def test_held_and_removed_posts_as_each_reader_sees_them(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "piazza", "Un messaggio da trattenere")
    post_as(app, factory, clock, "Bruno", "piazza", "Un messaggio da rimuovere")
    mara = master(app)
    held, removed = tokens_in(page(mara, "piazza"))
    assert form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{held}", {"action": "hold"}).status_code == 302
    assert form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{removed}", {"action": "remove"}).status_code == 302

    carla = page(player(app, "Carla"), "piazza")
    assert "da trattenere" not in carla and held not in carla  # held: not even its place
    assert "da rimuovere" not in carla and "rimosso dal Master" in carla and removed in carla
    anna = page(player(app, "Anna"), "piazza")
    assert "Un messaggio da trattenere" in anna and "trattenuto: lo vedete solo tu e i Master" in anna
    assert "Un messaggio da rimuovere" in page(mara, "piazza")  # the Masters still read what was removed
    bruno = page(player(app, "Bruno"), "piazza")
    assert "da rimuovere" not in bruno  # the author too reads only that it was removed
    assert unread_badge(player(app, "Dario").get(f"/g/{SLUG}/me").get_data(as_text=True)) == 0

    form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{held}", {"action": "release"})
    assert "Un messaggio da trattenere" in page(player(app, "Carla"), "piazza")
    # A player cannot moderate, nor a Master with another room's token.
    assert form_post(player(app, "Carla"), f"/g/{SLUG}/master/rooms/piazza/moderate/{held}",
                     {"action": "remove"}).status_code == 403
    assert form_post(mara, f"/g/{SLUG}/master/rooms/lupi/moderate/{held}", {"action": "remove"}).status_code == 404
    with factory() as s:
        assert [p.status for p in s.scalars(select(PostRow).order_by(PostRow.id))] == ["shown", "removed"]


def test_a_reported_post_reaches_the_desk_until_a_master_has_seen_it(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "piazza", "Carla è una bugiarda e una <strega>")
    carla = player(app, "Carla")
    token, = tokens_in(page(carla, "piazza"))
    assert form_post(carla, room_path("piazza", f"/report/{token}"), {"note": "insulti"}).status_code == 302
    assert form_post(carla, room_path("piazza", f"/report/{token}"), {"note": "ancora"}).status_code == 302  # once
    assert form_post(carla, room_path("lupi", f"/report/{token}")).status_code == 403
    desk = master(app).get(f"/g/{SLUG}/master").get_data(as_text=True)
    reports = desk[desk.index('id="reports"'):desk.index("</form>", desk.index('id="reports"'))]
    assert "Carla è una bugiarda e una &lt;strega&gt;" in reports and "insulti" in reports
    assert f'href="/g/{SLUG}/rooms/piazza#{token}"' in reports
    ids = re.findall(r'name="report" value="(\d+)"', reports)
    assert len(ids) == 1
    form_post(master(app), f"/g/{SLUG}/master/reports/seen", {"report": ids})
    assert 'id="reports"' not in master(app).get(f"/g/{SLUG}/master").get_data(as_text=True)


def test_the_desk_shows_each_rooms_posts_today(app, factory, clock):
    start(app, factory, clock)
    post_as(app, factory, clock, "Anna", "lupi", "Ieri")
    clock.set(clock.now() + timedelta(days=1))
    for text in ("Oggi uno", "Oggi due"):
        post_as(app, factory, clock, "Carla", "piazza", text)
    post_as(app, factory, clock, "Bruno", "lupi", "Oggi")
    desk = master(app).get(f"/g/{SLUG}/master").get_data(as_text=True)
    table = desk[desk.index('id="traffic"'):desk.index("</table>", desk.index('id="traffic"'))]
    rows = re.findall(r'<a href="[^"]+">([^<]+)</a>[^<]*</th><td>(\d+)</td><td>(\d+)</td>', table)
    assert sorted(rows) == [("Piazza", "2", "2"), ("Tana dei Lupi", "1", "2")]


def test_a_whisper_is_read_by_its_members_and_by_the_masters_as_the_game_says(app, factory, clock):
    gid = start(app, factory, clock)
    carla = player(app, "Carla")
    assert 'id="open-whisper"' in carla.get(f"/g/{SLUG}/rooms").get_data(as_text=True)
    opened = form_post(carla, f"/g/{SLUG}/rooms/whisper", {"with": ["Dario"]})
    key = opened.headers["Location"].rsplit("/", 1)[-1]
    assert re.fullmatch(r"w[0-9a-f]{10}", key)  # of chance: no count of the game's whispers in it
    assert send(carla, key, "Dario, io sono la Veggente").status_code == 302
    dario = player(app, "Dario")
    assert "Dario, io sono la Veggente" in page(dario, key)
    assert ">Carla, Dario</a>" in dario.get(f"/g/{SLUG}/rooms").get_data(as_text=True)
    elena = player(app, "Elena")
    assert elena.get(room_path(key)).status_code == 403
    assert "Veggente" not in elena.get(f"/g/{SLUG}/rooms").get_data(as_text=True)
    mara = master(app)
    assert "Dario, io sono la Veggente" in page(mara, key)  # the Masters read whispers (the default)

    choose(factory, gid, masters_read_whispers=False)
    assert mara.get(room_path(key)).status_code == 403
    assert ">Carla, Dario</a>" not in mara.get(f"/g/{SLUG}/rooms").get_data(as_text=True)
    choose(factory, gid, whispers=False)
    assert 'id="open-whisper"' not in carla.get(f"/g/{SLUG}/rooms").get_data(as_text=True)
    refused = form_post(carla, f"/g/{SLUG}/rooms/whisper", {"with": ["Elena"]}, follow=True)
    assert "non si aprono conversazioni private" in refused.get_data(as_text=True)
    assert send(carla, key, "E ora?").status_code == 422  # the whisper is read, no longer written
    assert [b for k, _s, b in posts(factory) if k == key] == ["Dario, io sono la Veggente"]


def test_the_masters_choose_the_talk_on_the_desk_in_their_language(app, factory, clock):
    gid = start(app, factory, clock)
    mara = master(app)
    desk = mara.get(f"/g/{SLUG}/master").get_data(as_text=True)
    assert "Silenzio notturno: in piazza si scrive solo di giorno" in desk
    form_post(mara, "/lang/en")
    desk_en = mara.get(f"/g/{SLUG}/master").get_data(as_text=True)
    assert "Night silence: the piazza is written by day only" in desk_en
    r = form_post(mara, f"/g/{SLUG}/master/talk", {"setting-night_silence": "1", "setting-whispers": "1",
                                                   "archive": "all"})
    assert r.status_code == 302
    with factory() as s:
        talk = s.get(Game, gid).talk
    assert talk["archive"] == "all"
    assert talk["settings"] == {"night_silence": True, "dead_read_only": False, "whispers": True,
                                "dead_to_living": False, "masters_read_whispers": False}
    assert form_post(player(app, "Carla"), f"/g/{SLUG}/master/talk", {"archive": "none"}).status_code == 403
    bad = form_post(mara, f"/g/{SLUG}/master/talk", {"archive": "everything"}, follow=True)
    assert "The archive keeps all the rooms" in bad.get_data(as_text=True)


def test_the_menus_counts_are_those_of_operations_rooms_unread(app, factory, clock):
    """The menu counts in the query that lists the rooms (pbm/web/rooms_access.py); the
    authority counts in ``operations.rooms.unread``: the same, whatever was held,
    removed, read, muted or written by the reader."""
    from pbm.models import User
    from pbm.operations import rooms as talk
    from pbm.talk_models import RoomReader
    from pbm.web import rooms_access

    start(app, factory, clock)
    for name, key, text in (("Anna", "piazza", "uno"), ("Anna", "piazza", "due"), ("Bruno", "lupi", "tre"),
                            ("Carla", "piazza", "quattro"), ("Dario", "piazza", "cinque")):
        post_as(app, factory, clock, name, key, text)
    carla = player(app, "Carla")
    key = form_post(carla, f"/g/{SLUG}/rooms/whisper", {"with": ["Dario"]}).headers["Location"].rsplit("/", 1)[-1]
    send(carla, key, "sei")
    mara = master(app)
    first, _second, _third, fourth = tokens_in(page(mara, "piazza"))
    form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{first}", {"action": "hold"})
    form_post(mara, f"/g/{SLUG}/master/rooms/piazza/moderate/{fourth}", {"action": "remove"})
    page(player(app, "Bruno"), "piazza")
    post_as(app, factory, clock, "Anna", "piazza", "sette")
    form_post(player(app, "Elena"), room_path("piazza", "/reading"), {"delivery": "web", "muted": "1"})
    with factory() as s:
        game = s.scalar(select(Game).where(Game.slug == SLUG))
        users = [seat.user for seat in game.seats] + [s.get(User, m.user_id) for m in game.masters]
        rows = list(s.scalars(select(RoomRow).where(RoomRow.game_id == game.id)))
        counted = 0
        for user in users:
            who = rooms_access.asker(s, SLUG, user.id)
            held = rooms_access.rooms_held(s, who)
            readers = {r.room_id: r for r in s.scalars(select(RoomReader).where(RoomReader.user_id == user.id))}
            mine = [(r, readers.get(r.id)) for r in rows if r.key in {h.key for h in held}]
            expected = talk.unread(s, mine, user, master=who.master)
            assert {h.room_id: h.unread for h in held if h.unread} == expected, user.email
            counted += sum(expected.values())
        assert counted > 5  # the comparison had counts to compare
