"""The figures of a finished game of Complots: challenges made and won, each
player's bluffs caught, coups, how each lost their last card, and the winner
(``engine.figures``)."""
from __future__ import annotations

from typing import Iterable

from ..core import GameState
from ..figures import CHALLENGES, DEATHS, Figures, GameFigures, Moment, start_figures, winners_of
from .cards import COUP

CAUSES = {
    "coup": {"it": "Colpo di Stato", "en": "A coup"},
    "assassinate": {"it": "Assassinio", "en": "Assassination"},
    "challenge": {"it": "Sfida persa", "en": "A challenge lost"},
    "bluff": {"it": "Bluff scoperto", "en": "A bluff caught"},
    "masters": {"it": "Per mano dei Master", "en": "By the Masters"},
}


class ComplotsFigures(GameFigures):
    shows = frozenset({CHALLENGES, DEATHS})
    causes = CAUSES

    def count(self, final: GameState, moments: Iterable[Moment]) -> dict[str, Figures]:
        figures = start_figures(final)
        game_over = None
        challenger: str | None = None
        last_loss: dict[str, str] = {}
        for moment in moments:
            for event in moment.events:
                data = event.data
                who = str(data.get("player"))
                if event.kind == "challenge":
                    challenger = who
                    if who in figures:
                        figures[who].challenges += 1
                elif event.kind == "bluff":
                    if who in figures:
                        figures[who].bluffs_caught += 1
                    if challenger in figures:
                        figures[challenger].challenges_won += 1
                elif event.kind in ("action", "turn_not_taken") and data.get("action") == COUP:
                    if who in figures:
                        figures[who].coups += 1
                elif event.kind in ("lost_card", "lost_card_at_random"):
                    last_loss[who] = str(data.get("reason") or "")
                elif event.kind == "eliminated" and who in figures:
                    figures[who].died = last_loss.get(who, "") or "masters"
                elif event.kind == "death" and who in figures:  # a Master's remedy
                    figures[who].died = "masters"
                elif event.kind == "game_over":
                    game_over = event
        for name in winners_of(final, game_over):
            if name in figures:
                figures[name].won = True
        return figures


FIGURES = ComplotsFigures()
