"""Who may read which event, and how it reads: the one filter every page and mail uses.

The public bulletin, a player's reserved area, the results mail, the role letter,
the desk's announcements and the Masters' report all call ``seen`` (or ``lines``)
with the rows they would show and who is looking; nothing else decides. A page that
reads the database may first narrow its query by ``readable_by`` (the same rule as
an SQL condition: the rows the viewer could be shown at all), so that the events it
may not show are never loaded; ``seen`` still decides, and redacts.

- An event not yet published (a draft the Masters are still settling) is for the
  Masters only.
- Otherwise the ruleset decides (``BaseRuleset.visible``): public events go to
  everyone, private ones to the players named, Masters' ones to the Masters; and a
  ruleset redacts what its rules keep secret (the cause of a death, a weighted
  tally) in the copy a player gets.
- Events of the same kind that happened together (the deaths of a night) reach the
  players in the order of their wording, never in the order the rules resolved
  them: that order could tell who acted on whom.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from sqlalchemy import and_, false, or_, true
from sqlalchemy.sql.elements import ColumnElement

from engine.core import PRIVATE, PUBLIC, Event
from engine.interface import Viewer
from engine.registry import get_ruleset

from .models import EventRow
from .sqljson import list_contains

__all__ = ["PRIVATE", "PUBLIC", "Seen", "Viewer", "lines", "readable_by", "seen"]


@dataclass(frozen=True)
class Seen:
    """One event as a viewer may read it: the (possibly redacted) event, the phase it
    belongs to (None: the set-up), and its wording in the viewer's language."""

    event: Event
    phase_id: int | None
    text: str | None

    @property
    def visibility(self) -> str:
        return self.event.visibility


def _as_event(item: Any) -> tuple[Event, int | None, bool]:
    """An EventRow (stored) or an engine Event (just produced, published with its mail)."""
    if isinstance(item, Event):
        return item, None, True
    event = Event(item.kind, dict(item.data or {}), item.visibility, list(item.recipients or []))
    return event, item.phase_id, bool(item.published)


def seen(items: Iterable[Any], viewer: Viewer, ruleset: str, lang: str) -> list[Seen]:
    """The events of ``items`` this viewer may see, as they may see them, worded in ``lang``.

    ``items`` are EventRows or engine Events, in the order they happened."""
    rules = get_ruleset(ruleset)
    out: list[Seen] = []
    for item in items:
        event, phase_id, published = _as_event(item)
        if not published and not viewer.master:
            continue
        shown = rules.visible(event, viewer)
        if shown is None:
            continue
        out.append(Seen(shown, phase_id, rules.describe(shown, lang, viewer)))
    return out if viewer.master else _unordered(out)


def readable_by(viewer: Viewer) -> ColumnElement[bool]:
    """The rows of ``events`` this viewer could be shown, as an SQL condition: ``seen``'s
    rule before the ruleset's redactions. Unpublished events are the Masters' only; then
    ``BaseRuleset.visible``: everything for a Master, public events for anyone, private
    ones for the players they name. A ruleset's ``visible`` may hide or redact more,
    never show more (tests/security/test_visibility_sql.py holds every ruleset to it),
    so a query narrowed by this condition loses nothing ``seen`` would show."""
    if viewer.master:
        return true()
    named = (and_(EventRow.visibility == PRIVATE, list_contains(EventRow.recipients, viewer.player))
             if viewer.player is not None else false())
    return and_(EventRow.published.is_(True), or_(EventRow.visibility == PUBLIC, named))


def lines(items: Iterable[Any], viewer: Viewer, ruleset: str, lang: str) -> list[str]:
    """Only the worded lines (events a ruleset does not word are left out)."""
    return [s.text for s in seen(items, viewer, ruleset, lang) if s.text]


def _unordered(items: list[Seen]) -> list[Seen]:
    """Public events of one kind within one phase, listed together at the place of the
    first one and sorted by their wording."""
    groups: dict[tuple[int | None, str], list[Seen]] = {}
    for s in items:
        if s.visibility == PUBLIC:
            groups.setdefault((s.phase_id, s.event.kind), []).append(s)
    out: list[Seen] = []
    placed: set[tuple[int | None, str]] = set()
    for s in items:
        key = (s.phase_id, s.event.kind)
        if s.visibility != PUBLIC or len(groups[key]) == 1:
            out.append(s)
        elif key not in placed:
            placed.add(key)
            out.extend(sorted(groups[key], key=lambda g: g.text or ""))
    return out
