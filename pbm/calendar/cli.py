"""`pbm calendar`: print a game's coming phases (or an iCalendar feed of them).

    pbm calendar --ruleset <key> --from 2026-03-26T20:00 --count 5

prints one phase per line, ``night|day START END`` in ISO 8601 local time with the
UTC offset; the first line is the phase in progress at --from. See docs/calendar.md.
"""
from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone

from engine.registry import available

from pbm import calendar as sch


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "calendar",
        help="print the coming nights and days of a schedule",
        description="Print the phases of a schedule: one line per phase, "
                    "'night|day START END', the first being the phase in progress at --from.")
    p.add_argument("--ruleset", help="a ruleset's key (see `pbm scenario` or engine/registry.py): "
                                     "its default schedule (default: the first registered)")
    p.add_argument("--schedule", metavar="JSON",
                   help="a schedule in JSON (compact or 'week' form); replaces the default")
    p.add_argument("--tz", help="time zone of the schedule, e.g. Europe/Rome")
    p.add_argument("--from", dest="from_", metavar="TIME",
                   help="ISO 8601 time; without an offset it is local time in the schedule's "
                        "zone (default: now)")
    p.add_argument("--count", type=int, default=10, help="how many phases (default 10)")
    p.add_argument("--label", metavar="LANG",
                   help="append the phase's name in this language (it, en)")
    p.add_argument("--ics", metavar="GAME_NAME",
                   help="print an iCalendar feed for this game instead of lines")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.schedule:
            schedule = sch.parse_schedule(args.schedule, tz=args.tz)
        else:
            schedule = sch.default_schedule(args.ruleset or available()[0])
            if args.tz:
                schedule = schedule.with_tz(args.tz)
        if args.from_:
            start = sch.localize(datetime.fromisoformat(args.from_), schedule)
        else:
            start = datetime.now(timezone.utc)  # the one place that reads the clock
        if args.count < 0:
            raise ValueError("--count cannot be negative")
    except ValueError as exc:
        print(f"pbm calendar: {exc}", file=sys.stderr)
        return 2
    phases = sch.phases_from(schedule, start, args.count)
    if args.ics:
        sys.stdout.write(sch.to_ics(phases, args.ics, dtstamp=datetime.now(timezone.utc),
                                    lang=args.label or "it"))
        return 0
    for ph in phases:
        line = f"{ph.kind} {ph.start.isoformat()} {ph.end.isoformat()}"
        if args.label:
            line += f" {sch.phase_label(ph, args.label)}"
        print(line)
    return 0
