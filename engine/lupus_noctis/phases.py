"""The moments of Lupus Noctis as the engine counts them: night 1, morning 1,
afternoon 1, night 2... Dawn is resolved with its night, the evening with its
afternoon (docs/scenarios.md, Lupus Noctis)."""
from __future__ import annotations

from ..core import Phase

NIGHT, MORNING, AFTERNOON = "night", "morning", "afternoon"
MOMENTS = (NIGHT, MORNING, AFTERNOON)


def next_moment(phase: Phase) -> Phase:
    if phase.kind == NIGHT:
        return Phase(MORNING, phase.number)
    if phase.kind == MORNING:
        return Phase(AFTERNOON, phase.number)
    return Phase(NIGHT, phase.number + 1)
