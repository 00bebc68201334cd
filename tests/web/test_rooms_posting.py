"""Posting in a room by web (issue 30): what is posted reaches the room's page escaped,
never run; every refusal (empty, too long, the piazza's night silence, the dead who only
read, a locked room, a player silenced, a room one is not in, a body over the request
limit) answers in the reader's language, keeps the text in the composer and stores
nothing; the Masters write in every room."""
from __future__ import annotations

from datetime import timedelta

from pbm.operations import rooms as talk

from tests.support.forms import edit_open_state, kill
from tests.support.rooms import (
    form_post, master, page, player, posts, room_path, send, start,
)


def test_a_post_reaches_its_room_escaped_and_no_other_page(app, factory, clock):
    start(app, factory, clock)
    anna = player(app, "Anna")
    r = send(anna, "piazza", "Ciao a tutti <script>alert('x')</script> <b>grassetto</b>")
    assert r.status_code == 302 and r.headers["Location"].endswith("/rooms/piazza#composer")
    assert send(anna, "lupi", "Stanotte <i>Carla</i>?").status_code == 302

    carla = player(app, "Carla")
    seen = page(carla, "piazza")
    assert "Ciao a tutti &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &lt;b&gt;grassetto&lt;/b&gt;" in seen
    assert "<script>alert" not in seen and "<b>grassetto" not in seen
    assert "Anna" in seen  # a signed room
    assert "Stanotte &lt;i&gt;Carla&lt;/i&gt;?" in page(player(app, "Bruno"), "lupi")
    # Carla is no Lupo: the den answers 403 and says nothing of itself, nor does any of her pages.
    den = carla.get(room_path("lupi"))
    assert den.status_code == 403
    for path in ("/g/test-game/rooms", room_path("piazza"), "/g/test-game/me", "/g/test-game/"):
        text = carla.get(path).get_data(as_text=True)
        assert "Stanotte" not in text and "Tana dei Lupi" not in text, path
    assert posts(factory) == [("piazza", "Anna", "Ciao a tutti <script>alert('x')</script> <b>grassetto</b>"),
                              ("lupi", "Anna", "Stanotte <i>Carla</i>?")]


def test_an_empty_or_too_long_post_is_refused_with_its_text_kept(app, factory, clock):
    start(app, factory, clock, langs={"Dario": "en"})
    carla = player(app, "Carla")
    empty = send(carla, "piazza", "  \n\n ")
    assert empty.status_code == 422
    assert "Il messaggio è vuoto" in empty.get_data(as_text=True)
    long_text = "Parola " * 800  # 5,600 characters, over the 4,000 of a post
    too_long = send(carla, "piazza", long_text)
    html = too_long.get_data(as_text=True)
    assert too_long.status_code == 422
    assert "troppo lungo" in html and "4000" in html
    assert f">{long_text}</textarea>" in html  # the composer gives the text back, whole
    dario = send(player(app, "Dario"), "piazza", "")
    assert "The message is empty" in dario.get_data(as_text=True)  # his language
    assert posts(factory) == []


def test_a_body_over_the_request_limit_is_refused_before_it_is_read(app, factory, clock):
    start(app, factory, clock)
    r = send(player(app, "Carla"), "piazza", "x" * (1024 * 1024 + 10))
    assert r.status_code == 413
    assert "troppo grande" in r.get_data(as_text=True).lower()
    assert posts(factory) == []


def test_night_silence_closes_the_piazza_at_night_and_keeps_the_text(app, factory, clock):
    start(app, factory, clock, night_silence=True)  # the game opens on night 1
    carla = player(app, "Carla")
    r = send(carla, "piazza", "Chi ha paura del buio?")
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "Di notte la piazza tace" in html and ">Chi ha paura del buio?</textarea>" in html
    assert "Di notte la piazza tace" in page(carla, "piazza")  # said before she tries, too
    assert 'id="compose"' not in page(carla, "piazza")
    assert send(player(app, "Anna"), "lupi", "Noi invece parliamo").status_code == 302  # the den is no piazza
    assert posts(factory) == [("lupi", "Anna", "Noi invece parliamo")]


def test_the_dead_only_read_where_the_masters_chose_so(app, factory, clock):
    gid = start(app, factory, clock, dead_read_only=True)
    edit_open_state(factory, gid, kill(["Elena"]))
    elena = player(app, "Elena")
    r = send(elena, "piazza", "Sono stata uccisa da Anna!")
    assert r.status_code == 422 and "i morti leggono ma non scrivono" in r.get_data(as_text=True)
    assert "Sono stata uccisa da Anna!" in r.get_data(as_text=True)  # in the composer
    assert send(elena, "ghosts", "Ciao fantasmi").status_code == 302  # the ghosts' room is theirs
    assert posts(factory) == [("ghosts", "Elena", "Ciao fantasmi")]


def test_a_locked_room_is_read_and_written_by_the_masters_alone(app, factory, clock):
    start(app, factory, clock)
    mara = master(app)
    assert form_post(mara, "/g/test-game/master/rooms/piazza/lock", {"locked": "1"}).status_code == 302
    carla = player(app, "Carla")
    r = send(carla, "piazza", "Posso parlare?")
    assert r.status_code == 422 and "Il Master ha chiuso questa stanza" in r.get_data(as_text=True)
    assert send(mara, "piazza", "La piazza riapre domani.").status_code == 302
    assert "La piazza riapre domani." in page(carla, "piazza")
    form_post(mara, "/g/test-game/master/rooms/piazza/lock", {"locked": "0"})
    assert send(carla, "piazza", "Grazie!").status_code == 302
    assert [b for _k, _s, b in posts(factory)] == ["La piazza riapre domani.", "Grazie!"]


def test_a_player_silenced_in_a_room_writes_again_when_the_hours_pass(app, factory, clock):
    start(app, factory, clock)
    mara = master(app)
    assert form_post(mara, "/g/test-game/master/rooms/piazza/silence",
                     {"player": "Carla", "hours": "2"}).status_code == 302
    carla = player(app, "Carla")
    r = send(carla, "piazza", "Non mi zittirete")
    assert r.status_code == 422 and "ti ha tolto la parola" in r.get_data(as_text=True)
    assert send(carla, "lupi", "x").status_code == 403  # silenced in one room: not let into another
    assert send(player(app, "Dario"), "piazza", "Io posso").status_code == 302  # only Carla
    bad = form_post(mara, "/g/test-game/master/rooms/piazza/silence", {"player": "Carla", "hours": "1000"},
                    follow=True)
    assert "168" in bad.get_data(as_text=True)  # a week at most, said in words
    clock.set(clock.now() + timedelta(hours=2, minutes=1))
    assert send(carla, "piazza", "Eccomi di nuovo").status_code == 302
    assert [b for _k, _s, b in posts(factory)] == ["Io posso", "Eccomi di nuovo"]


def test_a_room_one_is_not_in_answers_403_whether_or_not_it_exists(app, factory, clock):
    start(app, factory, clock)
    carla = player(app, "Carla")
    for key in ("lupi", "ghosts", "no-such-room", "w0123456789"):
        assert send(carla, key, "Fatemi entrare").status_code == 403, key
        assert carla.get(room_path(key)).status_code == 403, key
    outsider = app.test_client()
    assert outsider.get(room_path("piazza")).status_code == 302  # to the log-in page
    assert posts(factory) == []


def test_the_masters_write_in_every_room_under_their_own_name(app, factory, clock):
    gid = start(app, factory, clock)
    edit_open_state(factory, gid, kill(["Elena"]))
    mara = master(app)
    for key in ("piazza", "lupi", "ghosts"):
        assert send(mara, key, f"Le Master in {key}").status_code == 302, key
    assert [(k, s) for k, s, _b in posts(factory)] == [("piazza", "Master Mara"), ("lupi", "Master Mara"),
                                                       ("ghosts", "Master Mara")]
    with factory() as s:
        from pbm.models import Game
        game = s.get(Game, gid)
        assert [p.key for p in talk.places(s, game, None, master=True)] == ["piazza", "lupi", "ghosts"]
