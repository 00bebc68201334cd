"""What a phase of a Lupus game did, read from its events: who died, who came back,
the day's vote, what each player learned (docs/scenarios.md, "Result items"), and a death
as the players read it."""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from ..core import PRIVATE, Event, Resolution

# Result items a player can learn from a phase (see docs/scenarios.md "Result items").
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


# Causes of death (or of a return to life) everybody saw happen: the stake, the
# Masters' own decision (engine/remedies.py).
SEEN_CAUSES = ("pyre", "masters")


def without_cause(event: Event, seen: Iterable[str | None] = SEEN_CAUSES) -> Event:
    """A death or a return to life as the players read it: its ``cause`` left out unless
    everybody saw it happen (``seen``), since the cause would tell who used which power
    and so what role the dead held. Any other event is returned as it is."""
    if event.kind in ("death", "revive") and event.data.get("cause") not in tuple(seen):
        return dataclasses.replace(event, data={k: v for k, v in event.data.items() if k != "cause"})
    return event
