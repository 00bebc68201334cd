"""The calendar: when a game's nights and days turn over, exactly, in a time zone
(``schedule``), and ``pbm calendar`` to print them (``cli``). Pure: no database, no
Flask, no clock; docs/calendar.md.

The names below are the package's public face: callers write
``from pbm import calendar; calendar.phases_from(...)``.
"""
from __future__ import annotations

from .schedule import (
    ANSWER_WINDOW, DEFAULT_TZ, EXTENSIONS, KINDS, NO_CALENDAR, SETTINGS, UTC, Phase, PhaseName,
    Schedule, Turn, ZoneLabel, boundaries_between, calendar_spec, default_schedule, game_schedule,
    in_zone, localize, next_boundary, parse_schedule, phase_at, phase_label, phases_between,
    phases_from, to_ics, zone_label,
)

__all__ = [
    "ANSWER_WINDOW", "DEFAULT_TZ", "EXTENSIONS", "KINDS", "NO_CALENDAR", "SETTINGS", "UTC", "Phase",
    "PhaseName", "Schedule", "Turn", "ZoneLabel", "boundaries_between", "calendar_spec",
    "default_schedule", "game_schedule", "in_zone", "localize", "next_boundary", "parse_schedule",
    "phase_at", "phase_label", "phases_between", "phases_from", "to_ics", "zone_label",
]
