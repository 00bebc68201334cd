"""The calendar in the service and the Masters' desk, on an injected clock."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import pytest

from pbm import operations
from pbm.operations import boundary, desk
from pbm.db import transaction
from pbm.models import EventRow, Game, MasterLog, OutboxRow, PhaseRow, User
from pbm.worker import Worker

from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino"}
UTC = timezone.utc
TUE_0930 = datetime(2026, 11, 24, 8, 30, tzinfo=UTC)   # Rome 9:30, day 1 open
TUE_2101 = datetime(2026, 11, 24, 20, 1, tzinfo=UTC)
WED_1000 = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


@pytest.fixture
def gid(app, factory, clock):
    return make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")


def phases(factory, gid):
    with factory() as s:
        return [(p.kind, p.number, p.status, p.ends_at) for p in
                s.query(PhaseRow).filter_by(game_id=gid).order_by(PhaseRow.index)]


def master(factory):
    with factory() as s:
        return s.query(User).filter_by(email="master@example.org").one()


def submit(app, factory, gid, name, submission, now, source="web", by=None):
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name(name), submission, source=source,
                          now=now, by_user=s.get(User, by.id) if by else None, source_detail="sms" if by else "")


def test_a_worker_down_past_three_boundaries_resolves_them_in_order_and_tells_the_masters(app, factory, clock, gid):
    clock.set(WED_1000)
    resolved = Worker(app, clock).boundaries()
    assert len(resolved) == 3
    assert [(k, n, st) for k, n, st, _ in phases(factory, gid)] == [
        ("night", 1, "published"), ("day", 1, "published"), ("night", 2, "published"), ("day", 2, "open")]
    ends = [e for *_, e in phases(factory, gid)]
    assert ends == [datetime(2026, 11, 24, 8, tzinfo=UTC), datetime(2026, 11, 24, 20, tzinfo=UTC),
                    datetime(2026, 11, 25, 8, tzinfo=UTC), datetime(2026, 11, 25, 20, tzinfo=UTC)]
    with factory() as s:
        late = s.query(OutboxRow).filter_by(kind="late_boundary").all()
        assert len(late) == 3 and {m.to_addr for m in late} == {"master@example.org"}


def test_two_workers_racing_on_one_boundary_resolve_it_once(app, factory, clock, gid):
    clock.set(TUE_0930)
    with factory() as s:
        (pid,) = operations.due_phase_ids(s, clock.now())
    results, barrier = [], threading.Barrier(2)

    def race():
        barrier.wait()
        results.append(operations.resolve_phase(factory, app.config, pid, clock.now()))

    threads = [threading.Thread(target=race) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, True]
    with factory() as s:
        assert s.query(PhaseRow).filter_by(game_id=gid).count() == 2
        assert s.query(OutboxRow).filter_by(kind="phase_results").count() == len(ROLES)


def test_a_paused_game_keeps_the_time_it_had_left(app, factory, clock, gid):
    m = master(factory)
    paused_at = clock.advance(hours=2)  # Monday 12:00 in Rome; night 1 ends Tuesday 9:00 (21 h left)
    with transaction(factory) as s:
        desk.pause(s, app.config, s.get(Game, gid), paused_at, m)
    clock.set(WED_1000)
    assert Worker(app, clock).boundaries() == []
    with transaction(factory) as s:
        desk.resume(s, app.config, s.get(Game, gid), clock.now(), m)
    (night,) = phases(factory, gid)
    assert night[3] == WED_1000 + timedelta(hours=21)


def test_extending_the_deadline_moves_the_boundary(app, factory, clock, gid):
    m = master(factory)
    new_end = datetime(2026, 11, 24, 10, tzinfo=UTC)
    with transaction(factory) as s:
        desk.extend(s, app.config, s.get(Game, gid), new_end, clock.now(), m)
    clock.set(TUE_0930)
    assert Worker(app, clock).boundaries() == []
    clock.set(new_end)
    assert len(Worker(app, clock).boundaries()) == 1
    # the day that follows still ends at 21:00 Rome
    assert phases(factory, gid)[1][3] == datetime(2026, 11, 24, 20, tzinfo=UTC)


def test_the_preview_is_what_the_boundary_then_does(app, factory, clock, gid):
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()
    for voter, target in [("Anna", "Carla"), ("Bruno", "Carla"), ("Carla", "Anna")]:
        submit(app, factory, gid, voter, {"vote": target}, clock.now())
    with factory() as s:
        preview = desk.preview(s, s.get(Game, gid))
    clock.set(TUE_2101)
    Worker(app, clock).boundaries()
    with factory() as s:
        day = s.query(PhaseRow).filter_by(game_id=gid, kind="day").one()
        stored = [(e.kind, e.data) for e in s.query(EventRow).filter_by(phase_id=day.id).order_by(EventRow.seq)]
    assert [(e.kind, e.data) for e in preview.events] == stored
    assert ("death", {"player": "Carla", "cause": "pyre"}) in stored


def test_roll_back_correct_and_publish_again_with_a_correction_to_everyone(app, factory, clock, gid):
    m = master(factory)
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()
    for voter, target in [("Anna", "Carla"), ("Bruno", "Carla"), ("Carla", "Anna")]:
        submit(app, factory, gid, voter, {"vote": target}, clock.now())
    clock.set(TUE_2101)
    Worker(app, clock).boundaries()
    with factory() as s:
        assert not next(p for p in s.get(Game, gid).state["players"] if p["name"] == "Carla")["alive"]
    # Dario's SMS vote for Anna arrived at 20:58 and was forgotten: roll back and correct.
    with transaction(factory) as s:
        draft = desk.rollback(s, s.get(Game, gid), clock.now(), s.get(User, m.id))
        draft_id = draft.id
    assert [st for _, _, st, _ in phases(factory, gid)] == ["published", "draft"]
    for voter in ("Dario", "Elena"):
        submit(app, factory, gid, voter, {"vote": "Anna"}, clock.now(), source="master", by=m)
    with transaction(factory) as s:
        game = s.get(Game, gid)
        desk.reresolve(s, app.config, game, s.get(PhaseRow, draft_id), clock.now(), s.get(User, m.id))
        operations.publish(s, app.config, game, s.get(PhaseRow, draft_id), clock.now(), by=s.get(User, m.id))
    with factory() as s:
        state = s.get(Game, gid).state
        alive = {p["name"]: p["alive"] for p in state["players"]}
        assert alive["Carla"] and not alive["Anna"]  # Bruno the mayor: Carla 2.25, Anna 3
        corrections = s.query(OutboxRow).filter(OutboxRow.subject.contains("Correzione")).all()
        assert sorted(c.to_addr for c in corrections) == sorted(f"{n.lower()}@players.test" for n in ROLES)
        assert s.query(MasterLog).filter_by(action="rollback").count() == 1
        assert state["winner"] == "Villaggio"


def test_masters_remedies_use_the_rules_and_a_disqualified_player_cannot_act(app, factory, clock, gid):
    m = master(factory)
    with transaction(factory) as s:
        desk.intervene(s, app.config, s.get(Game, gid), "disqualify", ["Elena"], clock.now(),
                       s.get(User, m.id), reason="ha mostrato l'area riservata")
    with factory() as s:
        game = s.get(Game, gid)
        assert not next(p for p in game.state["players"] if p["name"] == "Elena")["alive"]
        told = s.query(OutboxRow).filter_by(kind="announcement").all()
        assert len(told) == len(ROLES) and all("Elena" in t.body for t in told)
    from engine.core import Rejected
    with pytest.raises(Rejected) as exc:
        submit(app, factory, gid, "Elena", {"shout": "ci sono ancora"}, clock.now())
    assert exc.value.code == "disqualified"
    with transaction(factory) as s:
        desk.intervene(s, app.config, s.get(Game, gid), "resurrect", ["Elena"], clock.now(), s.get(User, m.id))
        desk.intervene(s, app.config, s.get(Game, gid), "draw", [], clock.now(), s.get(User, m.id))
    with factory() as s:
        game = s.get(Game, gid)
        assert game.status == "over" and game.state["winner"] == "draw"


def test_reminders_go_once_to_living_players_who_have_not_acted_and_can_be_turned_off(app, factory, clock, gid):
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()
    submit(app, factory, gid, "Anna", {"vote": "Carla"}, clock.now())
    with transaction(factory) as s:
        s.query(User).filter_by(email="bruno@players.test").one().reminders = False
    clock.set(datetime(2026, 11, 24, 17, 30, tzinfo=UTC))  # 18:30 Rome: too early
    assert Worker(app, clock).remind() == 0
    clock.set(datetime(2026, 11, 24, 18, 30, tzinfo=UTC))  # 19:30 Rome, deadline 21:00
    assert Worker(app, clock).remind() == 3
    assert Worker(app, clock).remind() == 0
    with factory() as s:
        sent = sorted(m.to_addr for m in s.query(OutboxRow).filter_by(kind="reminder"))
        body = s.query(OutboxRow).filter_by(kind="reminder").first().body
    assert sent == ["carla@players.test", "dario@players.test", "elena@players.test"]
    assert "voto" in body and "24/11/2026 alle 21:00 (Europe/Rome)" in body


def test_calendar_feed_lists_the_deadlines(app, factory, clock, gid):
    r = app.test_client().get("/g/test-game/calendar.ics")
    text = r.get_data(as_text=True)
    assert r.mimetype == "text/calendar" and text.startswith("BEGIN:VCALENDAR\r\n")
    assert text.count("BEGIN:VEVENT") == 15
    assert "DTEND:20261124T080000Z" in text  # night 1 ends Tuesday 9:00 in Rome
    assert "DTEND:20261124T200000Z" in text  # day 1 ends 21:00


def test_profeta_question_holds_the_phase_until_the_masters_answer(app, factory, clock):
    roles = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Profeta", "Dario": "Contadino"}
    gid = make_game(factory, app.config, clock.now(), roles, mayor="Bruno")
    m = master(factory)
    submit(app, factory, gid, "Carla", {"question": "Anna è un lupo?"}, clock.now())
    clock.set(TUE_0930)
    Worker(app, clock).boundaries()
    with factory() as s:
        night = s.query(PhaseRow).filter_by(game_id=gid, index=0).one()
        assert night.status == "draft" and s.query(PhaseRow).filter_by(game_id=gid).count() == 1
        assert not s.query(EventRow).filter_by(phase_id=night.id, published=True).count()
        with pytest.raises(operations.OperationError):
            operations.publish(s, app.config, s.get(Game, gid), night, clock.now())
    with transaction(factory) as s:
        game, night = s.get(Game, gid), s.query(PhaseRow).filter_by(game_id=gid, index=0).one()
        operations.answer_pending(s, app.config, game, night, {"answers": {"Carla": "yes"}}, clock.now(),
                                  by=s.get(User, m.id))
        if night.status == "draft":
            operations.publish(s, app.config, game, night, clock.now(), by=s.get(User, m.id))
    with factory() as s:
        answer = s.query(EventRow).filter_by(kind="answer").one()
        assert answer.recipients == ["Carla"] and answer.data["answer"] == "yes" and answer.published


def test_six_quiet_phases_hold_the_sixth_for_the_masters_then_go_on(app, factory, clock, gid):
    clock.set(datetime(2026, 11, 27, 7, 0, tzinfo=UTC))  # Friday 8:00 Rome: 6 boundaries have passed
    Worker(app, clock).boundaries()
    statuses = [(k, n, st) for k, n, st, _ in phases(factory, gid)]
    assert statuses == [("night", 1, "published"), ("day", 1, "published"), ("night", 2, "published"),
                        ("day", 2, "published"), ("night", 3, "published"), ("day", 3, "draft")]
    with transaction(factory) as s:  # the Masters choose to wait (§2.1): publish
        game = s.get(Game, gid)
        operations.publish(s, app.config, game, s.query(PhaseRow).filter_by(game_id=gid, status="draft").one(),
                           clock.now(), by=s.get(User, master(factory).id))
    clock.set(datetime(2026, 11, 27, 8, 1, tzinfo=UTC))
    Worker(app, clock).boundaries()
    assert phases(factory, gid)[6][2] == "published"  # the seventh quiet phase is not held again


TR_ROLES = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Contadino", "Dario": "Veggente",
            "Elena": "Contadino", "Fabio": "Contadino", "Gino": "Ipnotista", "Ida": "Divinatore"}


def test_a_contradiction_is_held_only_when_the_masters_asked(app, factory, clock):
    from engine.core import GameState, Pending, Resolution, master as master_event
    gid = make_game(factory, app.config, clock.now(), TR_ROLES, mayor="Dario", ruleset="tempo-reale-7")
    with factory() as s:
        game = s.get(Game, gid)
        phase = s.query(PhaseRow).filter_by(game_id=gid).one()
        state = GameState.from_dict(phase.state_before)
        settled = Resolution(state, [master_event("contradiction", failed=["Anna"])], [])
        assert not boundary.needs_masters(game, phase, settled)
        game.review_contradictions = True
        assert boundary.needs_masters(game, phase, settled)
        assert not boundary.needs_masters(game, phase, Resolution(state, [], []))
        question = Resolution(state, [], [Pending("profeta_question", {"player": "Carla"})])
        assert boundary.needs_masters(game, phase, question)


@pytest.mark.parametrize("start, day_end, hours", [
    # spring 2027: the long day Friday 26 → Sunday 28 March loses an hour
    (datetime(2027, 3, 25, 21, 30, tzinfo=UTC), datetime(2027, 3, 28, 19, 0, tzinfo=UTC), 59),
    # autumn 2026: the long day Friday 23 → Sunday 25 October gains one
    (datetime(2026, 10, 22, 20, 30, tzinfo=UTC), datetime(2026, 10, 25, 20, 0, tzinfo=UTC), 61),
])
def test_phases_of_a_game_across_daylight_saving_changes(app, factory, clock, start, day_end, hours):
    clock.set(start)  # Thursday night in Rome
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    clock.set(day_end - timedelta(hours=hours) + timedelta(minutes=1))
    Worker(app, clock).boundaries()
    (night, day) = phases(factory, gid)
    assert day[:3] == ("day", 1, "open") and day[3] == day_end
    assert day[3] - night[3] == timedelta(hours=hours)
