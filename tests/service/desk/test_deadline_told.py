"""A moved deadline reaches every player it concerns (issue 31, Major 1): moved earlier
or later by a Master, a pause and a resume, each told by mail in the player's language,
in the relay class its urgency deserves; a narrator's moments have no deadline to tell."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from pbm.db import transaction
from pbm.mail.outbound.classes import BULK, URGENT
from pbm.models import Game, OutboxRow, User
from pbm.operations import desk

from tests.support.helpers import make_game

UTC = timezone.utc
ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Guardia del corpo",
         "Elena": "Contadino"}
PLAYERS = {f"{n.lower()}@players.test" for n in ROLES}


@pytest.fixture
def gid(app, factory, clock):
    return make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")


def _master(s):
    return s.scalars(select(User).where(User.email == "master@example.org")).one()


def _told(factory, kinds=("deadline_earlier", "deadline_changed")):
    with factory() as s:
        return s.scalars(select(OutboxRow).where(OutboxRow.kind.in_(kinds)).order_by(OutboxRow.id)).all()


def test_a_deadline_moved_earlier_reaches_every_player_first_class(app, factory, clock, gid):
    # Night 1 ends on Tuesday at 09:00 in Rome; the Master brings it forward to 08:15.
    with transaction(factory) as s:
        desk.extend(s, app.config, s.get(Game, gid), datetime(2026, 11, 24, 7, 15, tzinfo=UTC), clock.now(),
                    _master(s))
    told = _told(factory)
    assert {m.to_addr for m in told} == PLAYERS
    assert {m.kind for m in told} == {"deadline_earlier"} and {m.priority for m in told} == {URGENT}
    for mail in told:
        assert "24/11/2026" in mail.subject and "08:15" in mail.subject  # the new time, in Rome's
        assert "09:00" in mail.body  # and the old one, so nobody keeps it
        assert "ANTICIPATA" in mail.subject or "FORWARD" in mail.subject


def test_a_deadline_moved_later_waits_with_the_bulk(app, factory, clock, gid):
    with transaction(factory) as s:
        desk.extend(s, app.config, s.get(Game, gid), datetime(2026, 11, 24, 10, tzinfo=UTC), clock.now(),
                    _master(s))
    told = _told(factory)
    assert {m.to_addr for m in told} == PLAYERS
    assert {m.priority for m in told} == {BULK}
    assert all("11:00" in m.subject for m in told)


def test_a_pause_and_a_resume_are_told_with_the_time_left(app, factory, clock, gid):
    with transaction(factory) as s:
        desk.pause(s, app.config, s.get(Game, gid), clock.now(), _master(s))
    paused = _told(factory)
    assert {m.to_addr for m in paused} == PLAYERS
    assert all("pausa" in m.subject.lower() or "paused" in m.subject.lower() for m in paused)
    later = clock.advance(hours=3)
    with transaction(factory) as s:
        desk.resume(s, app.config, s.get(Game, gid), later, _master(s))
    resumed = _told(factory)[len(paused):]
    assert {m.to_addr for m in resumed} == PLAYERS
    # Night 1 had until Tuesday 09:00; three hours of pause push it to 12:00.
    assert all("12:00" in m.subject for m in resumed)


def test_nothing_is_told_when_the_deadline_stays(app, factory, clock, gid):
    """An extension refused (a time already past) tells nobody."""
    from pbm.operations.base import OperationError
    with transaction(factory) as s, pytest.raises(OperationError):
        desk.extend(s, app.config, s.get(Game, gid), clock.now() - timedelta(minutes=1), clock.now(), _master(s))
    assert _told(factory) == []


def test_the_pages_say_the_deadline_was_moved_or_paused(app, factory, clock, gid):
    """On the pages too (issue 31, Major 1): the player's reserved page and the game's
    public page say the deadline was moved and what it was, then that the game is paused,
    then that it resumed; before any change they say nothing of the kind."""
    import html

    from tests.support.helpers import login
    with factory() as s:
        slug = s.get(Game, gid).slug
    bruno = login(app, "bruno@players.test", "pw-bruno")

    def pages() -> list[str]:
        return [html.unescape(bruno.get(path).get_data(as_text=True)) for path in (f"/g/{slug}/me", f"/g/{slug}/")]

    assert all("spostato questa scadenza" not in p and "in pausa" not in p for p in pages())
    with transaction(factory) as s:
        desk.extend(s, app.config, s.get(Game, gid), datetime(2026, 11, 24, 10, tzinfo=UTC), clock.now(),
                    _master(s))
    for page in pages():
        assert "I Master hanno spostato questa scadenza: era il 24/11/2026 alle 09:00" in page
        assert "11:00" in page  # the new deadline beside it
    with transaction(factory) as s:
        desk.pause(s, app.config, s.get(Game, gid), clock.now(), _master(s))
    assert all("La partita è in pausa" in p and "spostato questa scadenza" not in p for p in pages())
    later = clock.advance(hours=1)
    with transaction(factory) as s:
        desk.resume(s, app.config, s.get(Game, gid), later, _master(s))
    assert all("ha ripreso" in p and "in pausa dal" not in p for p in pages())
