"""Absences: a player declares one in the reserved area; the Masters see it on the
desk; nothing is paused or extended unless a Master decides it."""
from __future__ import annotations

from pbm.models import Game, MasterLog, OutboxRow

from tests.support.helpers import login
from tests.support.play import played_a_day
from tests.conftest import csrf_from


def declare(client, slug, **fields):
    page = client.get(f"/g/{slug}/me").get_data(as_text=True)
    return client.post(f"/g/{slug}/absence", data={"csrf_token": csrf_from(page), **fields},
                       follow_redirects=True).get_data(as_text=True)


def test_absence_is_shown_to_the_masters_and_changes_nothing_by_itself(app, clock):
    slug = played_a_day(app, clock)  # now: Tuesday 24 November, night 2 open
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        game = s.query(Game).filter_by(slug=slug).one()
        deadline, paused = game.phases[-1].ends_at, game.paused_at
    dario = login(app, "dario@players.test", "pw-dario")
    page = declare(dario, slug, first_day="2026-11-26", last_day="2026-11-29", note="Al mare, senza rete")
    assert "giovedì 26 novembre 2026" in page and "Al mare, senza rete" in page  # the player sees it too
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    section = desk[desk.index('id="absences-desk"'):]
    section = section[:section.index("</section>")]
    assert "Dario" in section and "giovedì 26 novembre 2026" in section and "Al mare, senza rete" in section
    with factory() as s:
        game = s.query(Game).filter_by(slug=slug).one()
        assert (game.phases[-1].ends_at, game.paused_at) == (deadline, paused)
        assert s.query(MasterLog).filter_by(game_id=game.id, action="absence").count() == 1
        # The Masters are told by mail too; the night's deadline (Wednesday 25) is not
        # in the absence, so nothing is flagged as due.
        (mail,) = s.query(OutboxRow).filter_by(kind="absence_declared").all()
        assert mail.to_addr == "master@example.org"
        assert "Dario sarà assente da giovedì 26 novembre 2026 a domenica 29 novembre 2026." in mail.body
        assert "Al mare, senza rete" in mail.body and "scadenza della fase in corso" not in mail.body
    assert "at-deadline" not in section
    # Another player sees nothing of it.
    anna = login(app, "anna@players.test", "pw-anna")
    assert "Al mare" not in anna.get(f"/g/{slug}/me").get_data(as_text=True)
    assert "Al mare" not in app.test_client().get(f"/g/{slug}/").get_data(as_text=True)


def test_bad_dates_get_a_clear_error_and_lose_nothing(app, clock):
    slug = played_a_day(app, clock)
    dario = login(app, "dario@players.test", "pw-dario")
    page = declare(dario, slug, first_day="2026-11-29", last_day="2026-11-26", note="al contrario")
    assert "L&#39;assenza deve finire" in page or "must end on or after" in page
    page = declare(dario, slug, first_day="domani", last_day="", note="")
    assert "come date" in page or "as dates" in page
    page = declare(dario, slug, first_day="2026-11-01", last_day="2026-11-02", note="")
    assert "già finita" in page or "already over" in page
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    assert "al contrario" not in desk


def test_a_player_withdraws_an_absence_and_others_cannot(app, clock):
    slug = played_a_day(app, clock)
    dario = login(app, "dario@players.test", "pw-dario")
    declare(dario, slug, first_day="2026-11-26", last_day="2026-11-27", note="x")
    factory = app.extensions["pbm_sessions"]
    from pbm.models import Absence
    with factory() as s:
        absence_id = s.query(Absence).one().id
    anna = login(app, "anna@players.test", "pw-anna")
    page = anna.get(f"/g/{slug}/me").get_data(as_text=True)
    anna.post(f"/g/{slug}/absence/{absence_id}/withdraw", data={"csrf_token": csrf_from(page)})
    with factory() as s:
        assert s.query(Absence).count() == 1
    page = dario.get(f"/g/{slug}/me").get_data(as_text=True)
    dario.post(f"/g/{slug}/absence/{absence_id}/withdraw", data={"csrf_token": csrf_from(page)})
    with factory() as s:
        assert s.query(Absence).count() == 0


def test_an_absence_over_the_current_deadline_is_flagged(app, clock):
    slug = played_a_day(app, clock)  # night 2 ends on Wednesday 25 November, 09:00 in Rome
    dario = login(app, "dario@players.test", "pw-dario")
    declare(dario, slug, first_day="2026-11-24", last_day="2026-11-25", note="")
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    assert 'class="at-deadline"' in desk
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        mail = s.query(OutboxRow).filter_by(kind="absence_declared").one()
        assert "scadenza della fase in corso" in mail.body
