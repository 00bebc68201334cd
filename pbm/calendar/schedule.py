"""The phase calendar: when nights and days turn over, exactly, in a time zone.

Pure: no database, no Flask, no clock. Every instant is passed in as an aware
``datetime``; naive datetimes are refused (use :func:`localize`).

Model
-----
A :class:`Schedule` is a time zone plus a weekly cycle of *turns*: each turn says
"on this weekday, at this wall-clock time, a phase of this kind starts" (and whether
the rulebook calls it *long*). A phase lasts until the next turn, wrapping round the
week. So a calendar of days from 9 to 21 with a long weekend is::

    {"tz": "Europe/Rome",
     "week": ["mon 09:00 day", "mon 21:00 night", ..., "thu 21:00 night",
              "fri 09:00 day long", "sun 21:00 night"]}

That canonical form is what :meth:`Schedule.to_json` writes (for a DB column). A
compact form (day hours, which weekdays start a day, long days) is accepted too; see
:func:`parse_schedule` and docs/calendar.md.

Containment and boundaries
--------------------------
A phase is the half-open interval ``[start, end)``: it contains its start and not its
end. An instant exactly on a boundary therefore belongs to the phase that *starts*
there. ``boundaries_between(t0, t1)`` returns the boundaries ``b`` with
``t0 < b <= t1`` (what a worker that last looked at ``t0`` must now process).

Daylight saving time
--------------------
Turns are wall-clock times. Each is built as a naive local time, resolved with
zoneinfo and normalised through UTC; durations are never computed by adding
timedeltas to aware local datetimes. Hence a night that spans a change is 11 or 13
hours long in Europe/Rome. Two rulings for wall times that are not a single instant:

* a wall time that does not exist (inside the spring-forward gap, e.g. 02:30 on the
  last Sunday of March in Europe/Rome) moves to the first valid instant after the gap
  (03:00 CEST there);
* a wall time that occurs twice (inside the autumn repeated hour) means its first
  occurrence (``fold=0``: 02:30 CEST, not 02:30 CET).

If two turns of one week resolve to the same instant (both inside one gap), the
earlier turn's phase would be empty and is dropped.

Pauses and moved deadlines
--------------------------
Not here: the calendar is what the schedule says. A game's open phase keeps its own
deadline in the database, and the Masters' pause and "move the deadline" change that
row (``pbm.operations.desk``); the next phase is then placed on the calendar again
from where the previous one ended (``pbm.operations.timing``).
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta, timezone
from typing import Iterator
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.registry import available, get_ruleset

UTC = timezone.utc
DEFAULT_TZ = "Europe/Rome"
KINDS = ("night", "day")

_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAY_ALIASES = {
    **{name: i for i, name in enumerate(_WEEKDAYS)},
    **{name: i for i, name in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))},
    **{name: i for i, name in enumerate(("lun", "mar", "mer", "gio", "ven", "sab", "dom"))},
    **{name: i for i, name in enumerate(
        ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"))},
    **{name: i for i, name in enumerate(
        ("lunedi", "martedi", "mercoledi", "giovedi", "venerdi"))},
}


# --------------------------------------------------------------------------- schedule

@dataclass(frozen=True, order=True)
class Turn:
    """A weekly turn: at ``at`` (wall clock) on ``weekday`` (0 = Monday) a phase starts."""

    weekday: int
    at: time
    kind: str
    long: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"phase kind must be night or day, not {self.kind!r}")
        if not 0 <= self.weekday <= 6:
            raise ValueError(f"weekday must be 0..6, not {self.weekday!r}")
        if self.at.tzinfo is not None:
            raise ValueError("turn times are wall-clock times, without a zone")

    def to_text(self) -> str:
        hhmm = self.at.strftime("%H:%M:%S" if self.at.second else "%H:%M")
        return f"{_WEEKDAYS[self.weekday]} {hhmm} {self.kind}" + (" long" if self.long else "")

    @classmethod
    def from_text(cls, text: str) -> "Turn":
        words = text.strip().lower().split()
        if len(words) not in (3, 4) or (len(words) == 4 and words[3] != "long"):
            raise ValueError(f"a turn reads 'WEEKDAY HH:MM night|day [long]', not {text!r}")
        return cls(_weekday(words[0]), _parse_time(words[1]), words[2], len(words) == 4)


@dataclass(frozen=True)
class Schedule:
    """A time zone and a weekly cycle of turns (sorted, at least one)."""

    tz: str
    week: tuple[Turn, ...]

    def __post_init__(self) -> None:
        zone_info(self.tz)  # fail early on an unknown zone
        week = tuple(sorted(self.week, key=lambda t: (t.weekday, t.at)))
        if not week:
            raise ValueError("a schedule needs at least one turn a week")
        for a, b in zip(week, week[1:]):
            if (a.weekday, a.at) == (b.weekday, b.at):
                raise ValueError(f"two turns at the same time: {a.to_text()!r}, {b.to_text()!r}")
        object.__setattr__(self, "week", week)

    @property
    def zone(self) -> ZoneInfo:
        return zone_info(self.tz)

    def with_tz(self, tz: str) -> "Schedule":
        return replace(self, tz=tz)

    def to_dict(self) -> dict:
        return {"tz": self.tz, "week": [t.to_text() for t in self.week]}

    def to_json(self) -> str:
        """The stored form: canonical, compact, stable (same schedule, same text)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Schedule":
        return parse_schedule(text)


def zone_info(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}") from exc


def _weekday(word: str) -> int:
    try:
        return _WEEKDAY_ALIASES[word.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown weekday {word!r} (mon, tue, ... sun)") from None


def _parse_time(text: str) -> time:
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", text.strip())
    if not m:
        raise ValueError(f"times read HH:MM, not {text!r}")
    h, mi, s = int(m[1]), int(m[2]), int(m[3] or 0)
    if h == 24 and mi == 0 and s == 0:
        raise ValueError("write 24:00 as 00:00 of the next weekday")
    return time(h, mi, s)


def _weekday_set(spec) -> list[int]:
    """'all', 'mon-fri', 'mon,wed,fri', 'fri-mon' (wraps) or a list of those."""
    if spec is None:
        return list(range(7))
    items = spec if isinstance(spec, list) else [spec]
    days: set[int] = set()
    for item in items:
        for part in str(item).split(","):
            part = part.strip().lower()
            if part in ("all", "*"):
                days.update(range(7))
            elif "-" in part:
                a, b = (_weekday(x) for x in part.split("-", 1))
                days.update((a + i) % 7 for i in range((b - a) % 7 + 1))
            elif part:
                days.add(_weekday(part))
    return sorted(days)


def _compact_to_week(spec: dict) -> tuple[Turn, ...]:
    """Compact form -> turns. See docs/calendar.md, "Compact form"."""
    unknown = set(spec) - {"tz", "day_start", "day_end", "days", "long_day", "long_days"}
    if unknown:
        raise ValueError(f"unknown schedule keys: {', '.join(sorted(unknown))}")
    start = _parse_time(spec.get("day_start", "09:00"))
    end = _parse_time(spec.get("day_end", "21:00"))
    if start == end:
        raise ValueError("day_start and day_end must differ")
    crosses = end <= start  # a day that runs past midnight
    longs = spec.get("long_days", spec.get("long_day", []))
    longs = [longs] if isinstance(longs, dict) else list(longs)

    day_ends: dict[int, int] = {}  # weekday the day starts -> weekday it ends
    covered: set[int] = set()
    for ld in longs:
        a, b = _weekday(ld["from"]), _weekday(ld["to"])
        span = (b - a) % 7 or 7
        inside = {(a + i) % 7 for i in range(1, span + 1)}
        if a in covered or inside & (covered | set(day_ends)):
            raise ValueError("long days overlap")
        covered |= inside
        day_ends[a] = (b + crosses) % 7
    for d in _weekday_set(spec.get("days")):
        if d not in covered and d not in day_ends:
            day_ends[d] = (d + crosses) % 7
    if not day_ends:
        raise ValueError("no weekday starts a day; use the 'week' form for nights only")

    ordinary_night = 24 * 60 - _wall_minutes(start, end)
    long_starts = {_weekday(ld["from"]) for ld in longs}
    week_minutes = 7 * 24 * 60
    turns = []
    starts = sorted(day_ends)
    for i, d in enumerate(starts):
        e = day_ends[d]
        turns.append(Turn(d, start, "day", long=d in long_starts))
        nxt = starts[(i + 1) % len(starts)]
        night_len = ((nxt * 1440 + _minutes(start)) - (e * 1440 + _minutes(end))) % week_minutes
        turns.append(Turn(e, end, "night", long=night_len > ordinary_night))
    return tuple(turns)


def _minutes(t: time) -> int:
    return t.hour * 60 + t.minute


def _wall_minutes(a: time, b: time) -> int:
    """Minutes from wall time a forward to wall time b (0..24h)."""
    return ((b.hour * 60 + b.minute) - (a.hour * 60 + a.minute)) % (24 * 60)


def parse_schedule(spec, *, tz: str | None = None) -> Schedule:
    """A Schedule from JSON text, a dict, or a ruleset name (its default).

    Two JSON forms: canonical ``{"tz": ..., "week": ["fri 09:00 day long", ...]}``
    and compact ``{"tz": ..., "day_start": "09:00", "day_end": "21:00",
    "days": "mon-fri", "long_day": {"from": "fri", "to": "sun"}}``.
    ``tz`` (if given) replaces the zone of the spec.
    """
    if isinstance(spec, Schedule):
        sched = spec
    else:
        if isinstance(spec, str):
            text = spec.strip()
            if text in available():
                sched = default_schedule(text)
                return sched.with_tz(tz) if tz else sched
            try:
                spec = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError(f"schedule is not valid JSON: {exc}") from None
        if not isinstance(spec, dict):
            raise ValueError("a schedule is a JSON object")
        zone_name = spec.get("tz", DEFAULT_TZ)
        if "week" in spec:
            if set(spec) - {"tz", "week"}:
                raise ValueError("the 'week' form takes only 'tz' and 'week'")
            week = tuple(Turn.from_text(t) if isinstance(t, str) else _turn_from_dict(t)
                         for t in spec["week"])
        else:
            week = _compact_to_week(spec)
        sched = Schedule(zone_name, week)
    return sched.with_tz(tz) if tz else sched


def _turn_from_dict(d: dict) -> Turn:
    return Turn(_weekday(d["weekday"]), _parse_time(d["at"]), d["kind"], bool(d.get("long")))


# The zone, and one turn a day, of a game whose moments are not on a calendar.
NO_CALENDAR = Schedule(DEFAULT_TZ, tuple(Turn(d, time(21), "day") for d in range(7)))


@functools.lru_cache(maxsize=None)
def default_schedule(ruleset: str) -> Schedule:
    """The calendar a game of this ruleset follows unless its Masters set another."""
    if ruleset not in available():
        raise ValueError(f"no default schedule for ruleset {ruleset!r}; known: {', '.join(available())}")
    spec = get_ruleset(ruleset).schedule_spec
    # A game whose moments are not on a calendar (a window, a narrator) still
    # has a time zone to write its times in.
    return parse_schedule(spec) if spec else NO_CALENDAR


# --------------------------------------------------------------------------- instants
#
# Python compares and subtracts two datetimes that share a tzinfo by their wall
# clocks, ignoring offsets and fold. So everything below works on UTC instants and
# converts to the schedule's zone only when handing phases out.

def _u(t: datetime) -> datetime:
    return t.astimezone(UTC)


def localize(naive: datetime, tz: str | ZoneInfo | Schedule) -> datetime:
    """A wall-clock time in a zone -> the aware instant, by this module's DST rulings.

    Inside a gap: the first instant after the gap. Inside a repeated hour: the first
    occurrence. Aware input is only converted to the zone.
    """
    zone = tz.zone if isinstance(tz, Schedule) else (zone_info(tz) if isinstance(tz, str) else tz)
    return _localize_utc(naive, zone).astimezone(zone)


def _localize_utc(naive: datetime, zone: ZoneInfo) -> datetime:
    if naive.tzinfo is not None:
        return _u(naive)
    first = naive.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if first.astimezone(zone).replace(tzinfo=None) == naive:
        return first
    # In a gap: fold=1 reads the wall time with the offset after the change (an instant
    # before the change), fold=0 with the offset before it (an instant after the
    # change). The change lies between; find its exact second.
    lo = int(naive.replace(tzinfo=zone, fold=1).timestamp())
    hi = int(first.timestamp())
    before = datetime.fromtimestamp(lo, zone).utcoffset()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if datetime.fromtimestamp(mid, zone).utcoffset() == before:
            lo = mid
        else:
            hi = mid
    return datetime.fromtimestamp(hi, UTC)


def require_aware(t: datetime, what: str = "time") -> None:
    if not isinstance(t, datetime) or t.tzinfo is None or t.utcoffset() is None:
        raise TypeError(f"{what} must be an aware datetime (see calendar.localize)")


# --------------------------------------------------------------------------- phases

@dataclass(frozen=True)
class PhaseName:
    """What a phase is called: its kind, whether long, and the date it ends on."""

    kind: str
    long: bool
    date: date


@dataclass(frozen=True)
class Phase:
    """One night or day: ``[start, end)``, aware datetimes in the schedule's zone.

    Compare phases' instants through UTC (or with datetimes of another zone): two
    datetimes sharing a tzinfo compare by wall clock, which is ambiguous in the
    repeated autumn hour.
    """

    kind: str
    start: datetime
    end: datetime
    long: bool = False

    @property
    def name(self) -> PhaseName:
        local = self.end.astimezone(self.end.tzinfo)
        day = local.date()
        if local.time() == time(0):  # ends at 24:00 of the day before
            day -= timedelta(days=1)
        return PhaseName(self.kind, self.long, day)

    @property
    def duration(self) -> timedelta:
        return _u(self.end) - _u(self.start)

    def contains(self, t: datetime) -> bool:
        return _u(self.start) <= _u(t) < _u(self.end)


def _nominal_boundaries(sched: Schedule, monday: date) -> Iterator[tuple[datetime, Turn]]:
    """Scheduled boundaries (UTC) from the week starting ``monday``, in order."""
    zone = sched.zone
    pending: tuple[datetime, Turn] | None = None
    while True:
        for turn in sched.week:
            wall = datetime.combine(monday + timedelta(days=turn.weekday), turn.at)
            b = (_localize_utc(wall, zone), turn)
            if pending is not None and b[0] > pending[0]:
                yield pending
            # equal instants (both in one gap): the earlier turn's phase is empty; drop it
            pending = b
        monday += timedelta(days=7)


@dataclass
class _Span:
    """A phase under construction, in UTC."""

    kind: str
    start: datetime
    end: datetime
    long: bool

    def out(self, zone: ZoneInfo) -> Phase:
        return Phase(self.kind, self.start.astimezone(zone), self.end.astimezone(zone), self.long)


def _nominal_spans(sched: Schedule, t: datetime) -> Iterator[_Span]:
    """Scheduled phases (UTC), the first being the one that contains ``t``."""
    t = _u(t)
    local_day = t.astimezone(sched.zone).date()
    # Two weeks back: a phase can last a week, and a gap can push a turn forward.
    monday = local_day - timedelta(days=local_day.weekday() + 14)
    it = _nominal_boundaries(sched, monday)
    prev_t, prev_turn = next(it)
    for b, turn in it:
        if b > t:
            yield _Span(prev_turn.kind, prev_t, b, prev_turn.long)
        prev_t, prev_turn = b, turn


# --------------------------------------------------------------------------- queries

def _walk(sched: Schedule, t: datetime) -> Iterator[_Span]:
    """Scheduled phases (UTC spans), the first being the one that contains ``t``."""
    require_aware(t)
    return _nominal_spans(sched, t)


def phases_from(schedule: Schedule, start: datetime, count: int) -> list[Phase]:
    """``count`` consecutive phases, the first containing ``start`` (phases are
    ``[start, end)``: on a boundary, the phase that starts there)."""
    out: list[Phase] = []
    if count <= 0:
        return out
    for span in _walk(schedule, start):
        out.append(span.out(schedule.zone))
        if len(out) == count:
            return out
    raise AssertionError("unreachable: the calendar never ends")


def phases_between(schedule: Schedule, t0: datetime, t1: datetime) -> list[Phase]:
    """Every phase overlapping ``[t0, t1)`` (e.g. for a calendar feed)."""
    require_aware(t1)
    out: list[Phase] = []
    for span in _walk(schedule, t0):
        if span.start >= _u(t1):
            return out
        out.append(span.out(schedule.zone))
    raise AssertionError("unreachable")


def phase_at(schedule: Schedule, t: datetime) -> Phase:
    """The phase in progress at ``t``."""
    return next(_walk(schedule, t)).out(schedule.zone)


def next_boundary(schedule: Schedule, t: datetime) -> datetime:
    """The first boundary strictly after ``t``, in the schedule's zone."""
    return phase_at(schedule, t).end


def boundaries_between(schedule: Schedule, t0: datetime, t1: datetime) -> list[datetime]:
    """Boundaries ``b`` with ``t0 < b <= t1``, oldest first, in the schedule's zone:
    what a worker that last ran at ``t0`` must process at ``t1``."""
    require_aware(t1)
    out: list[datetime] = []
    for span in _walk(schedule, t0):
        if span.end > _u(t1):
            return out
        out.append(span.end.astimezone(schedule.zone))
    raise AssertionError("unreachable")
