"""The end of the game, checked at the evening and at dawn (rulings N4, N8).

"La partita finisce quando sono morti tutti i Licantropi o quando il numero di
Licantropi è pari al numero degli Abitanti del villaggio non Licantropi": the count is
of Licantropi, the role; everybody else alive (the Apprendista Necromante and the
Procione Mannaro too) is a non-Licantropo. Specific conditions come first: a living
Procione Mannaro wins alone. Then the general ones; the dead win with their side.
"""
from __future__ import annotations

from ..core import Event, GameState, public
from .roles import LICANTROPI, LICANTROPO, ROLES, VILLAGGIO


def ended(state: GameState) -> bool:
    living = state.alive()
    wolves = sum(p.role == LICANTROPO for p in living)
    # ">=" and not "==": a revival at the same dawn as a death may jump past equality.
    return wolves == 0 or wolves >= len(living) - wolves


def check_end(state: GameState, events: list[Event]) -> None:
    if state.over or not ended(state):
        return
    alone = [p.name for p in state.alive() if ROLES[p.role].alone_if_alive]
    if alone:
        # More than one living Procione Mannaro (never in the standard village):
        # each won alone, so they share the win; the winner reads "Bruno, Dario".
        winner, winners = ", ".join(alone), alone
    else:
        side = VILLAGGIO if not any(p.role == LICANTROPO for p in state.alive()) else LICANTROPI
        winner = side
        winners = [p.name for p in state.players
                   if p.faction == side and not ROLES[p.role].alone_if_alive]
    state.winner = winner
    events.append(public("game_over", winner=winner, winners=winners))
