"""When something goes wrong the reader is told, in their language, and told
whether what they sent was recorded."""
from __future__ import annotations

import sqlite3

from sqlalchemy import event

from pbm.models import ActionRow
from pbm.worker import Worker

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game
from tests.service.boundary.test_full_day import ROLES, TUESDAY_0930_ROME


def test_an_unknown_address_is_a_page_in_the_readers_language(app):
    client = app.test_client()
    it = client.get("/g/no-such-game/", headers={"Accept-Language": "it"})
    en = client.get("/g/no-such-game/", headers={"Accept-Language": "en"})
    assert (it.status_code, en.status_code) == (404, 404)
    assert "Pagina non trovata" in it.get_data(as_text=True)
    assert "Page not found" in en.get_data(as_text=True)


def test_a_vote_sent_while_the_database_is_held_says_it_was_not_recorded(make_app, tmp_path, clock):
    # SQLite here whatever PBM_TEST_DATABASE says: the test holds its single write lock.
    url = f"sqlite:///{tmp_path / 'held.sqlite3'}"
    app = make_app(DATABASE_URL=url)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Elena")
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()  # night 1 -> day 1

    # Wait 0.2 s for a lock instead of the 30 s a real deployment waits.
    engine = app.extensions["pbm_engine"]
    event.listen(engine, "connect", lambda conn, _rec: conn.execute("PRAGMA busy_timeout=200"))
    engine.dispose()

    client = login(app, "carla@players.test", "pw-carla")
    page = client.get("/g/test-game/me").get_data(as_text=True)
    form = {"vote-csrf_token": csrf_from(page), "vote-kind": "vote", "vote-vote": "Anna"}

    holder = sqlite3.connect(url[len("sqlite:///"):], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing: a boundary being resolved
    try:
        r = client.post("/g/test-game/act", data=form)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.status_code == 503
    text = r.get_data(as_text=True)
    assert "NON è stato registrato" in text
    with factory() as s:
        assert s.query(ActionRow).filter_by(kind="vote").count() == 0

    client.post("/g/test-game/act", data=form)  # a minute later
    with factory() as s:
        assert [(a.seat.name, a.args["vote"]) for a in s.query(ActionRow).filter_by(kind="vote")] == [("Carla", "Anna")]


def test_a_crash_is_a_page_in_the_readers_language_saying_nothing_was_recorded(app):
    def crash():
        raise RuntimeError("a bug")

    app.add_url_rule("/crash", "crash", crash)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the handler, not the test, sees it
    r = app.test_client().get("/crash", headers={"Accept-Language": "it"})
    assert r.status_code == 500
    assert "NON è stato registrato" in r.get_data(as_text=True)
