"""How the calendar is worded: a phase's name, a zone's name and offset.

Names
-----
Phases are named by the local date on which they end, as the rulebooks name them:
"notte di venerdì 2 dicembre". A phase ending exactly at 00:00 ends on the
previous date (at 24:00).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date, datetime

from babel.dates import format_date

from ..i18n import gettext_in, lang_of
from .schedule import Phase, PhaseName, require_aware, zone_info


def _phase_words(kind: str, long: bool, when: str, lang: str) -> str:
    if kind == "night":
        return (gettext_in(lang, "long night of %(date)s", date=when) if long
                else gettext_in(lang, "night of %(date)s", date=when))
    if kind == "day":
        return (gettext_in(lang, "long day of %(date)s", date=when) if long
                else gettext_in(lang, "day of %(date)s", date=when))
    return f"{kind} {when}"


def phase_label(phase: Phase | PhaseName, lang: str = "it", *, year: bool = False) -> str:
    """"notte di venerdì 2 dicembre" / "night of Friday 2 December".

    ``lang`` is a language code ("it", "en", "en_GB", "it-IT"); English for codes
    starting with "en", Italian (the service's first language) otherwise.
    """
    name = phase.name if isinstance(phase, Phase) else phase
    return _label(name.kind, name.long, name.date, lang_of(lang), year)


@functools.lru_cache(maxsize=4096)
def _label(kind: str, long: bool, day: date, lang: str, year: bool) -> str:
    # Cached: a boundary words the same few phases for every player's mail.
    when = format_date(day, "EEEE d MMMM y" if year else "EEEE d MMMM", locale=lang)
    return _phase_words(kind, long, when, lang)


@dataclass(frozen=True)
class ZoneLabel:
    name: str  # "Europe/Rome"
    offset: str  # "+01:00"
    abbreviation: str  # "CET" (as the tz database has it; may be numeric like "-03")

    def __str__(self) -> str:
        return f"{self.name} (UTC{self.offset})"


def zone_label(tz: str, at: datetime) -> ZoneLabel:
    """The zone's name and its offset at instant ``at``, for "deadline in your time"."""
    require_aware(at)
    local = at.astimezone(zone_info(tz))
    off = local.utcoffset()
    minutes = int(off.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hh, mm = divmod(abs(minutes), 60)
    return ZoneLabel(tz, f"{sign}{hh:02d}:{mm:02d}", local.tzname() or "")


def in_zone(t: datetime, tz: str) -> datetime:
    """The same instant on the reader's clock."""
    require_aware(t)
    return t.astimezone(zone_info(tz))
