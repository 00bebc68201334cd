"""Substitutes: the Master hands a seat to a newcomer mid-game. The seat keeps its
role, history and submissions; the newcomer gets the role letter and every private
result the seat has had; the old player loses access at once (reserved area and
reply token); the bulletin says so; the record keeps who played which phases."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from pbm import operations
from pbm.db import transaction
from pbm.models import ActionRow, Game, MasterLog, OutboxRow, SeatHolder, User
from pbm.operations import seats

from tests.support.helpers import login
from tests.support.play import played_a_day
from tests.support.play import submit
from tests.conftest import csrf_from
from tests.support.mail import deliver, game, latest_sent, message, run_mail, votes  # noqa: F401 (game: a fixture)


def _game(s, slug):
    return s.query(Game).filter_by(slug=slug).one()


def hand_over(app, clock, slug, seat="Dario", email="zoe@new.test", **kw):
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        game = _game(s, slug)
        master = s.get(User, game.masters[0].user_id)
        seats.substitute(s, app.config, game, game.seat_by_name(seat), email=email, name="Zoe",
                         now=clock.now(), by=master, **kw)


def test_newcomer_gets_the_seat_its_letter_and_history_and_the_old_player_is_locked_out(app, clock):
    slug = played_a_day(app, clock)  # night 2 open: Carla (Veggente) burned on day 1
    factory = app.extensions["pbm_sessions"]
    submit(app, clock, slug, "Anna", {"target": "Dario"})  # the wolves' choice, kept by the seat
    with factory() as s:
        game = _game(s, slug)
        old_token = game.seat_by_name("Anna").token
        deadline = operations.current_phase(s, game).ends_at
        before_letter = (s.query(OutboxRow).filter_by(kind="role_letter", to_addr="anna@players.test")
                         .one().body)
    old = login(app, "anna@players.test", "pw-anna")
    assert old.get(f"/g/{slug}/me").status_code == 200
    hand_over(app, clock, slug, seat="Anna", announced_as="Zoe", extend_by=timedelta(hours=2))

    with factory() as s:
        game = _game(s, slug)
        seat = game.seat_by_name("Anna")
        assert seat.user.email == "zoe@new.test"
        assert seat.token != old_token  # replies with the old token no longer count
        # The seat's submission of this phase is still there, and still the seat's.
        assert s.scalar(select(ActionRow.args).where(ActionRow.seat_id == seat.id)
                        .order_by(ActionRow.id.desc()).limit(1)) == {"target": "Dario"}
        history = s.scalars(select(SeatHolder).where(SeatHolder.seat_id == seat.id)
                            .order_by(SeatHolder.id)).all()
        assert [(h.user.email, h.from_phase, h.to_phase) for h in history] == [
            ("anna@players.test", 0, 1), ("zoe@new.test", 2, None)]
        welcome = s.query(OutboxRow).filter_by(kind="substitute_welcome", to_addr="zoe@new.test").one()
        assert "/password-reset/" in welcome.body  # a new account chooses its password
        phase = operations.current_phase(s, game)
        assert phase.ends_at == deadline + timedelta(hours=2)
        told = s.query(OutboxRow).filter_by(kind="substitute_announced").all()
        assert {m.to_addr for m in told} == {st.user.email for st in game.seats}
        assert all("Zoe prende il posto di Anna" in m.body for m in told)
        assert s.query(MasterLog).filter_by(game_id=game.id, action="substitute").count() == 1

    # Every line of the role letter the old player had is in the newcomer's mail.
    for line in before_letter.splitlines():
        if line.startswith(("Sei", "Il tuo", "Lupi", "Il tuo branco")) or "Lupo" in line:
            assert line.strip() in welcome.body
    assert "Bruno" in welcome.body  # the pack: the other wolf

    # The old player is locked out at once.
    assert old.get(f"/g/{slug}/me").status_code == 403
    # The newcomer sees the seat's reserved area: role and history.
    with transaction(factory) as s:
        s.query(User).filter_by(email="zoe@new.test").one().set_password("pw-zoe")
    new = login(app, "zoe@new.test", "pw-zoe")
    area = new.get(f"/g/{slug}/me").get_data(as_text=True)
    assert "Lupo Mannaro" in area and "Bruno" in area


def test_old_token_is_refused_by_mail(app, clock):
    """The inbox ties a reply to a seat by its token: the old one ties it to nothing."""
    slug = played_a_day(app, clock)
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        old_token = _game(s, slug).seat_by_name("Dario").token
    hand_over(app, clock, slug)
    with factory() as s:
        from pbm.models import Seat
        assert s.query(Seat).filter_by(token=old_token).first() is None


def test_bulletin_of_the_phase_says_a_substitute_came(app, clock):
    slug = played_a_day(app, clock)
    hand_over(app, clock, slug, seat="Dario", announced_as="")
    hand_over(app, clock, slug, seat="Elena", email="yuri@new.test", announced_as="Yuri")
    # The arrival belongs to the open phase (night 2): shown once that phase is published.
    from tests.support.play import pass_boundary
    from datetime import datetime, timezone
    pass_boundary(app, clock, datetime(2026, 11, 25, 8, 30, tzinfo=timezone.utc))
    page = app.test_client().get(f"/g/{slug}/phases/3").get_data(as_text=True)
    feed = app.test_client().get(f"/g/{slug}/bulletin.atom").get_data(as_text=True)
    for text in (page, feed):
        assert "Dario" in text and "Yuri" in text
        assert "zoe@new.test" not in text and "Zoe" not in text  # the Master chose no name for Dario's
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        _game(s, slug)
        results = (s.query(OutboxRow).filter_by(kind="phase_results", to_addr="anna@players.test")
                   .order_by(OutboxRow.id.desc()).first())
    # The results mail of that phase says it too, in the bulletin part, in both forms.
    bulletin = results.body[results.body.index("BOLLETTINO"):]
    assert "Qualcun altro prende il posto di Dario." in bulletin
    assert "Yuri prende il posto di Elena." in bulletin
    assert "Yuri prende il posto di Elena." in results.html
    assert "Zoe" not in results.body


def test_a_seat_cannot_go_to_someone_already_playing_or_a_master(app, clock):
    slug = played_a_day(app, clock)
    import pytest
    with pytest.raises(operations.OperationError) as exc:
        hand_over(app, clock, slug, seat="Dario", email="elena@players.test")
    assert exc.value.code == "email_taken"
    with pytest.raises(operations.OperationError) as exc:
        hand_over(app, clock, slug, seat="Dario", email="master@example.org")
    assert exc.value.code == "master_plays"


def test_volunteers_and_the_desk_form(app, clock):
    slug = played_a_day(app, clock)
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        u, _ = operations.ensure_user(s, email="vera@vol.test", name="Vera")
        u.set_password("pw-vera")
    vera = login(app, "vera@vol.test", "pw-vera")
    home = vera.get(f"/g/{slug}/").get_data(as_text=True)
    assert 'id="volunteer"' in home
    r = vera.post(f"/g/{slug}/volunteer", data={"csrf_token": csrf_from(home)})
    assert r.status_code == 302
    # A player of the game is offered no button.
    anna = login(app, "anna@players.test", "pw-anna")
    assert 'id="volunteer"' not in anna.get(f"/g/{slug}/").get_data(as_text=True)
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    assert "vera@vol.test" in desk
    r = master.post(f"/g/{slug}/master/substitute", data={
        "csrf_token": csrf_from(desk), "seat": "Giulia", "volunteer": "vera@vol.test",
        "announced_as": "Vera", "extend_hours": "0"})
    assert r.status_code == 302
    with factory() as s:
        game = _game(s, slug)
        assert game.seat_by_name("Giulia").user.email == "vera@vol.test"
        assert seats.volunteers(s, game) == []  # off the list once seated
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    assert '<td class="addr">vera@vol.test' in desk and '<td class="addr">giulia@players.test' not in desk  # the players' table
    assert "Giulia: Giulia (fasi 1–2); Vera (dalla fase 3)" in desk or "Giulia: Giulia (phases 1–2); Vera (from phase 3)" in desk


def test_by_mail_the_old_token_plays_nothing_and_the_newcomers_does(app, factory, game):
    """The mail channel follows the seat: the old player's reply (old token, old address)
    records nothing; the newcomer's reply to the hand-over mail votes for the seat."""
    gid, worker = game
    with factory() as s:
        email = s.get(Game, gid).seat_by_name("Dario").user.email
    old_mail = latest_sent(factory, email)
    with transaction(factory) as s:
        g = s.get(Game, gid)
        seats.substitute(s, app.config, g, g.seat_by_name("Dario"), email="zoe@new.test", name="Zoe",
                         now=worker.clock.now(),
                         by=s.get(User, g.masters[0].user_id))
    deliver(app, message(email, old_mail.reply_to, "VOTO Carla", reply_to_row=old_mail))
    run_mail(app, worker)
    assert votes(factory) == []
    welcome = latest_sent(factory, "zoe@new.test", kind="substitute_welcome")
    deliver(app, message("zoe@new.test", welcome.reply_to, "VOTO Carla", reply_to_row=welcome))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Carla", "mail")]


def test_only_the_masters_hand_a_seat_over_and_every_form_needs_its_token(app, clock):
    slug = played_a_day(app, clock)
    anna = login(app, "anna@players.test", "pw-anna")
    page = anna.get(f"/g/{slug}/me").get_data(as_text=True)
    r = anna.post(f"/g/{slug}/master/substitute", data={
        "csrf_token": csrf_from(page), "seat": "Bruno", "email": "anna2@players.test"})
    assert r.status_code == 403
    master = login(app, "master@example.org", "master")
    assert master.post(f"/g/{slug}/master/substitute", data={
        "seat": "Bruno", "email": "x@new.test"}).status_code == 400  # no CSRF token
    assert anna.post(f"/g/{slug}/absence", data={"first_day": "2026-11-26",
                                                 "last_day": "2026-11-27"}).status_code == 400
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        assert _game(s, slug).seat_by_name("Bruno").user.email == "bruno@players.test"


def test_the_newcomer_is_greeted_by_their_own_name(app, clock):
    """Issue 31: every later mail greeted the newcomer with the seat's old name ("Ciao
    Anna"); the leaving player is told (seat_left), and never as "a substitute"."""
    from pbm.worker import Worker
    slug = played_a_day(app, clock)
    factory = app.extensions["pbm_sessions"]
    hand_over(app, clock, slug, seat="Anna", announced_as="Zoe")
    with factory() as s:
        told = s.query(OutboxRow).filter_by(kind="seat_left", to_addr="anna@players.test").one()
        assert "Anna" in told.body and "sostituto" not in told.body
    clock.advance(days=1)
    Worker(app, clock).boundaries()
    with factory() as s:
        later = (s.query(OutboxRow).filter_by(kind="phase_results", to_addr="zoe@new.test")
                 .order_by(OutboxRow.id.desc()).first())
    assert later is not None and later.body.startswith("Ciao Zoe,"), later.body[:80]
