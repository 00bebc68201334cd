"""How fast the calendar answers: the scheduler asks on every tick, the web on every page.

    .venv/bin/python bench/bench_schedule.py
"""
from __future__ import annotations

import timeit
from datetime import datetime, timedelta, timezone

from pbm import calendar as sch

UTC = timezone.utc
LIVE = sch.default_schedule("lupus-live-12")
T = datetime(2026, 3, 26, 19, tzinfo=UTC)


def per_call(stmt, n=2000):
    return min(timeit.repeat(stmt, number=n, repeat=3)) / n * 1e6


ph = sch.phases_from(LIVE, T, 60)
figures = {
    "phase_at": per_call(lambda: sch.phase_at(LIVE, T)),
    "next_boundary": per_call(lambda: sch.next_boundary(LIVE, T)),
    "phases_from 20": per_call(lambda: sch.phases_from(LIVE, T, 20), 500),
    "boundaries_between 1 week": per_call(lambda: sch.boundaries_between(LIVE, T, T + timedelta(days=7)), 500),
    "to_ics 60 phases": per_call(lambda: sch.to_ics(ph, 'g', dtstamp=T), 100),
}
for label, micros in figures.items():
    print(f"{label:28s} {micros:8.1f} µs")

from _support import record  # noqa: E402
record("schedule_us", {label: round(micros, 1) for label, micros in figures.items()})
