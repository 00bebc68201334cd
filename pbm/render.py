"""Generic wording the pages and mails share: phase names, deadlines, a day's votes,
the reason an action was refused, and a submission as people read it.

Nothing here knows a ruleset: who may read an event, and how it reads, is
``pbm.visibility`` asking the game's ruleset; the service's own sentences are
Babel's (``pbm.i18n.gettext_in`` outside a request).
"""
from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from engine.core import GameState
from engine.interface import BaseRuleset
from engine.registry import get_ruleset

from . import calendar
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


def phase_label(phase: PhaseRow, lang: str, tz: str) -> str:
    """'notte di venerdì 2 dicembre' — phases are named by the date they end. A moment
    that is not a calendar phase (an answer window, a narrator's morning at a table
    with no deadline to date it by) is named by its ruleset, with its number."""
    if phase.kind not in ("day", "night") or not phase.has_deadline:
        return get_ruleset(phase.game.ruleset).describe_moment(phase.kind, phase.number, lang)
    local_end = phase.ends_at.astimezone(ZoneInfo(tz))
    ph = calendar.Phase(phase.kind, phase.starts_at, local_end, phase.long)
    try:
        return calendar.phase_label(ph, lang)
    except (KeyError, ValueError, OverflowError):
        return f"{phase.kind} {phase.number}"


@lru_cache(maxsize=1024)
def deadline_text(when: datetime, lang: str, tz: str) -> str:
    """``when`` in zone ``tz``, worded in ``lang``: the same few deadlines are written
    on every receipt and page of a phase (and the words depend on nothing else)."""
    local = when.astimezone(ZoneInfo(tz))
    label = calendar.zone_label(tz, when)
    return gettext_in(lang, "%(date)s %(time)s (%(zone)s)", date=f"{local:%d/%m/%Y}",
                      time=f"{local:%H:%M}", zone=label.name)
