"""The two votes of the day as the archive and its vote picture show them (ruling N1):
the morning chooses the two of the run-off, the afternoon the one burned. Every
candidate the vote chose is listed, at 0 if nobody voted for them (bad luck's pick),
and the other run-off player always is; a tie is said to have been broken, and among
whom (``Tally.tied``: those listed at the count where the vote stopped), never who is
the unlucky player (nobody's to know)."""
from __future__ import annotations

from ..core import Event
from ..interface import Tally
from ..texts import word
from .texts import TALLY


def day_tally(event: Event, lang: str) -> Tally | None:
    data = event.data
    if event.kind == "runoff":
        chosen, rule = [str(n) for n in data.get("players") or []], "morning"
        candidates = list(chosen)
    elif event.kind == "pyre":
        chosen, rule = [str(data["burned"])] if data.get("burned") else [], "afternoon"
        candidates = [str(n) for n in data.get("runoff") or chosen]
    else:
        return None
    counts = {str(k): float(v) for k, v in (data.get("tally") or {}).items() if v}
    for name in candidates:
        counts.setdefault(name, 0.0)
    # Most votes first; at equal counts whom the vote chose (the tie's winners) first.
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0] not in chosen, kv[0]))
    needed = word(TALLY, rule, lang) or ""
    tied: tuple[str, ...] = ()
    if data.get("tie_broken"):
        needed = f"{needed} {word(TALLY, 'tie_broken', lang)}"
        # The count at the cut, the last place bad luck filled; who sat nearest the
        # unlucky seat among those at it stays untold.
        cut = counts.get(chosen[-1], 0.0) if chosen else 0.0
        tied = tuple(name for name, count in order if count == cut)
    return Tally(counts=tuple(order), votes=tuple(sorted((data.get("votes") or {}).items())),
                 chosen=chosen[0] if chosen else None, needed=needed,
                 also_chosen=tuple(chosen[1:]), tied=tied)
