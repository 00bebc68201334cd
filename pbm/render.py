"""Generic wording the pages and mails share: phase names, deadlines, a day's votes,
and the reason an action was refused.

Nothing here knows a ruleset: who may read an event, and how it reads, is
``pbm.visibility`` asking the game's ruleset; the service's own sentences are
Babel's (``pbm.i18n.gettext_in`` outside a request).
"""
from __future__ import annotations

from datetime import date, datetime, timezone
from functools import lru_cache
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime

from engine.registry import get_ruleset

from . import schedule
from .i18n import gettext_in
from .models import PhaseRow


def rejection(code: str, params: dict[str, Any], ruleset: str, lang: str) -> str:
    """Why an action was refused, in the player's language: the service's own codes
    (a closed phase, a bad form) in its words, the rules' codes in the ruleset's."""
    service = _service_rejection(code, params, lang)
    if service is not None:
        return service
    return get_ruleset(ruleset).describe_rejection(code, params, lang) or code


def _service_rejection(code: str, params: dict[str, Any], lang: str) -> str | None:
    if code == "phase_closed":
        return gettext_in(lang, "The phase is closed: the action was not recorded.")
    if code == "moment_passed":  # an answer window's answer after it closed (or aimed at an earlier one)
        return gettext_in(lang, "Too late: that moment has passed. The answer was not recorded.")
    if code == "extension_not_asked":
        return gettext_in(lang, "You can ask for more time only while an answer of yours is awaited.")
    if code == "no_extensions_left":
        return gettext_in(lang, "You have used every extension of this game (%(allowed)s).",
                          allowed=params.get("allowed", ""))
    if code == "unknown_standing":
        return gettext_in(lang, "Unknown standing answer: %(keys)s.",
                          keys=", ".join(map(str, params.get("keys") or [])))
    if code == "standing_missing":
        return gettext_in(lang, "Which standing answer? Write it after the command.")
    if code == "disqualified":
        return gettext_in(lang, "You have been disqualified: you can no longer act.")
    if code == "empty_submission":
        return gettext_in(lang, "You chose nothing.")
    if code == "bad_form":
        return gettext_in(lang, "Invalid form: %(errors)s.", errors=params.get("errors", ""))
    if code == "bad_submission":
        return gettext_in(lang, "Invalid request (%(reason)s).", reason=params.get("reason", ""))
    if code.endswith("_too_long"):  # pbm/limits.py: what a player writes, in forms and mail alike
        return _too_long(code, params, lang)
    return None


def _too_long(code: str, params: dict[str, Any], lang: str) -> str:
    sizes = {"length": params.get("length"), "limit": params.get("limit")}
    if code == "shout_too_long":
        return gettext_in(lang, "The shout is too long (%(length)s characters, at most %(limit)s): it was "
                                "not recorded. Shorten it and send it again.", **sizes)
    if code == "question_too_long":
        return gettext_in(lang, "The question is too long (%(length)s characters, at most %(limit)s): it "
                                "was not recorded. Shorten it and send it again.", **sizes)
    if code == "notes_too_long":
        return gettext_in(lang, "The notes are too long (%(length)s characters, at most %(limit)s): they "
                                "were not recorded. Shorten them and send them again.", **sizes)
    return gettext_in(lang, "A text is too long (%(length)s characters, at most %(limit)s): it was not "
                            "recorded.", **sizes)


def titles(ruleset: str, state: Any, lang: str) -> dict[str, list[str]]:
    """What every page says beside each player's name (the ruleset's ``titles``)."""
    if state is None:
        return {}
    rules = get_ruleset(ruleset)
    return {p.name: found for p in state.players if (found := rules.titles(state, p.name, lang))}


def pending_lines(ruleset: str, pending: list[dict[str, Any]] | None, lang: str) -> list[str]:
    """What a draft waits for, as the Masters read it (the desk's and the mail's):
    each item worded by the ruleset, never its kind and data."""
    from engine.core import MASTER, Event
    from engine.interface import Viewer

    rules = get_ruleset(ruleset)
    out = []
    for item in pending or []:
        text = rules.describe(Event(item["kind"], item.get("data") or {}, MASTER), lang, Viewer(master=True))
        out.append(text or gettext_in(lang, "A question of the rules for the Masters (see the desk)."))
    return out


def phase_label(phase: PhaseRow, lang: str, tz: str) -> str:
    """'notte di venerdì 2 dicembre' — phases are named by the date they end. A moment
    that is not a calendar phase (an answer window, a narrator's morning at a table
    with no deadline to date it by) is named by its ruleset, with its number."""
    from engine.registry import get_ruleset

    from .operations.timing import has_deadline  # operations imports this module
    if phase.kind not in ("day", "night") or not has_deadline(phase):
        return get_ruleset(phase.game.ruleset).describe_moment(phase.kind, phase.number, lang)
    ends = phase.ends_at if phase.ends_at.tzinfo else phase.ends_at.replace(tzinfo=timezone.utc)
    try:
        day = ends.astimezone(schedule.ZoneInfo(tz)).date()
    except (KeyError, ValueError, OverflowError):
        day = ends.date()
    return numbered_label(phase.kind, phase.number, phase.long, day, lang)


def numbered_label(kind: str, number: int, long: bool, day: date, lang: str) -> str:
    """"giorno 3, venerdì 27 novembre": a calendar phase by its number and the day it
    ends. The number keeps two phases apart when a Master closes them early on one day,
    and ties the bulletin that announced a phase to its page in the archive; the day
    is the one it really ended (a phase closed early takes the day it closed)."""
    when = format_date(day, "EEEE d MMMM", locale=_babel(lang))
    if kind == "night":
        return (gettext_in(lang, "long night %(number)s, %(date)s", number=number, date=when) if long
                else gettext_in(lang, "night %(number)s, %(date)s", number=number, date=when))
    return (gettext_in(lang, "long day %(number)s, %(date)s", number=number, date=when) if long
            else gettext_in(lang, "day %(number)s, %(date)s", number=number, date=when))


def when_text(when: datetime, lang: str, tz: str) -> str:
    """A moment on the reader's clock, as their language writes it: "lun 23 nov 2026,
    10:00" / "Mon 23 Nov 2026, 10:00" (a log line, a mail's date, a sign-up's end).
    A naive ``when`` is the database's UTC."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return format_datetime(when.astimezone(schedule.ZoneInfo(tz)), "EEE d MMM y, HH:mm", locale=_babel(lang))


def day_text(day: date | str, lang: str) -> str:
    """A calendar day as the reader's language writes it: "giovedì 26 novembre 2026" /
    "Thursday 26 November 2026" (an absence's first and last day). ISO text is read."""
    if isinstance(day, str):
        day = date.fromisoformat(day)
    return format_date(day, "EEEE d MMMM y", locale=_babel(lang))


def count_text(n: int, one: str, many: str, lang: str) -> str:
    """"1 giorno", "3 giorni": ``one`` or ``many`` (each with ``%(n)s``) as the
    language's plural rule (Babel's) asks for ``n``; for the mail templates, whose
    words are in the template's own language rather than the catalogue."""
    form = Locale.parse(_babel(lang)).plural_form(n)
    return (one if form == "one" else many) % {"n": n}


def _babel(lang: str) -> str:
    return "en" if str(lang).lower().startswith("en") else "it"


@lru_cache(maxsize=1024)
def deadline_text(when: datetime, lang: str, tz: str) -> str:
    """``when`` in zone ``tz``, worded in ``lang``: the same few deadlines are written
    on every receipt and page of a phase (and the words depend on nothing else)."""
    local = when.astimezone(schedule.ZoneInfo(tz))
    label = schedule.zone_label(tz, when)
    return gettext_in(lang, "%(date)s %(time)s (%(zone)s)", date=f"{local:%d/%m/%Y}",
                      time=f"{local:%H:%M}", zone=label.name)
