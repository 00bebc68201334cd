"""A web vote at the deadline is judged in time and stamped by one reading of the clock:
a vote the service took a moment before the deadline is never stored as made after it
(the deadline rush found one: bench/bench_rush.py's "web rows stored at or after the
deadline"), and a vote it took after the deadline is refused."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from pbm.clock import FixedClock
from pbm.models import ActionRow, PhaseRow, Seat
from tests.support.forms import area, forms_of, logged_in
from tests.web.test_reserved_page_cost import day_one


class TickingClock(FixedClock):
    """Each reading a millisecond after the last: time passes while a request runs."""

    def now(self):
        at = super().now()
        self.advance(milliseconds=1)
        return at


def test_a_vote_judged_before_the_deadline_is_stamped_before_it(app, factory, clock):
    gid = day_one(app, factory, clock)
    dario = logged_in(app, "Dario")
    form = dict(forms_of(area(dario))["form-vote"].hidden)
    with factory() as s:
        phase = s.scalars(select(PhaseRow).where(PhaseRow.game_id == gid).order_by(PhaseRow.index.desc())).first()
        deadline, phase_id = phase.ends_at, phase.id
    ticking = TickingClock(deadline)
    app.extensions["pbm_clock"] = ticking
    outcomes = set()
    for before in range(40):  # the request starts 0-39 ms before the deadline
        ticking.set(deadline - timedelta(milliseconds=before))
        target = ("Anna", "Bruno")[before % 2]
        dario.post("/g/test-game/act", data={**form, "vote-vote": target})
        with factory() as s:
            seat = s.scalar(select(Seat).where(Seat.game_id == gid, Seat.name == "Dario"))
            rows = s.scalars(select(ActionRow).where(ActionRow.phase_id == phase_id,
                                                     ActionRow.seat_id == seat.id)).all()
        late = [r.submitted_at for r in rows if r.submitted_at >= deadline]
        assert not late, f"a vote begun {before} ms before the deadline was stored at {late[0]}"
        outcomes.add(len(rows))
    assert len(outcomes) > 1  # some of the 40 were taken (and some, started too late, refused)
