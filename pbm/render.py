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
    """An event in full, as the Masters read it (causes of death, tallies with weights)."""
    if kind == "pyre":
        return describe_pyre(data, lang)
    if kind == "death":
        return describe_death(data, lang, with_cause=True)
    worded = describe_setup(kind, data, lang)
    if worded is not None:
        return worded
    if kind == "rejected_at_resolution" and data.get("code"):
        why = texts.rejection(data["code"], data.get("params") or {}, ruleset, lang)
        return (f"Un'azione non era più valida alla fine della fase: {why}" if lang != "en"
                else f"An action was no longer valid at the end of the phase: {why}")
    if data.get("answer") in ("yes", "no"):
        data = {**data, "answer": YES_NO.get(lang, YES_NO["it"])[data["answer"]]}
    return texts.event(kind, data, ruleset, lang)


def describe_for_players(kind: str, data: dict[str, Any], ruleset: str, lang: str) -> str | None:
    """An event as the players may read it: only what the rulebooks publish.

    - A death is announced without its cause, except the pyre and the Masters' own
      decision, which everybody saw. The cause would give away what the rules keep
      secret: the use of powers (lupus-live-12-principale §1.5), and the role of the
      dead (a "missile" death names a Missile, an "usurpatore" one an Erede), which
      no power reveals in Lupus LIVE! and only the Medium learns in tempo reale (§3.7).
    - The Lupus LIVE! pyre shows who was designated and, separately, who voted whom
      (§1.5: "I voti dati sono pubblici"), and the count those votes make at the
      weights everybody knows (1, the Sindaco's 1¼), not the real weighted totals:
      those would give every voter's weight away, and so the Sabbino (weight 0,
      personaggi §2.5) and the targets of the vote rituals (§4.5, §4.11).
      In tempo reale every vote weighs one, so its totals say nothing new (§3.3).
    """
    if kind == "death":
        return describe_death(data, lang)
    if kind == "pyre":
        if ruleset == "lupus-live-12":
            return describe_pyre({**data, "tally": public_tally(data)}, lang, public_weights=True)
        return describe_pyre(data, lang)
    return describe(kind, data, ruleset, lang)


# Causes of death as the Masters read them (engine codes of both rulesets).
CAUSES = {
    "wolves": ("sbranato dai Lupi", "killed by the wolves"),
    "cacciatore": ("colpito dal Cacciatore", "shot by the Cacciatore"),
    "usurpatore": ("ucciso dall'Usurpatore", "killed by the Usurpatore"),
    "omicidio": ("rituale di Omicidio", "Omicidio ritual"),
    "missile": ("Missile", "Missile"),
    "assassino": ("ucciso dall'Assassino", "shot by the Assassino"),
    "morte": ("Spettro della Morte", "Spettro della Morte"),
}


def describe_death(data: dict[str, Any], lang: str, with_cause: bool = False) -> str:
    """A death as the players read it; ``with_cause`` for the Masters' report and desk."""
    player, cause = data.get("player"), data.get("cause")
    en = lang == "en"
    if cause == "pyre":
        return f"{player} dies at the stake." if en else f"{player} muore sul rogo."
    if cause == "masters":
        return (f"{player} dies by the Masters' decision." if en
                else f"{player} muore per decisione delle Master.")
    line = f"{player} dies." if en else f"Muore {player}."
    if with_cause and cause:
        label = CAUSES.get(cause, (cause, cause))[1 if en else 0]
        line = line[:-1] + f" ({label})."
    return line


def _listing(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} ({v})" for k, v in value.items()) or "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "—"
    return "—" if value in (None, "") else str(value)


def describe_setup(kind: str, data: dict[str, Any], lang: str) -> str | None:
    """The structured facts the catalog would print as Python dicts (role letters
    by mail, the tempo reale election), or None."""
    it = lang != "en"
    if kind == "role_letter" and "mystic" in data:
        base = texts.event(kind, data, None, lang) or ""
        mystic = (("Sei un mistico." if data["mystic"] else "Non sei un mistico.") if it
                  else ("You are a mystic." if data["mystic"] else "You are not a mystic."))
        return f"{base} {mystic}".strip()
    if kind == "knows":
        return (f"Conosci sin dall'inizio: {_listing(data.get('players'))}." if it
                else f"You know from the start: {_listing(data.get('players'))}.")
    if kind == "propositions":
        props = "; ".join(
            (f"{p.get('player')} ha il ruolo {p.get('role')}" if it
             else f"{p.get('player')} has the role {p.get('role')}")
            for p in data.get("propositions") or [])
        return (f"Le tue quattro proposizioni (esattamente due vere e due false): {props}." if it
                else f"Your four propositions (exactly two true, two false): {props}.")
    if kind == "election":
        counts = data.get("counts") or {}
        parts = ", ".join(f"{n} {v}" for n, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        return (f"Elezione del Sindaco: {parts}." if it else f"Mayor election: {parts}.")
    return None


def describe_pyre(data: dict[str, Any], lang: str, totals: bool = True,
                  public_weights: bool = False) -> str:
    it = lang != "en"
    tally = (data.get("tally") or {}) if totals else {}
    parts = ", ".join(f"{n} {_num(v)}" for n, v in sorted(tally.items(), key=lambda kv: (-float(kv[1]), kv[0])))
    if not data.get("quorum"):
        head = ("Votazione non valida: ha votato meno della metà dei vivi; nessuno va al rogo."
                if it else "No valid vote: fewer than half the living voted; nobody is burned.")
    elif data.get("burned"):
        head = (f"Il villaggio manda al rogo {data['burned']}." if it
                else f"The village sends {data['burned']} to the stake.")
    else:
        head = "Nessuno va al rogo." if it else "Nobody is burned."
    if parts and public_weights:
        head += (" Voti dichiarati (1 ciascuno, il Sindaco 1¼): " if it
                 else " Votes cast (1 each, the Sindaco's 1¼): ") + parts + "."
    elif parts:
        head += (" Voti: " if it else " Votes: ") + parts + "."
    return head


def public_tally(data: dict[str, Any]) -> dict[str, float]:
    """The Lupus LIVE! count anybody can make from the published votes: each vote weighs
    1 and the Sindaco's 1¼ (principale §1.7, personaggi §3); no secret weight enters."""
    out: dict[str, float] = {}
    for voter, target in (data.get("votes") or {}).items():
        out[target] = out.get(target, 0) + (1.25 if voter == data.get("mayor") else 1)
    return out


def vote_lines(data: dict[str, Any]) -> list[str]:
    """The published votes of a day (§1.5: votes are public): 'Anna → Carla'."""
    return [f"{voter} → {target}" for voter, target in sorted((data.get("votes") or {}).items())]


def lines_for(rows: Iterable[EventRow], ruleset: str, lang: str) -> list[str]:
    """The players' lines (bulletin, results mail): never the Masters' wording.

    The deaths of a phase are listed together in the order of the names: the engine
    records them in the order of resolution (the wolves at step 4 of the night before
    the Cacciatore's shot, the rituals and the Missile at step 10), so their order would
    say who killed whom even without the cause. The same for the returns to life."""
    rows = list(rows)
    for kind in ("death", "revive"):  # a Messia's and a Resurrezione's returns alike
        same = [r for r in rows if r.kind == kind and r.visibility == "public"]
        if same:
            first = rows.index(same[0])
            rest = [r for r in rows if r not in same]
            rows = rest[:first] + sorted(same, key=lambda r: str(r.data.get("player"))) + rest[first:]
    out = []
    for r in rows:
        if r.kind in PUBLIC_KINDS_SILENT and r.visibility == "public":
            continue
        text = describe_for_players(r.kind, r.data, ruleset, lang)
        if text:
            out.append(text)
    return out


def phase_label(phase: PhaseRow, lang: str, tz: str) -> str:
    """'notte di venerdì 2 dicembre' — phases are named by the date they end.

    A moment that is not a phase of the calendar (a narrator's morning at a table,
    with no deadline to date it by) is named by its kind and number as the engine
    counts them."""
    local_end = phase.ends_at.astimezone(schedule.ZoneInfo(tz))
    ph = schedule.Phase(phase.kind, phase.starts_at, local_end, phase.long)
    try:
        return schedule.phase_label(ph, lang)
    except (KeyError, ValueError, OverflowError):
        return f"{phase.kind} {phase.number}"


def deadline_text(when: datetime, lang: str, tz: str) -> str:
    local = when.astimezone(schedule.ZoneInfo(tz))
    label = schedule.zone_label(tz, when)
    if lang == "en":
        return f"{local:%d/%m/%Y %H:%M} ({label.name})"
    return f"{local:%d/%m/%Y} alle {local:%H:%M} ({label.name})"
