"""Events as the people entitled to them read them, in their language.

The one place that decides who sees what: public events go to everyone,
private ones only to the players named in them, master ones only to the
Masters. Pages and mails both call ``visible_events`` before wording.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from . import schedule, texts
from .models import EventRow, PhaseRow

PUBLIC_KINDS_SILENT = {"role_letter", "pack", "rejected_at_resolution"}


@dataclass
class Viewer:
    name: str | None = None  # the player's name in this game, or None
    is_master: bool = False


def can_see(row: EventRow, viewer: Viewer) -> bool:
    if viewer.is_master:
        return True
    if not row.published:
        return False
    if row.visibility == "public":
        return True
    if row.visibility == "private":
        return viewer.name is not None and viewer.name in (row.recipients or [])
    return False


def visible_events(rows: Iterable[EventRow], viewer: Viewer) -> list[EventRow]:
    return [r for r in rows if can_see(r, viewer)]


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}".replace(".", ",")
    return str(value)


YES_NO = {"it": {"yes": "sì", "no": "no"}, "en": {"yes": "yes", "no": "no"}}


def describe(kind: str, data: dict[str, Any], ruleset: str, lang: str) -> str | None:
    if kind == "pyre":
        return describe_pyre(data, lang)
    if data.get("answer") in ("yes", "no"):
        data = {**data, "answer": YES_NO.get(lang, YES_NO["it"])[data["answer"]]}
    return texts.event(kind, data, ruleset, lang)


def describe_pyre(data: dict[str, Any], lang: str) -> str:
    it = lang != "en"
    tally = data.get("tally") or {}
    parts = ", ".join(f"{n} {_num(v)}" for n, v in sorted(tally.items(), key=lambda kv: -float(kv[1])))
    if not data.get("quorum"):
        head = ("Votazione non valida: ha votato meno della metà dei vivi; nessuno va al rogo."
                if it else "No valid vote: fewer than half the living voted; nobody is burned.")
    elif data.get("burned"):
        head = (f"Il villaggio manda al rogo {data['burned']}." if it
                else f"The village sends {data['burned']} to the stake.")
    else:
        head = "Nessuno va al rogo." if it else "Nobody is burned."
    if parts:
        head += (" Voti: " if it else " Votes: ") + parts + "."
    return head


def vote_lines(data: dict[str, Any]) -> list[str]:
    """The published votes of a day (§1.5: votes are public): 'Anna → Carla'."""
    return [f"{voter} → {target}" for voter, target in sorted((data.get("votes") or {}).items())]


def lines_for(rows: Iterable[EventRow], ruleset: str, lang: str) -> list[str]:
    out = []
    for r in rows:
        if r.kind in PUBLIC_KINDS_SILENT and r.visibility == "public":
            continue
        text = describe(r.kind, r.data, ruleset, lang)
        if text:
            out.append(text)
    return out


def phase_label(phase: PhaseRow, lang: str, tz: str) -> str:
    """'notte di venerdì 2 dicembre' — phases are named by the date they end."""
    local_end = phase.ends_at.astimezone(schedule.ZoneInfo(tz))
    ph = schedule.Phase(phase.kind, phase.starts_at, local_end, phase.long, local_end)
    return schedule.phase_label(ph, lang)


def deadline_text(when: datetime, lang: str, tz: str) -> str:
    local = when.astimezone(schedule.ZoneInfo(tz))
    label = schedule.zone_label(tz, when)
    if lang == "en":
        return f"{local:%d/%m/%Y %H:%M} ({label.name})"
    return f"{local:%d/%m/%Y} alle {local:%H:%M} ({label.name})"
