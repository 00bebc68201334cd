"""The phase calendar. Expected instants are written by hand in UTC (from the
rulebooks' hours and the EU daylight-saving dates), never computed by the module."""
from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm import calendar as sch

UTC = timezone.utc
LIVE = sch.default_schedule("lupus-live-12")
TR7 = sch.default_schedule("tempo-reale-7")
DAILY = sch.parse_schedule({"day_start": "09:00", "day_end": "21:00", "days": "all"})


def Z(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def spans(phases):
    """Phases as (kind, start UTC, end UTC) for comparing with hand-written values."""
    return [(p.kind, p.start.astimezone(UTC), p.end.astimezone(UTC)) for p in phases]


# --------------------------------------------------------------------------- defaults

def test_lupus_live_12_rulebook_example_naming():
    # lupus-live-12-principale §1.2: "la notte di venerdì 2 dicembre tra giovedì e
    # venerdì seguita dal giorno lungo di domenica 4 dicembre e dalla notte di lunedì
    # 5 dicembre". December 2022: CET, UTC+1.
    phases = sch.phases_from(LIVE, Z(2022, 12, 1, 22, 30), 3)
    assert spans(phases) == [
        ("night", Z(2022, 12, 1, 20), Z(2022, 12, 2, 8)),
        ("day", Z(2022, 12, 2, 8), Z(2022, 12, 4, 20)),
        ("night", Z(2022, 12, 4, 20), Z(2022, 12, 5, 8)),
    ]
    assert [sch.phase_label(p, "it") for p in phases] == [
        "notte di venerdì 2 dicembre",
        "giorno lungo di domenica 4 dicembre",
        "notte di lunedì 5 dicembre",
    ]
    assert [sch.phase_label(p, "en") for p in phases] == [
        "night of Friday 2 December",
        "long day of Sunday 4 December",
        "night of Monday 5 December",
    ]
    assert phases[1].name == sch.PhaseName("day", True, date(2022, 12, 4))
    assert phases[0].name == sch.PhaseName("night", False, date(2022, 12, 2))
    assert sch.phase_label(phases[0], "it_IT", year=True) == "notte di venerdì 2 dicembre 2022"


def test_lupus_live_12_week_in_winter():
    # Monday 12 January 2026 09:00 CET = 08:00Z.
    phases = sch.phases_from(LIVE, Z(2026, 1, 12, 8), 10)
    expected = []
    for d in range(12, 16):  # Mon..Thu
        expected += [("day", Z(2026, 1, d, 8), Z(2026, 1, d, 20)),
                     ("night", Z(2026, 1, d, 20), Z(2026, 1, d + 1, 8))]
    expected += [("day", Z(2026, 1, 16, 8), Z(2026, 1, 18, 20)),
                 ("night", Z(2026, 1, 18, 20), Z(2026, 1, 19, 8))]
    assert spans(phases) == expected
    assert [p.long for p in phases] == [False] * 8 + [True, False]


def test_tempo_reale_7_hours_and_long_day():
    # lupus-tempo-reale-7 §2.1: days 8-22, long day Friday 8:00 - Sunday 22:00.
    # Thursday 15 January 2026 23:00 CET is in the night Thu 22:00 -> Fri 08:00.
    phases = sch.phases_from(TR7, Z(2026, 1, 15, 22), 3)
    assert spans(phases) == [
        ("night", Z(2026, 1, 15, 21), Z(2026, 1, 16, 7)),
        ("day", Z(2026, 1, 16, 7), Z(2026, 1, 18, 21)),
        ("night", Z(2026, 1, 18, 21), Z(2026, 1, 19, 7)),
    ]
    assert sch.phase_label(phases[1], "it") == "giorno lungo di domenica 18 gennaio"


def test_stored_form_of_lupus_live_12():
    assert json.loads(LIVE.to_json()) == {
        "tz": "Europe/Rome",
        "week": ["mon 09:00 day", "mon 21:00 night", "tue 09:00 day", "tue 21:00 night",
                 "wed 09:00 day", "wed 21:00 night", "thu 09:00 day", "thu 21:00 night",
                 "fri 09:00 day long", "sun 21:00 night"],
    }


@pytest.mark.parametrize("name", ["lupus-live-12", "tempo-reale-7", "lupus-noctis", "complots"])
def test_stored_form_round_trips(name):
    s = sch.default_schedule(name)
    assert sch.parse_schedule(s.to_json()) == s
    assert sch.parse_schedule(json.loads(s.to_json())) == s
    assert sch.game_schedule(name, s.to_dict()) == s


def test_game_schedule_empty_column_means_ruleset_default():
    assert sch.game_schedule("tempo-reale-7", {}) is sch.default_schedule("tempo-reale-7")
    assert sch.game_schedule("tempo-reale-7", None) is sch.default_schedule("tempo-reale-7")


def test_other_rulesets_defaults():
    # Lupus Noctis is now a registered ruleset whose moments the narrator closes: no
    # calendar of its own, only the time zone to write times in.
    assert sch.default_schedule("lupus-noctis") is sch.NO_CALENDAR
    complots = sch.phases_from(sch.default_schedule("complots"), Z(2026, 1, 17, 12), 2)
    assert spans(complots) == [("day", Z(2026, 1, 16, 20), Z(2026, 1, 17, 20)),
                               ("day", Z(2026, 1, 17, 20), Z(2026, 1, 18, 20))]
    with pytest.raises(ValueError):
        sch.default_schedule("chess")


# --------------------------------------------------------------------------- DST

def test_spring_2026_long_day_loses_an_hour():
    # 29 March 2026, 02:00 CET -> 03:00 CEST, inside the long day.
    phases = sch.phases_from(LIVE, Z(2026, 3, 26, 19), 4)  # Thu 20:00 CET
    assert spans(phases) == [
        ("day", Z(2026, 3, 26, 8), Z(2026, 3, 26, 20)),
        ("night", Z(2026, 3, 26, 20), Z(2026, 3, 27, 8)),
        ("day", Z(2026, 3, 27, 8), Z(2026, 3, 29, 19)),
        ("night", Z(2026, 3, 29, 19), Z(2026, 3, 30, 7)),
    ]
    assert phases[2].duration == timedelta(hours=59)
    assert phases[2].end.utcoffset() == timedelta(hours=2)
    assert phases[2].start.utcoffset() == timedelta(hours=1)


def test_autumn_2026_long_day_gains_an_hour():
    # 25 October 2026, 03:00 CEST -> 02:00 CET.
    ph = sch.phase_at(TR7, Z(2026, 10, 24, 12))
    assert spans([ph]) == [("day", Z(2026, 10, 23, 6), Z(2026, 10, 25, 21))]
    assert ph.duration == timedelta(hours=63)


@pytest.mark.parametrize("inside, start, end, hours", [
    (Z(2026, 3, 28, 23), Z(2026, 3, 28, 20), Z(2026, 3, 29, 7), 11),    # spring 2026
    (Z(2026, 10, 24, 23), Z(2026, 10, 24, 19), Z(2026, 10, 25, 8), 13),  # autumn 2026
    (Z(2027, 3, 27, 23), Z(2027, 3, 27, 20), Z(2027, 3, 28, 7), 11),    # spring 2027
    (Z(2027, 10, 30, 23), Z(2027, 10, 30, 19), Z(2027, 10, 31, 8), 13),  # autumn 2027
])
def test_nights_across_dst_changes(inside, start, end, hours):
    ph = sch.phase_at(DAILY, inside)
    assert spans([ph]) == [("night", start, end)]
    assert ph.duration == timedelta(hours=hours)
    # wall clock still says 21:00 -> 09:00
    assert (ph.start.time(), ph.end.time()) == (time(21), time(9))


def test_2027_long_days_across_changes():
    assert spans([sch.phase_at(LIVE, Z(2027, 3, 27, 12))]) == [
        ("day", Z(2027, 3, 26, 8), Z(2027, 3, 28, 19))]
    assert spans([sch.phase_at(LIVE, Z(2027, 10, 30, 12))]) == [
        ("day", Z(2027, 10, 29, 7), Z(2027, 10, 31, 20))]


def test_boundary_in_skipped_hour_moves_to_end_of_gap():
    custom = sch.parse_schedule({"tz": "Europe/Rome",
                                 "week": ["sun 02:30 night", "sun 12:00 day"]})
    ph = sch.phase_at(custom, Z(2026, 3, 28, 12))
    # 02:30 does not exist on 29 March 2026: 03:00 CEST = 01:00Z.
    assert ph.end.astimezone(UTC) == Z(2026, 3, 29, 1)
    assert ph.end.isoformat() == "2026-03-29T03:00:00+02:00"
    nxt = sch.phases_from(custom, ph.end, 2)
    assert spans(nxt) == [("night", Z(2026, 3, 29, 1), Z(2026, 3, 29, 10)),
                          ("day", Z(2026, 3, 29, 10), Z(2026, 4, 5, 0, 30))]


def test_boundary_in_repeated_hour_takes_first_occurrence():
    custom = sch.parse_schedule({"week": ["sun 02:30 night", "sun 12:00 day"]})
    ph = sch.phase_at(custom, Z(2026, 10, 24, 12))
    # 02:30 happens twice on 25 October 2026; the first is 02:30 CEST = 00:30Z.
    assert ph.end.astimezone(UTC) == Z(2026, 10, 25, 0, 30)
    assert ph.end.utcoffset() == timedelta(hours=2)
    # a week later, no change: 02:30 CET = 01:30Z
    assert sch.phase_at(custom, Z(2026, 10, 31, 12)).end.astimezone(UTC) == Z(2026, 11, 1, 1, 30)
    # 2027 too
    assert sch.phase_at(custom, Z(2027, 10, 30, 12)).end.astimezone(UTC) == Z(2027, 10, 31, 0, 30)
    assert sch.phase_at(custom, Z(2027, 3, 27, 12)).end.astimezone(UTC) == Z(2027, 3, 28, 1)


def test_two_turns_in_one_gap_leave_no_empty_phase():
    custom = sch.parse_schedule({"week": ["sun 02:10 day", "sun 02:40 night", "sun 12:00 day"]})
    phases = sch.phases_from(custom, Z(2026, 3, 29, 0), 2)
    # both turns resolve to 01:00Z: the day 02:10-02:40 vanishes
    assert spans(phases) == [("day", Z(2026, 3, 22, 11), Z(2026, 3, 29, 1)),
                             ("night", Z(2026, 3, 29, 1), Z(2026, 3, 29, 10))]


def test_localize_rulings():
    assert sch.localize(datetime(2026, 3, 29, 2, 30), "Europe/Rome").astimezone(UTC) == Z(2026, 3, 29, 1)
    assert sch.localize(datetime(2026, 10, 25, 2, 30), "Europe/Rome").astimezone(UTC) == Z(2026, 10, 25, 0, 30)
    assert sch.localize(datetime(2026, 3, 8, 2, 30), "America/New_York").astimezone(UTC) == Z(2026, 3, 8, 7)
    assert sch.localize(datetime(2026, 7, 1, 12), "Europe/Rome").astimezone(UTC) == Z(2026, 7, 1, 10)
    aware = Z(2026, 7, 1, 12)
    assert sch.localize(aware, "Europe/Rome") == aware


# --------------------------------------------------------------------------- boundaries

def test_on_a_boundary_the_phase_starting_there():
    b = Z(2022, 12, 2, 8)  # Fri 09:00 CET: night ends, long day starts
    assert sch.phase_at(LIVE, b).kind == "day"
    assert sch.phase_at(LIVE, b).start.astimezone(UTC) == b
    assert sch.phase_at(LIVE, b - timedelta(microseconds=1)).kind == "night"
    assert sch.next_boundary(LIVE, b).astimezone(UTC) == Z(2022, 12, 4, 20)
    assert sch.next_boundary(LIVE, b - timedelta(seconds=1)).astimezone(UTC) == b
    assert sch.phases_from(LIVE, b, 1)[0].start.astimezone(UTC) == b


def test_boundaries_between_catches_up():
    got = sch.boundaries_between(LIVE, Z(2026, 3, 26, 19), Z(2026, 3, 30, 7))
    assert [b.astimezone(UTC) for b in got] == [
        Z(2026, 3, 26, 20), Z(2026, 3, 27, 8), Z(2026, 3, 29, 19), Z(2026, 3, 30, 7)]
    # t0 excluded, t1 included
    got = sch.boundaries_between(LIVE, Z(2026, 3, 26, 20), Z(2026, 3, 27, 8))
    assert [b.astimezone(UTC) for b in got] == [Z(2026, 3, 27, 8)]
    assert sch.boundaries_between(LIVE, Z(2026, 3, 27, 9), Z(2026, 3, 28, 9)) == []


def test_naive_times_are_refused():
    with pytest.raises(TypeError):
        sch.phase_at(LIVE, datetime(2026, 1, 1, 12))


def test_phases_between():
    got = sch.phases_between(LIVE, Z(2026, 1, 12, 12), Z(2026, 1, 13, 8))
    assert spans(got) == [("day", Z(2026, 1, 12, 8), Z(2026, 1, 12, 20)),
                          ("night", Z(2026, 1, 12, 20), Z(2026, 1, 13, 8))]


# --------------------------------------------------------------------------- schedules

def test_every_day_a_day():
    week = sch.phases_from(DAILY, Z(2026, 1, 12, 8), 14)
    assert [p.kind for p in week] == ["day", "night"] * 7
    assert all(p.duration == timedelta(hours=12) for p in week)
    assert not any(p.long for p in week)


def test_nights_only():
    nights = sch.parse_schedule({"week": [f"{d} 21:00 night" for d in
                                          ("mon", "tue", "wed", "thu", "fri", "sat", "sun")]})
    got = sch.phases_from(nights, Z(2026, 1, 12, 12), 3)
    assert spans(got) == [("night", Z(2026, 1, 11, 20), Z(2026, 1, 12, 20)),
                          ("night", Z(2026, 1, 12, 20), Z(2026, 1, 13, 20)),
                          ("night", Z(2026, 1, 13, 20), Z(2026, 1, 14, 20))]
    assert sch.phase_label(got[1], "it") == "notte di martedì 13 gennaio"


def test_weekdays_only_gives_a_long_weekend_night():
    s = sch.parse_schedule({"days": "mon-fri"})
    ph = sch.phase_at(s, Z(2026, 1, 17, 12))  # Saturday
    assert spans([ph]) == [("night", Z(2026, 1, 16, 20), Z(2026, 1, 19, 8))]
    assert ph.long
    assert sch.phase_label(ph, "it") == "notte lunga di lunedì 19 gennaio"
    assert sch.phase_label(ph, "en") == "long night of Monday 19 January"


def test_day_only_weekend():
    s = sch.parse_schedule({"week": [
        "mon 09:00 day", "mon 21:00 night", "tue 09:00 day", "tue 21:00 night",
        "wed 09:00 day", "wed 21:00 night", "thu 09:00 day", "thu 21:00 night",
        "fri 09:00 day", "fri 21:00 night", "sat 09:00 day", "sun 09:00 day"]})
    got = sch.phases_from(s, Z(2026, 1, 16, 21), 4)
    assert spans(got) == [("night", Z(2026, 1, 16, 20), Z(2026, 1, 17, 8)),
                          ("day", Z(2026, 1, 17, 8), Z(2026, 1, 18, 8)),
                          ("day", Z(2026, 1, 18, 8), Z(2026, 1, 19, 8)),
                          ("day", Z(2026, 1, 19, 8), Z(2026, 1, 19, 20))]


def test_long_day_over_other_weekdays_and_other_hours():
    s = sch.parse_schedule({"day_start": "10:00", "day_end": "23:30",
                            "long_day": {"from": "sat", "to": "mon"}})
    got = sch.phases_from(s, Z(2026, 1, 17, 12), 4)  # Saturday 13:00 CET
    assert spans(got) == [("day", Z(2026, 1, 17, 9), Z(2026, 1, 19, 22, 30)),
                          ("night", Z(2026, 1, 19, 22, 30), Z(2026, 1, 20, 9)),
                          ("day", Z(2026, 1, 20, 9), Z(2026, 1, 20, 22, 30)),
                          ("night", Z(2026, 1, 20, 22, 30), Z(2026, 1, 21, 9))]
    assert got[0].long and not got[2].long
    assert sch.phase_label(got[0], "it") == "giorno lungo di lunedì 19 gennaio"


def test_day_past_midnight_and_naming_at_midnight():
    late = sch.parse_schedule({"day_start": "18:00", "day_end": "02:00"})
    ph = sch.phase_at(late, Z(2026, 1, 14, 0))  # Wed 01:00 CET
    assert spans([ph]) == [("day", Z(2026, 1, 13, 17), Z(2026, 1, 14, 1))]
    assert ph.name.date == date(2026, 1, 14)
    midnight = sch.parse_schedule({"day_start": "12:00", "day_end": "00:00"})
    ph = sch.phase_at(midnight, Z(2026, 1, 14, 15))  # Wed 16:00 CET, ends Thu 00:00
    assert spans([ph]) == [("day", Z(2026, 1, 14, 11), Z(2026, 1, 14, 23))]
    assert ph.name.date == date(2026, 1, 14)  # ends at 24:00 Wednesday


def test_other_zone():
    s = sch.parse_schedule(LIVE.to_json(), tz="America/New_York")
    # Monday 12 January 2026 09:00 EST = 14:00Z
    assert spans([sch.phase_at(s, Z(2026, 1, 12, 15))]) == [
        ("day", Z(2026, 1, 12, 14), Z(2026, 1, 13, 2))]


@pytest.mark.parametrize("bad", [
    '{"day_start": "9"}',
    '{"days": "mon-fru"}',
    '{"tz": "Mars/Olympus"}',
    '{"colour": "red"}',
    '{"week": []}',
    '{"week": ["mon 09:00 day", "mon 09:00 night"]}',
    '{"week": ["mon 09:00 dawn"]}',
    '{"days": []}',
    '{"long_days": [{"from": "fri", "to": "sun"}, {"from": "sat", "to": "mon"}]}',
    'not json',
    '[1, 2]',
])
def test_bad_schedules_are_refused(bad):
    with pytest.raises(ValueError):
        sch.parse_schedule(bad)


# --------------------------------------------------------------------------- display

def test_zone_label():
    assert str(sch.zone_label("Europe/Rome", Z(2026, 1, 15, 12))) == "Europe/Rome (UTC+01:00)"
    summer = sch.zone_label("Europe/Rome", Z(2026, 7, 15, 12))
    assert (summer.offset, summer.abbreviation) == ("+02:00", "CEST")
    assert sch.zone_label("America/St_Johns", Z(2026, 1, 15, 12)).offset == "-03:30"
    assert sch.in_zone(Z(2026, 1, 15, 12), "Asia/Tokyo").hour == 21


# --------------------------------------------------------------------------- iCalendar

def _unfold(text: str) -> list[str]:
    raw = text.encode("utf-8")
    assert raw.endswith(b"\r\n")
    physical = raw.split(b"\r\n")[:-1]
    for line in physical:
        assert b"\n" not in line and b"\r" not in line
        assert len(line) <= 75, line
        line.decode("utf-8")  # a fold never splits a character
    logical: list[bytes] = []
    for line in physical:
        if line[:1] in (b" ", b"\t"):
            logical[-1] += line[1:]
        else:
            logical.append(line)
    return [line.decode("utf-8") for line in logical]


def test_ics():
    name = "Partita di prova, città di Nottingburg; con un nome lunghissimo per piegare le righe è così"
    phases = sch.phases_from(LIVE, Z(2022, 12, 1, 22, 30), 3)
    text = sch.to_ics(phases, name, "https://lupus.example/g/1",
                      dtstamp=Z(2022, 11, 28, 12), lang="it")
    assert any(len(line.encode()) == 75 for line in text.split("\r\n"))  # folding did happen
    lines = _unfold(text)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines and any(line.startswith("PRODID:") for line in lines)
    events, cur = [], None
    for line in lines:
        if line == "BEGIN:VEVENT":
            cur = {}
        elif line == "END:VEVENT":
            events.append(cur)
            cur = None
        elif cur is not None:
            k, v = line.split(":", 1)
            cur[k] = v
    assert [(e["DTSTART"], e["DTEND"]) for e in events] == [
        ("20221201T200000Z", "20221202T080000Z"),
        ("20221202T080000Z", "20221204T200000Z"),
        ("20221204T200000Z", "20221205T080000Z")]
    assert all(e["DTSTAMP"] == "20221128T120000Z" for e in events)
    assert len({e["UID"] for e in events}) == 3
    assert events[1]["SUMMARY"] == (
        "Partita di prova\\, città di Nottingburg\\; con un nome lunghissimo per piegare "
        "le righe è così: giorno lungo di domenica 4 dicembre")
    assert events[0]["URL"] == "https://lupus.example/g/1"
    assert "21:00" in events[1]["DESCRIPTION"] and "Europe/Rome" in events[1]["DESCRIPTION"]



# --------------------------------------------------------------------------- properties

instants = st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2029, 1, 1),
                        timezones=st.just(UTC))


@settings(max_examples=150, deadline=None)
@given(t=instants)
def test_live_12_phases_are_contiguous_and_alternate(t):
    phases = sch.phases_from(LIVE, t, 6)
    assert phases[0].contains(t)
    for a, b in zip(phases, phases[1:]):
        assert a.end.astimezone(UTC) == b.start.astimezone(UTC)
        assert a.kind != b.kind
    for p in phases:
        hours = p.duration / timedelta(hours=1)
        if p.long:
            assert p.kind == "day" and hours in (59, 60, 61)
            assert p.start.weekday() == 4 and p.end.weekday() == 6
        else:
            assert hours in ((12,) if p.kind == "day" else (11, 12, 13))
        local = (p.start.time(), p.end.time())
        assert local == ((time(9), time(21)) if p.kind == "day" else (time(21), time(9)))


@settings(max_examples=100, deadline=None)
@given(t0=instants, hours=st.integers(min_value=0, max_value=400))
def test_boundaries_between_agree_with_next_boundary(t0, hours):
    t1 = t0 + timedelta(hours=hours)
    got = sch.boundaries_between(TR7, t0, t1)
    walk, t = [], t0
    while True:
        b = sch.next_boundary(TR7, t)
        if b > t1:
            break
        walk.append(b)
        t = b
    assert got == walk
