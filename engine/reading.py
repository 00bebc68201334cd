"""Who may read which event, and how it reads: the one filter (``pbm/visibility.py``
tells the service's pages and mail what it means; this is its part that needs no
database, so the narrator's phone reads a night's events, without a network, exactly
as the server's page would: ``engine/table_screen.py``).

Items are engine ``Event``s or stored rows with the same fields (``kind``, ``data``,
``visibility``, ``recipients``, ``phase_id``, ``published``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .core import PRIVATE, PUBLIC, Event
from .interface import Viewer
from .registry import get_ruleset

__all__ = ["PRIVATE", "PUBLIC", "Reading", "Seen", "Viewer", "as_events", "lines", "seen"]


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


def as_events(items: Iterable[Any]) -> list[Event]:
    """Stored rows or engine Events, as engine Events (for what the rules make of them)."""
    return [_as_event(item)[0] for item in items]


def seen(items: Iterable[Any], viewer: Viewer, ruleset: str, lang: str) -> list[Seen]:
    """The events of ``items`` this viewer may see, as they may see them, worded in ``lang``.

    ``items`` are EventRows or engine Events, in the order they happened."""
    return Reading(items, ruleset).seen(viewer, lang)


class Reading:
    """``seen`` for many viewers of the same events (a boundary's results mail, one
    per player): the events are read once, and each public event is filtered and
    worded once per language for all the players, as the interface promises it reads
    alike for every one of them (``BaseRuleset.visible``); every other event is
    still asked of the ruleset for each reader. A Master's reading is worked out
    whole, as ever."""

    def __init__(self, items: Iterable[Any], ruleset: str) -> None:
        self.rules = get_ruleset(ruleset)
        self.items = [_as_event(item) for item in items]
        self._public: dict[str, list[Seen | None]] = {}

    def _public_in(self, lang: str) -> list[Seen | None]:
        """Each item's reading by any player if it is a published public event, else None."""
        if lang not in self._public:
            anyone = Viewer()
            out: list[Seen | None] = []
            for event, phase_id, published in self.items:
                shown = (self.rules.visible(event, anyone)
                         if published and event.visibility == PUBLIC else None)
                out.append(None if shown is None else
                           Seen(shown, phase_id, self.rules.describe(shown, lang, anyone)))
            self._public[lang] = out
        return self._public[lang]

    def public(self, lang: str) -> list[Seen]:
        """What every player sees alike: the published public events, in ``seen``'s
        order (a player's ``seen`` is these with their ``private`` ones among them)."""
        return _unordered([s for s in self._public_in(lang) if s is not None])

    def private(self, viewer: Viewer, lang: str) -> list[Seen]:
        """What only this player sees: the rest of their ``seen``, in its order."""
        return [s for s in self.seen(viewer, lang) if s.visibility == PRIVATE]

    def seen(self, viewer: Viewer, lang: str) -> list[Seen]:
        rules = self.rules
        if viewer.master:
            return [Seen(shown, phase_id, rules.describe(shown, lang, viewer))
                    for event, phase_id, _published in self.items
                    if (shown := rules.visible(event, viewer)) is not None]
        public = self._public_in(lang)
        out: list[Seen] = []
        for (event, phase_id, published), shared in zip(self.items, public):
            if event.visibility == PUBLIC:
                if shared is not None:
                    out.append(shared)
                continue
            # Not public: the ruleset decides, for each reader (each gets their own copy).
            if not published:
                continue
            shown = rules.visible(event, viewer)
            if shown is not None:
                out.append(Seen(shown, phase_id, rules.describe(shown, lang, viewer)))
        return _unordered(out)


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
