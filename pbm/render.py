"""Generic wording the pages and mails share: phase names, deadlines, a day's votes,
the reason an action was refused, and a submission as people read it.

Nothing here knows a ruleset: who may read an event, and how it reads, is
``pbm.visibility`` asking the game's ruleset; the service's own sentences are
Babel's (``pbm.i18n.gettext_in`` outside a request); refusals are worded by
``pbm.errors``, the one catalogue of them.
"""
from __future__ import annotations

from datetime import date, datetime, timezone
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_datetime

from engine.core import GameState
from engine.interface import BaseRuleset
from engine.registry import get_ruleset

from . import calendar, errors
from .i18n import gettext_in, lang_of
from .models import PhaseRow


def rejection(code: str, params: dict[str, Any], ruleset: str, lang: str) -> str:
    """Why an action was refused, in the player's language: the rules' codes in the
    ruleset's words, the service's own (a closed phase, a bad form) in its catalogue
    (``pbm.errors``), and a code worded by neither as a general sentence. A window
    closed early by someone's answer (``moment_closed_by``) names them and their answer,
    worded by the game ("Bruno: Sfido Anna (Duchessa)")."""
    if code == "moment_closed_by" and isinstance(params.get("args"), dict):
        params = {**params, "what": "; ".join(describe_submission(params["args"], lang, ruleset))}
    return errors.say(code, params, lang, ruleset=ruleset, rules_first=True)


_ANY_GAME = BaseRuleset()  # the words every game shares, when the caller names no game


def describe_submission(submission: dict[str, Any], lang: str, ruleset: str = "",
                        state: GameState | None = None) -> list[str]:
    """A submission as people read it, worded by its game (``describe_submission``);
    the words every game shares when the caller names no game."""
    return (get_ruleset(ruleset) if ruleset else _ANY_GAME).describe_submission(submission, lang, state)


def titles(ruleset: str, state: Any, lang: str) -> dict[str, list[str]]:
    """What every page says beside each player's name (the ruleset's ``titles``)."""
    if state is None:
        return {}
    rules = get_ruleset(ruleset)
    return {p.name: found for p in state.players if (found := rules.titles(state, p.name, lang))}


def how_it_came(source: str | None, lang: str) -> str:
    """Beside a player's own move, how it reached the service when not by the page
    they read it on: in words, never the stored code ("mail", "master"); "" for the web."""
    if source == "mail":
        return gettext_in(lang, "by mail")
    if source == "master":
        return gettext_in(lang, "entered by the Masters")
    return gettext_in(lang, "standing answer") if source == "standing" else ""


def received_by(source_detail: str | None, lang: str) -> str:
    """How a move a Master entered for a player reached the Master, as a sentence says it
    ("arrivato via SMS"), never the stored code ("sms", "phone"); "" when unknown."""
    words = {"sms": gettext_in(lang, "sent by SMS"), "phone": gettext_in(lang, "given by phone"),
             "in person": gettext_in(lang, "given in person"), "email": gettext_in(lang, "sent by mail"),
             "forward": gettext_in(lang, "sent by mail")}
    return words.get(source_detail or "", "")


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
    """'notte 3, venerdì 2 dicembre': a calendar phase by its number and the day it ends. A moment
    that is not a calendar phase (an answer window, a narrator's morning at a table
    with no deadline to date it by) is named by its ruleset, with its number."""
    if phase.kind not in ("day", "night") or not phase.has_deadline:
        return get_ruleset(phase.game.ruleset).describe_moment(phase.kind, phase.number, lang)
    # The day it was named by when it opened: closed early or moved, it keeps its name.
    day = phase.named_on or named_day(phase.ends_at, tz)
    return numbered_label(phase.kind, phase.number, phase.long, day, lang)


def named_day(ends_at: datetime, tz: str) -> date:
    """The day a phase ending at ``ends_at`` is named by, on the game's clock."""
    ends = ends_at if ends_at.tzinfo else ends_at.replace(tzinfo=timezone.utc)
    try:
        return ends.astimezone(ZoneInfo(tz)).date()
    except (KeyError, ValueError, OverflowError):
        return ends.date()


def numbered_label(kind: str, number: int, long: bool, day: date, lang: str) -> str:
    """"giorno 3, venerdì 27 novembre": a calendar phase by its number and the day it
    ends. The number keeps two phases apart when a Master closes them early on one day,
    and ties the bulletin that announced a phase to its page in the archive; the day
    is the one its deadline fell on when it opened, so a name once read never changes
    (a phase closed early or moved keeps it: issue 31)."""
    when = format_date(day, "EEEE d MMMM", locale=lang_of(lang))
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
    return format_datetime(when.astimezone(ZoneInfo(tz)), "EEE d MMM y, HH:mm", locale=lang_of(lang))


def day_text(day: date | str, lang: str) -> str:
    """A calendar day as the reader's language writes it: "giovedì 26 novembre 2026" /
    "Thursday 26 November 2026" (an absence's first and last day). ISO text is read."""
    if isinstance(day, str):
        day = date.fromisoformat(day)
    return format_date(day, "EEEE d MMMM y", locale=lang_of(lang))


@lru_cache(maxsize=1024)
def deadline_text(when: datetime, lang: str, tz: str, seconds: bool = False) -> str:
    """``when`` in zone ``tz``, worded in ``lang``: the same few deadlines are written
    on every receipt and page of a phase (and the words depend on nothing else).
    ``seconds``: to the second, for an answer window that ends on one (issue 31)."""
    local = when.astimezone(ZoneInfo(tz))
    label = calendar.zone_label(tz, when)
    return gettext_in(lang, "%(date)s %(time)s (%(zone)s)", date=f"{local:%d/%m/%Y}",
                      time=f"{local:%H:%M:%S}" if seconds else f"{local:%H:%M}", zone=label.name)
