"""What the Masters see of the relay: the outbox's backlog per class and the
day's use of the quota on the desk, and a warning, on the desk and by mail when
the quota has room for it, when the next boundary's mail will not fit."""
from __future__ import annotations

import re

from sqlalchemy import select

from pbm.models import Game, MasterLog, OutboxRow, User
from pbm.worker import Worker
from tests.support.helpers import login, make_game
from tests.support.mail import ROLES, fast_passwords  # noqa: F401  (a fixture)


def _desk(app, factory) -> str:
    """The desk as the Master reads it, in English."""
    with factory() as s:
        slug = s.scalars(select(Game.slug)).one()
        s.scalars(select(User).where(User.email == "master@example.org")).one().lang = "en"
        s.commit()
    return login(app, "master@example.org", "master").get(f"/g/{slug}/master").get_data(as_text=True)


def _cell(page: str, label: str) -> int:
    found = re.search(re.escape(label) + r"</td><td>(\d+)</td>", page)
    assert found, label
    return int(found.group(1))


def _counts(factory) -> dict[int, int]:
    with factory() as s:
        counts: dict[int, int] = {}
        for r in s.scalars(select(OutboxRow).where(OutboxRow.status == "pending")):
            counts[r.priority] = counts.get(r.priority, 0) + 1
        return counts


def test_the_desk_shows_the_backlog_and_a_boundary_that_will_not_fit(make_app, clock, smtp_server):
    # Five players and a Master: the next boundary sends about six mails. The
    # set-up's ten are waiting, so a quota of 14 leaves room for four.
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_DAILY_QUOTA=14)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    waiting = _counts(factory)
    assert sum(waiting.values()) == 10
    page = _desk(app, factory)
    assert _cell(page, "Receipts, windows and links") == waiting.get(1, 0) > 0
    assert _cell(page, "Private results") == waiting.get(2, 0) > 0
    assert _cell(page, "Bulletins, reminders and notices") == waiting.get(3, 0)
    assert "Sent today: 0 of the relay's 14 a day." in page
    assert 'id="quota-warning"' in page and "about 6 mails, but only 4 remain" in page

    worker = Worker(app, clock)
    assert worker.watch_quota() == 1
    assert worker.watch_quota() == 0  # once a phase
    with factory() as s:
        warnings = s.scalars(select(OutboxRow).where(OutboxRow.kind == "quota_warning")).all()
        logged = s.scalars(select(MasterLog).where(MasterLog.action == "quota_warning")).one()
    assert [w.to_addr for w in warnings] == ["master@example.org"] and warnings[0].priority == 1
    assert logged.details["mailed"] is True and "6" in warnings[0].body and "4" in warnings[0].body

    # Sent (the warning too), nothing waits: the day's use is counted, and three
    # remain for the boundary's six.
    assert worker.outbox() == 11
    page = _desk(app, factory)
    assert "Sent today: 11 of the relay's 14 a day." in page
    assert _cell(page, "Receipts, windows and links") == 0
    assert "about 6 mails, but only 3 remain" in page


def test_no_warning_when_the_boundary_fits_and_none_without_a_quota(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_DAILY_QUOTA=16)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    page = _desk(app, factory)
    assert 'id="quota-warning"' not in page
    assert Worker(app, clock).watch_quota() == 0


def test_a_warning_the_quota_has_no_room_to_mail_is_on_the_desk_only(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_DAILY_QUOTA=10)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    assert Worker(app, clock).watch_quota() == 1
    with factory() as s:
        assert s.scalars(select(OutboxRow).where(OutboxRow.kind == "quota_warning")).all() == []
        assert s.scalars(select(MasterLog).where(MasterLog.action == "quota_warning")).one().details["mailed"] is False
    page = _desk(app, factory)
    assert 'id="quota-warning"' in page and "no mail: the quota had no room for it" in page
