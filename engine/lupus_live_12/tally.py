"""The pyre as the archive and its vote picture show it (principale §1.7)."""
from __future__ import annotations

from ..core import Event
from ..interface import Tally, ranked
from ..texts import word

NEEDED = {
    "valid": {
        "it": "Votazione valida se vota almeno la metà dei vivi: {needed} su {living}; hanno votato "
              "in {voters}. Va al rogo chi riceve più voti; a parità decide la sorte.",
        "en": "The vote counts if at least half the living vote: {needed} of {living}; {voters} "
              "voted. The player with the most votes goes to the stake; a tie is drawn by lot.",
    },
    "weights": {
        "it": "Ogni voto vale 1, quello del Sindaco 1¼.",
        "en": "Each vote counts 1, the Sindaco's 1¼.",
    },
}


def pyre_tally(event: Event, lang: str) -> Tally | None:
    if event.kind != "pyre":
        return None
    data = event.data
    living = int(data.get("living") or 0)
    needed = word(NEEDED, "valid", lang, {"needed": (living + 1) // 2, "living": living,
                                           "voters": data.get("voters", len(data.get("votes") or {}))})
    if data.get("declared"):  # the players' copy: the count at the weights everybody knows
        needed = f"{needed} {word(NEEDED, 'weights', lang)}"
    return Tally(counts=ranked(data.get("tally") or {}),
                 votes=tuple(sorted((data.get("votes") or {}).items())),
                 chosen=data.get("burned"), needed=needed or "", valid=bool(data.get("quorum")))
