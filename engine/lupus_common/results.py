"""What a phase of a Lupus game did, read from its events: who died, who came back,
the day's vote, and what each player learned (SCENARIOS.md, "Result items")."""
from __future__ import annotations

from typing import Any

from ..core import PRIVATE, Event, Resolution

# Result items a player can learn from a phase (see SCENARIOS.md "Result items").
# A private event whose kind is listed here becomes the item {kind: value},
# except "failed" which is the bare string.
RESULT_KINDS = (
    "failed", "aura", "mystic", "role", "answer", "acted_on", "visitors",
    "others", "visited_by", "spettro", "ritual", "partners",
)


def deaths(res: Resolution) -> list[str]:
    return [e.data["player"] for e in res.events if e.kind == "death"]


def revivals(res: Resolution) -> list[str]:
    return [e.data["player"] for e in res.events if e.kind == "revive"]


def pyre_of(res: Resolution) -> Event | None:
    """The day's vote at the stake, if the phase held one."""
    return next((e for e in res.events if e.kind == "pyre"), None)


def result_item(event: Event) -> Any:
    if event.kind == "failed":
        return "failed"
    return {event.kind: event.data.get(event.kind)}


def results_for(res: Resolution, name: str) -> list[Any]:
    """The result items ``name`` learned from the phase."""
    return [result_item(e) for e in res.events
            if e.visibility == PRIVATE and name in e.to and e.kind in RESULT_KINDS]
