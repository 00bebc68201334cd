"""The pyre as the archive and its vote picture show it (principale §1.7)."""
from __future__ import annotations

from ..core import Event
from ..interface import Tally, ranked
from ..texts import word
from .texts import TALLY


def pyre_tally(event: Event, lang: str) -> Tally | None:
    if event.kind != "pyre":
        return None
    data = event.data
    living = int(data.get("living") or 0)
    needed = word(TALLY, "valid", lang, {"needed": (living + 1) // 2, "living": living,
                                           "voters": data.get("voters", len(data.get("votes") or {}))})
    if data.get("declared"):  # the players' copy: the count at the weights everybody knows
        needed = f"{needed} {word(TALLY, 'weights', lang)}"
    return Tally(counts=ranked(data.get("tally") or {}),
                 votes=tuple(sorted((data.get("votes") or {}).items())),
                 chosen=data.get("burned"), needed=needed or "", valid=bool(data.get("quorum")))
