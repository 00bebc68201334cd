"""The calendar: when a game's nights and days turn over, exactly, in a time zone.
Pure: no database, no request, no clock: every instant is passed in (docs/calendar.md);
only ``pbm calendar`` (``cli``) reads the time, once. Its words are the service's
catalogue's, read outside any request (``pbm.i18n.gettext_in``).

- ``schedule``: a schedule (a zone and a weekly cycle of turns), read from JSON, and
  the phases it makes: which is in progress, the next ones, the boundaries between;
- ``settings``: what a game keeps in its schedule column beside its calendar (its
  answer window, its extensions) and the schedule it follows;
- ``labels``: a phase's name ("notte di venerdì 2 dicembre"), a zone's label;
- ``ics``: the iCalendar feed of a game's phases;
- ``cli``: ``pbm calendar`` (not imported here: the command line loads it).

The names below are the package's public face: callers write
``from pbm import calendar; calendar.phases_from(...)``.
"""
from __future__ import annotations

from .ics import to_ics
from .labels import ZoneLabel, in_zone, phase_label, zone_label
from .schedule import (
    DEFAULT_TZ, KINDS, NO_CALENDAR, UTC, Phase, PhaseName, Schedule, Turn, boundaries_between,
    default_schedule, localize, next_boundary, parse_schedule, phase_at, phases_between, phases_from,
)
from .settings import ANSWER_WINDOW, EXTENSIONS, SETTINGS, calendar_spec, game_schedule

__all__ = [
    "ANSWER_WINDOW", "DEFAULT_TZ", "EXTENSIONS", "KINDS", "NO_CALENDAR", "SETTINGS", "UTC", "Phase",
    "PhaseName", "Schedule", "Turn", "ZoneLabel", "boundaries_between", "calendar_spec",
    "default_schedule", "game_schedule", "in_zone", "localize", "next_boundary", "parse_schedule",
    "phase_at", "phase_label", "phases_between", "phases_from", "to_ics", "zone_label",
]
