"""The pyre of the Lupus games by mail (lupus-live-12 principale §1.7, tempo-reale-7
§3.3, FAQ 34) as the archive and its vote picture show it.

Both games record a pyre alike (``tally``, ``votes``, ``voters``, ``living``, ``quorum``,
``burned``) and ask the same quorum of it, half the living; they word it differently
(how a tie is broken), so each passes its own ``TALLY`` catalogue.
"""
from __future__ import annotations

from typing import Any

from ..core import Event
from ..interface import Tally, ranked
from ..texts import word


def pyre_tally(event: Event, lang: str, catalogue: dict[str, dict[str, Any]]) -> Tally | None:
    """The vote a ``pyre`` event records (None for any other event), its rule worded from
    ``catalogue``: ``valid`` (the quorum), and ``weights``, said of a players' copy whose
    count is declared at the weights everybody knows (``data["declared"]``, set by
    lupus-live-12's ``visible``; a game whose votes all weigh one never declares)."""
    if event.kind != "pyre":
        return None
    data = event.data
    living = int(data.get("living") or 0)
    needed = word(catalogue, "valid", lang, {"needed": (living + 1) // 2, "living": living,
                                             "voters": data.get("voters", len(data.get("votes") or {}))})
    if data.get("declared"):
        needed = f"{needed} {word(catalogue, 'weights', lang)}"
    tied = [str(n) for n in data.get("tied") or []]
    burned = data.get("burned")
    return Tally(counts=ranked(data.get("tally") or {}),
                 votes=tuple(sorted((data.get("votes") or {}).items())),
                 chosen=burned, needed=needed or "", valid=bool(data.get("quorum")),
                 tied=tuple(sorted(tied, key=lambda n: n != burned)) if tied else ())
