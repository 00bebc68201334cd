"""The figures of a finished Lupus game (all three editions): nights survived, how
each player died, the day's votes and how often they went to the one burnt, and who
won (``engine.figures``)."""
from __future__ import annotations

from typing import Iterable

from ..core import GameState
from . import texts
from ..figures import DEATHS, NIGHTS, VOTES, Figures, GameFigures, Moment, start_figures, winners_of

NIGHT = "night"

CAUSES = {
    "night": {"it": "Di notte", "en": "At night"},
    "pyre": {"it": "Sul rogo", "en": "At the stake"},
    "masters": {"it": "Per mano dei Master", "en": "By the Masters"},
    "wolves": {"it": "Sbranato dai lupi", "en": "Killed by the wolves"},
}


class LupusFigures(GameFigures):
    shows = frozenset({NIGHTS, DEATHS, VOTES})
    causes = CAUSES

    def faction_name(self, faction: str, lang: str) -> str:
        return texts.faction_name(faction, lang)

    def count(self, final: GameState, moments: Iterable[Moment]) -> dict[str, Figures]:
        figures = start_figures(final)
        dead: set[str] = set()
        game_over = None
        for moment in moments:
            for event in moment.events:
                data = event.data
                if event.kind == "death":
                    name = str(data.get("player"))
                    dead.add(name)
                    if name in figures:
                        figures[name].died = str(data.get("cause") or moment.phase.kind)
                elif event.kind == "revive":
                    name = str(data.get("player"))
                    dead.discard(name)
                    if name in figures:
                        figures[name].died = ""
                elif event.kind == "pyre":
                    burned = data.get("burned")
                    for voter, choice in (data.get("votes") or {}).items():
                        if voter in figures:
                            figures[voter].votes_cast += 1
                            if burned is not None and choice == burned:
                                figures[voter].votes_on_chosen += 1
                elif event.kind == "game_over":
                    game_over = event
            if moment.phase.kind == NIGHT:
                for name, f in figures.items():
                    if name not in dead:
                        f.nights_survived += 1
        for name in winners_of(final, game_over):
            if name in figures:
                figures[name].won = True
        return figures


FIGURES = LupusFigures()
