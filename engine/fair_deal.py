"""Fair dealing (issue 34): a deal that remembers a group's history, so that a player
recently dealt into the watched faction (the wolves) is less likely to be dealt into
it again, and never more likely than the others.

The roles of the watched faction are dealt first, seat by seat, each player drawn with
a weight: 1, or ``WARY_WEIGHT`` for a player with history. Every player with history
has the same, lowest weight, so each is at most as likely as under a uniform deal
(whoever has the lowest weight in a draw without replacement has at most the average
chance), and when everybody (or nobody) has history the deal is uniform. The other
roles are then shuffled over the remaining seats. Pure: every draw comes from the
generator passed in, so the deal replays exactly from its recorded seed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .interface import Ability

WARY_WEIGHT = 1 / 3


@dataclass(frozen=True)
class FairDeal(Ability):
    """A game whose deal may remember history: ``faction`` is the one watched."""

    faction: str


def weights(names: list[str], history: dict[str, int]) -> dict[str, float]:
    """Each player's weight for the watched faction's roles: lower with any history."""
    return {n: (WARY_WEIGHT if history.get(n, 0) > 0 else 1.0) for n in names}


def deal(names: list[str], roles: list[str], watched: set[str], history: dict[str, int],
         rng: random.Random) -> list[tuple[str, str]]:
    """Deal ``roles`` (one per name) so that the roles in ``watched`` go first, each to
    a player drawn with ``weights``; the rest shuffled over the remaining players."""
    if len(roles) != len(names):
        raise ValueError("one role per player")
    marked = sorted(r for r in roles if r in watched)
    rest = [r for r in roles if r not in watched]
    w = weights(names, history)
    free = list(names)
    seating: dict[str, str] = {}
    for role in marked:
        total = sum(w[n] for n in free)
        pick = rng.random() * total
        chosen = free[-1]
        for n in free:
            pick -= w[n]
            if pick < 0:
                chosen = n
                break
        seating[chosen] = role
        free.remove(chosen)
    rng.shuffle(rest)
    seating.update(zip(free, rest))
    return [(n, seating[n]) for n in names]
