"""Reminders go out for every game at once (every calendar deadline falls at the
same hour): a game's reminders cost a few statements, not one per player or per mail.
Counted, not timed."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from pbm.operations import reminders
from pbm.db import transaction
from pbm.models import OutboxRow, PhaseRow, PhaseStatus
from pbm.worker import Worker
from tests.support.helpers import make_master
from tests.web.test_page_cost_by_players import TUESDAY_0930_ROME, game_of
from tests.support.cost import counting


def test_reminding_32_players_costs_a_few_statements(make_app, clock) -> None:
    app = make_app()
    factory = app.extensions["pbm_sessions"]
    make_master(factory)
    game_of(factory, app.config, clock.now(), "large", 32)
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()  # day 1: everyone must vote
    with factory() as s:
        ends = s.scalar(select(PhaseRow.ends_at).where(PhaseRow.status == PhaseStatus.OPEN))
    due = ends - timedelta(minutes=int(app.config["REMINDER_BEFORE_MINUTES"]) - 1)
    with counting(app) as cost, transaction(factory) as s:
        sent = reminders.send_due(s, app.config, due)
    assert sent == 32
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.kind == "reminder")) == 32
    assert cost.statements <= 10, cost.statements
