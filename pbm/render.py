"""Generic wording the pages and mails share: phase names, deadlines, a day's votes,
and the reason an action was refused.

Nothing here knows a ruleset: who may read an event, and how it reads, is
``pbm.visibility`` asking the game's ruleset; the service's own sentences are
Babel's (``pbm.i18n.gettext_in`` outside a request).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

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
    if code == "disqualified":
        return gettext_in(lang, "You have been disqualified: you can no longer act.")
    if code == "empty_submission":
        return gettext_in(lang, "You chose nothing.")
    if code == "bad_form":
        return gettext_in(lang, "Invalid form: %(errors)s.", errors=params.get("errors", ""))
    if code == "bad_submission":
        return gettext_in(lang, "Invalid request (%(reason)s).", reason=params.get("reason", ""))
    return None


def phase_label(phase: PhaseRow, lang: str, tz: str) -> str:
    """'notte di venerdì 2 dicembre' — phases are named by the date they end."""
    local_end = phase.ends_at.astimezone(schedule.ZoneInfo(tz))
    ph = schedule.Phase(phase.kind, phase.starts_at, local_end, phase.long)
    return schedule.phase_label(ph, lang)


def deadline_text(when: datetime, lang: str, tz: str) -> str:
    local = when.astimezone(schedule.ZoneInfo(tz))
    label = schedule.zone_label(tz, when)
    return gettext_in(lang, "%(date)s %(time)s (%(zone)s)", date=f"{local:%d/%m/%Y}",
                      time=f"{local:%H:%M}", zone=label.name)
