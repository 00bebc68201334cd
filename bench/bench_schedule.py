"""How fast the calendar answers: the scheduler asks on every tick, the web on every page.

    .venv/bin/python bench/bench_schedule.py
"""
from __future__ import annotations

import timeit
from datetime import datetime, timedelta, timezone

from pbm import schedule as sch

UTC = timezone.utc
LIVE = sch.default_schedule("lupus-live-12")
T = datetime(2026, 3, 26, 19, tzinfo=UTC)


def per_call(stmt, n=2000):
    return min(timeit.repeat(stmt, number=n, repeat=3)) / n * 1e6


print(f"phase_at                     {per_call(lambda: sch.phase_at(LIVE, T)):8.1f} µs")
print(f"next_boundary                {per_call(lambda: sch.next_boundary(LIVE, T)):8.1f} µs")
print(f"phases_from 20               {per_call(lambda: sch.phases_from(LIVE, T, 20), 500):8.1f} µs")
print(f"boundaries_between 1 week    {per_call(lambda: sch.boundaries_between(LIVE, T, T + timedelta(days=7)), 500):8.1f} µs")
ph = sch.phases_from(LIVE, T, 60)
print(f"to_ics 60 phases             {per_call(lambda: sch.to_ics(ph, 'g', dtstamp=T), 100):8.1f} µs")
