"""Many games turning over at once: the worker resolves their phases a few to a
transaction (operations.boundary.resolve_phases), each phase still all or nothing,
and two workers on one database split them without resolving any twice."""
from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest

from pbm import operations
from pbm.models import EventRow, OutboxRow, PhaseRow
from pbm.operations import boundary

from tests.support.helpers import make_game

TUE_0930 = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)  # night 1 of a Monday game is over
GAMES = 4


def roles(g: int) -> dict[str, str]:
    return {f"Anna{g}": "Lupo Mannaro", f"Bruno{g}": "Contadino", f"Carla{g}": "Veggente",
            f"Dario{g}": "Guardia del corpo", f"Elena{g}": "Contadino"}


@pytest.fixture
def nights(app, factory, clock) -> list[int]:
    """GAMES games started on Monday: their first nights, all due on Tuesday morning."""
    for g in range(GAMES):
        make_game(factory, app.config, clock.now(), roles(g))
    clock.set(TUE_0930)
    with factory() as s:
        due = operations.due_phase_ids(s, clock.now())
    assert len(due) == GAMES
    return due


def mails_of(factory, phase_id: int) -> int:
    """Results mails queued by the resolution of ``phase_id`` (they name the phase it opened)."""
    with factory() as s:
        opened = s.query(PhaseRow).filter_by(
            game_id=s.get(PhaseRow, phase_id).game_id, index=s.get(PhaseRow, phase_id).index + 1).one_or_none()
        if opened is None:
            return 0
        return s.query(OutboxRow).filter_by(kind="phase_results", phase_id=opened.id).count()


def status(factory, phase_id: int) -> str:
    with factory() as s:
        return s.get(PhaseRow, phase_id).status


def test_a_batch_resolves_every_phase_with_its_events_and_mail(app, factory, clock, nights, monkeypatch):
    monkeypatch.setattr(boundary, "BATCH_PHASES", 3)  # two transactions for four games
    assert operations.resolve_due(factory, app.config, clock.now()) == nights
    for pid in nights:
        assert status(factory, pid) == "published"
        assert mails_of(factory, pid) == 5
    with factory() as s:
        assert s.query(PhaseRow).filter_by(status="open").count() == GAMES  # every day 1 opened
        assert s.query(OutboxRow).filter_by(kind="master_report").count() == GAMES


def test_a_resolution_that_fails_is_undone_alone_and_its_error_raised(app, factory, clock, nights, monkeypatch):
    real = boundary.resolve_into
    broken = nights[1]

    def failing(session, config, game, phase, now):
        real(session, config, game, phase, now)  # written, then undone with its savepoint
        if phase.id == broken:
            raise RuntimeError("a ruleset's bug")

    monkeypatch.setattr(boundary, "resolve_into", failing)
    with pytest.raises(RuntimeError, match="a ruleset's bug"):
        operations.resolve_due(factory, app.config, clock.now())
    assert status(factory, nights[0]) == "published" and mails_of(factory, nights[0]) == 5
    assert [status(factory, pid) for pid in nights[1:]] == ["open"] * (GAMES - 1)
    assert [mails_of(factory, pid) for pid in nights[1:]] == [0] * (GAMES - 1)
    with factory() as s:
        assert s.query(EventRow).filter_by(phase_id=broken).count() == 0
        assert s.query(PhaseRow).filter_by(game_id=s.get(PhaseRow, broken).game_id).count() == 1

    monkeypatch.setattr(boundary, "resolve_into", real)  # the bug fixed: the next tick resolves the rest
    assert operations.resolve_due(factory, app.config, clock.now()) == nights[1:]
    assert [mails_of(factory, pid) for pid in nights] == [5] * GAMES


def test_two_workers_resolving_at_once_resolve_each_phase_once(app, factory, clock, nights):
    results: list[list[int]] = []
    barrier = threading.Barrier(2)

    def worker():
        barrier.wait()
        results.append(operations.resolve_due(factory, app.config, clock.now()))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results[0] + results[1]) == sorted(nights)  # each once, by one of them
    assert [mails_of(factory, pid) for pid in nights] == [5] * GAMES
    with factory() as s:
        assert s.query(PhaseRow).count() == 2 * GAMES
