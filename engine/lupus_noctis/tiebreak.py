"""Ties are broken by "la vicinanza ad un personaggio particolarmente sfortunato" (ruling N2).

Seats are the order of the players, clockwise (the device went round "in senso orario"
when each player joined), and form a circle: the last seat sits next to the first. Every
seat counts, the dead's too (a seat never changes, "Il posto scelto all'interno del
cerchio non può più essere modificato"). The nearer a tied player sits to the unlucky
player, whichever way round, the sooner bad luck picks them; the unlucky player, tied,
is the nearest of all. Two tied players at the same distance on either side: the one
clockwise from the unlucky player (later in the seating list, wrapping round) goes first,
the table's own direction for joining and voting.
"""
from __future__ import annotations

from typing import Iterable

from ..core import GameState


def proximity(seats: list[str], unlucky: str, name: str) -> tuple[int, int]:
    """The sort key of ``name``: (seats away from the unlucky player either way round,
    0 when reached clockwise first / 1 when only counter-clockwise)."""
    n = len(seats)
    clockwise = (seats.index(name) - seats.index(unlucky)) % n
    counter = (n - clockwise) % n
    return (min(clockwise, counter), 0 if clockwise <= counter else 1)


def by_bad_luck(state: GameState, names: Iterable[str]) -> list[str]:
    """``names`` from the first bad luck would pick to the last."""
    seats = state.names()
    unlucky = state.data["unlucky"]
    return sorted(names, key=lambda name: proximity(seats, unlucky, name))


def most_voted(state: GameState, tally: dict[str, int], candidates: Iterable[str],
               how_many: int) -> tuple[list[str], bool]:
    """The ``how_many`` most voted of ``candidates`` (each with its count in ``tally``,
    0 when absent), ties broken by bad luck; and whether a tie had to be broken."""
    ranked = by_bad_luck(state, candidates)
    ranked.sort(key=lambda name: -tally.get(name, 0))  # stable: bad luck orders equal counts
    chosen = ranked[:how_many]
    tie = (len(ranked) > how_many
           and tally.get(ranked[how_many - 1], 0) == tally.get(ranked[how_many], 0))
    return chosen, tie
