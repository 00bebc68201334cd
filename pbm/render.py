"""Generic wording the pages and mails share: phase names, deadlines, a day's votes,
the reason an action was refused, and a submission as people read it.

Nothing here knows a ruleset: who may read an event, and how it reads, is
``pbm.visibility`` asking the game's ruleset; the service's own sentences are
Babel's (``pbm.i18n.gettext_in`` outside a request); refusals are worded by
``pbm.errors``, the one catalogue of them.
"""
from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from engine.core import GameState
from engine.interface import BaseRuleset
from engine.registry import get_ruleset

from . import calendar, errors
from .i18n import gettext_in
from .models import PhaseRow


def rejection(code: str, params: dict[str, Any], ruleset: str, lang: str) -> str:
    """Why an action was refused, in the player's language: the rules' codes in the
    ruleset's words, the service's own (a closed phase, a bad form) in its catalogue
    (``pbm.errors``), and a code worded by neither as a general sentence."""
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
