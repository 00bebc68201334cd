"""Moments that end by an answer window (WINDOW) or by the narrator (NARRATOR),
with the test-only "guess who" ruleset registered for the occasion."""
from __future__ import annotations

from datetime import timedelta, timezone

import pytest

from engine import registry
from engine.core import GameState
from pbm import operations
from pbm.operations import reminders
from pbm.db import transaction
from pbm.models import Game, PhaseRow, User
from pbm.operations import desk, timing
from pbm.worker import Worker

from tests.support import guess_ruleset
from tests.support.helpers import make_game, make_master

UTC = timezone.utc
NAMES = ("Ada", "Ben", "Cleo")
WINDOW = timedelta(minutes=10)


@pytest.fixture(autouse=True)
def guess_registered():
    registry.register(guess_ruleset.KEY, guess_ruleset.__name__)
    yield
    registry._MODULES.pop(guess_ruleset.KEY, None)


def start(app, factory, now, *, narrator: bool = False, window: timedelta | None = WINDOW,
          names: tuple[str, ...] = NAMES) -> int:
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Guess", ruleset=guess_ruleset.KEY, master=master, now=now,
                                      answer_window=window)
        for name in names:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@players.test",
                                  now=now, by=master)
        operations.start_game(s, app.config, game, roles=dict.fromkeys(names, guess_ruleset.GUESSER),
                              options={"narrator": narrator}, now=now, by=master)
        return game.id


def phases(factory, gid):
    with factory() as s:
        return [(p.number, p.status, p.starts_at, p.ends_at)
                for p in s.query(PhaseRow).filter_by(game_id=gid).order_by(PhaseRow.index)]


def wrong_guesses(app, factory, gid, now, who=NAMES):
    with transaction(factory) as s:
        game = s.get(Game, gid)
        secret = game.state["data"]["secret"]
        wrong = next(n for n in NAMES if n != secret)
        for name in who:
            guess = wrong if name != wrong else next(n for n in NAMES if n not in (secret, name))
            operations.submit(s, app.config, game, game.seat_by_name(name), {"vote": guess},
                              source="web", now=now)


def test_each_window_gets_its_whole_time_from_when_it_opens(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    assert phases(factory, gid) == [(1, "open", t0, t0 + WINDOW)]
    late = t0 + WINDOW + timedelta(minutes=3)  # the worker comes by three minutes late
    clock.set(late)
    assert len(Worker(app, clock).boundaries()) == 1
    assert phases(factory, gid)[1] == (2, "open", late, late + WINDOW)


def test_a_window_closes_as_soon_as_everyone_has_answered(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    wrong_guesses(app, factory, gid, t0 + timedelta(minutes=1), who=NAMES[:2])
    assert phases(factory, gid)[0][3] == t0 + WINDOW  # one still to answer: the window stays
    answered = t0 + timedelta(minutes=2)
    wrong_guesses(app, factory, gid, answered, who=NAMES[2:])
    assert phases(factory, gid)[0][3] == answered  # complete: due now
    with pytest.raises(operations.Rejected) as late:  # a second thought after the last answer
        wrong_guesses(app, factory, gid, answered + timedelta(seconds=1), who=NAMES[:1])
    assert late.value.code == "moment_passed"  # too late: that moment has passed
    clock.set(answered + timedelta(seconds=5))  # the worker's next tick
    assert len(Worker(app, clock).boundaries()) == 1
    assert [p[:2] for p in phases(factory, gid)] == [(1, "published"), (2, "open")]


def test_the_answer_window_is_a_setting_of_one_minute_to_two_days(app, factory, clock):
    master_id = make_master(factory)
    for bad in (timedelta(seconds=30), timedelta(days=2, minutes=1)):
        with transaction(factory) as s, pytest.raises(operations.OperationError) as refused:
            operations.create_game(s, name="Guess", ruleset=guess_ruleset.KEY, master=s.get(User, master_id),
                                   now=clock.now(), answer_window=bad)
        assert refused.value.code == "answer_window"
    gid = start(app, factory, clock.now(), window=timedelta(days=2))
    with factory() as s:
        assert timing.answer_window(s.get(Game, gid)) == timedelta(days=2)


def test_one_owner_answers_for_a_games_moments(app, factory, clock):
    """``timing.moments`` is the service's one answer (the boundary, the reminders, the
    pages and the mail ingest ask it): the same ruleset's moments are windows or a
    narrator's as its set-up says, asked of the open moment or of a phase's state; a
    calendar game's phases are on the calendar, and so is a game before the deal."""
    t0 = clock.now()
    cases = {start(app, factory, t0): timing.IN_WINDOWS, start(app, factory, t0, narrator=True): timing.AT_THE_TABLE,
             make_game(factory, app.config, t0, {"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                "Carla": "Veggente", "Dario": "Guardia del corpo",
                                                "Elena": "Contadino"}): timing.ON_CALENDAR}
    with factory() as s:
        for gid, expected in cases.items():
            game = s.get(Game, gid)
            (phase,) = s.query(PhaseRow).filter_by(game_id=gid).all()
            assert timing.moments(game) is expected
            assert timing.moments(game, GameState.from_dict(phase.state_before)) is expected
        game.state = None  # as before the deal
        assert timing.moments(game) is timing.ON_CALENDAR


def test_a_narrators_moment_waits_for_the_narrator(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, narrator=True)
    ((_, status, _, ends_at),) = phases(factory, gid)
    assert status == "open" and ends_at == timing.NO_DEADLINE
    a_year_on = t0 + timedelta(days=365)
    with factory() as s:
        assert operations.due_phase_ids(s, a_year_on) == []
        assert not s.query(PhaseRow).filter_by(game_id=gid).one().has_deadline
    with transaction(factory) as s:
        assert reminders.send_due(s, app.config, a_year_on) == 0
    wrong_guesses(app, factory, gid, t0 + timedelta(minutes=5))  # everyone answered: still open
    assert phases(factory, gid)[0][3] == timing.NO_DEADLINE
    confirmed = t0 + timedelta(hours=2)
    assert desk.close_now(factory, app.config, gid, confirmed)  # the narrator confirms
    (first, second) = phases(factory, gid)
    assert first[1] == "published" and second[1:] == ("open", confirmed, timing.NO_DEADLINE)


def test_the_window_is_reminded_only_when_longer_than_the_notice(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)  # ten minutes, shorter than the reminders' notice
    assert int(app.config["REMINDER_BEFORE_MINUTES"]) >= 10
    with transaction(factory) as s:
        assert reminders.send_due(s, app.config, t0 + timedelta(minutes=5)) == 0
    gid = start(app, factory, t0, window=timedelta(days=1))
    with transaction(factory) as s:
        sent = reminders.send_due(s, app.config, t0 + timedelta(days=1) - timedelta(minutes=5))
    assert sent == len(NAMES)
    del gid


def test_the_ruleset_says_how_few_may_play(app, factory, clock):
    gid = start(app, factory, clock.now(), names=NAMES[:2])  # two guessers are a game
    with factory() as s:
        assert s.get(Game, gid).status == "running"
    with pytest.raises(operations.OperationError) as refused:
        start(app, factory, clock.now(), names=NAMES[:1])
    assert refused.value.code == "too_few_players" and refused.value.params["minimum"] == 2


def test_the_masters_set_the_answer_window_when_they_create_the_game(app, factory, clock):
    from tests.conftest import csrf_from
    from tests.support.helpers import login
    make_master(factory)
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    token = csrf_from(page)
    form = {"csrf_token": token, "name": "Turni", "ruleset": guess_ruleset.KEY, "auto_publish": "y"}
    refused = client.post("/master/new", data={**form, "answer_window": "3000"}).get_data(as_text=True)
    assert "Da 1 a 2880 minuti (due giorni)." in refused
    with factory() as s:
        assert s.query(Game).count() == 0
    assert client.post("/master/new", data={**form, "answer_window": "15"}).status_code == 302
    with factory() as s:
        (game,) = s.query(Game).all()
        assert timing.answer_window(game) == timedelta(minutes=15)
