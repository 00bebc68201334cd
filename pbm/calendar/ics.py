"""A game's calendar as an iCalendar feed (RFC 5545): one event per phase, its end
the deadline, so a player's calendar application shows every deadline."""
from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Iterable

from ..i18n import gettext_in, lang_of
from .labels import phase_label, zone_label
from .schedule import UTC, Phase, require_aware


def _ics_escape(text: str) -> str:
    """A TEXT value as RFC 5545 §3.3.11 writes it: a backslash, a semicolon and a comma
    escaped, every line break (CRLF, LF or a bare CR, which a lenient reader takes for
    the end of the line and then reads what follows as a property of its own) as
    ``\\n``, and no other control character (the grammar allows none but HTAB)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc")
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _ics_fold(line: str) -> str:
    """RFC 5545 §3.1: lines of at most 75 octets, continued with CRLF + space,
    never splitting a UTF-8 character."""
    out: list[str] = []
    chunk: list[str] = []
    size, limit = 0, 75
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > limit:
            out.append("".join(chunk))
            chunk, size, limit = [" "], 1, 75
        chunk.append(ch)
        size += n
    out.append("".join(chunk))
    return "\r\n".join(out)


def _ics_utc(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "game"


def to_ics(phases: Iterable[Phase], game_name: str, url: str | None = None, *,
           dtstamp: datetime, lang: str = "it", uid_prefix: str | None = None,
           names: dict[int, str] | None = None) -> str:
    """A VCALENDAR with one VEVENT per phase: the event spans the phase and its end
    (DTEND) is the deadline. Times in UTC. UIDs depend on the game and the phase's
    name, so a re-published feed updates events when deadlines move. ``names``: by
    position, the name of a moment the calendar cannot word (a Complots answer
    window, worded by its ruleset); the rest are named as nights and days."""
    require_aware(dtstamp, "dtstamp")
    prefix = uid_prefix or _slug(game_name)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Lupus PBM//calendar//IT",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
             f"X-WR-CALNAME:{_ics_escape(game_name)}"]
    for i, ph in enumerate(phases):
        summary = f"{game_name}: {(names or {}).get(i) or phase_label(ph, lang)}"
        zone_name = getattr(ph.end.tzinfo, "key", None)
        label = zone_label(zone_name, ph.end) if zone_name else None
        # "(Europe/Rome, UTC+01:00)": one pair of parentheses, never two (issue 31).
        where = f" ({label.name}, UTC{label.offset})" if label is not None else ""
        deadline = ph.end.strftime("%H:%M")
        desc = gettext_in(lang_of(lang), "Deadline %(time)s%(where)s", time=deadline, where=where)
        lines += ["BEGIN:VEVENT",
                  f"UID:{prefix}-{ph.kind}-{_ics_utc(ph.end)}@lupus-pbm",
                  f"DTSTAMP:{_ics_utc(dtstamp)}",
                  f"DTSTART:{_ics_utc(ph.start)}",
                  f"DTEND:{_ics_utc(ph.end)}",
                  f"SUMMARY:{_ics_escape(summary)}",
                  f"DESCRIPTION:{_ics_escape(desc)}",
                  "TRANSP:TRANSPARENT"]
        if url:
            lines.append(f"URL:{url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_ics_fold(line) + "\r\n" for line in lines)
