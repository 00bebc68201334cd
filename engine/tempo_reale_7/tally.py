"""The pyre as the archive and its vote picture show it (§3.3, FAQ 34)."""
from __future__ import annotations

from ..core import Event
from ..interface import Tally, ranked
from ..texts import word

NEEDED = {
    "valid": {
        "it": "Votazione valida se vota almeno la metà dei vivi: {needed} su {living}; voti validi "
              "{voters}. Va al rogo chi riceve più voti; a parità decide il voto del Sindaco, "
              "altrimenti la sorte.",
        "en": "The vote counts if at least half the living vote: {needed} of {living}; {voters} "
              "valid votes. The player with the most votes goes to the stake; a tie is broken by "
              "the mayor's vote, else by lot.",
    },
}


def pyre_tally(event: Event, lang: str) -> Tally | None:
    if event.kind != "pyre":
        return None
    data = event.data
    living = int(data.get("living") or 0)
    needed = word(NEEDED, "valid", lang, {"needed": (living + 1) // 2, "living": living,
                                           "voters": data.get("voters", len(data.get("votes") or {}))})
    return Tally(counts=ranked(data.get("tally") or {}),
                 votes=tuple(sorted((data.get("votes") or {}).items())),
                 chosen=data.get("burned"), needed=needed or "", valid=bool(data.get("quorum")))
