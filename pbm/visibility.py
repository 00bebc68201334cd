"""Who may read which event, and how it reads: the one filter every page and mail uses.

The public bulletin, a player's reserved area, the results mail, the role letter,
the desk's announcements and preview, the Masters' report, and the narrator's page
of a game at the table (what to announce aloud, the narrator's notes, what a power
tells its actor) and its summary all call ``seen`` (or ``lines``) with the rows they
would show and who is looking; nothing else decides: no other module of the
service asks a ruleset's ``visible`` or ``describe``. A page that
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

from typing import Any, Iterable

from sqlalchemy import and_, false, or_, true
from sqlalchemy.sql.elements import ColumnElement

from engine.core import PRIVATE, PUBLIC
from engine.interface import Viewer
from engine.reading import Reading, Seen, as_events, seen

from .models import EventRow
from .sqljson import list_contains

# The filter itself is engine/reading.py (the narrator's phone runs it without a network).
__all__ = ["PRIVATE", "PUBLIC", "Reading", "Seen", "Viewer", "as_events", "lines", "readable_by", "seen"]


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
    """Only the worded lines (events a ruleset does not word are left out); through this
    module's ``seen``, the service's one entry to the filter."""
    return [s.text for s in seen(items, viewer, ruleset, lang) if s.text]
