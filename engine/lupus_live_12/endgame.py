"""The end of the game (§2), the stall (§2.1) and the Masters' remedies for it."""
from __future__ import annotations

import random

from ..core import Event, GameState, Pending, master, public
from .death import kill, revive
from .roles import LUPI, VILLAGGIO

STALL_PHASES = 6
DRAW = "draw"


def check_end(state: GameState, events: list[Event]) -> None:
    """§2: checked at the end of every phase; the wolves win a tie of conditions."""
    if state.over:
        return
    wolves_alive = any(p.alive and p.role == "Lupo Mannaro" for p in state.players)
    village_alive = any(p.alive and p.faction == VILLAGGIO for p in state.players)
    story = state.data.get("rituals", {}).get("end_story") == "won"
    winner = None
    if not village_alive:
        winner = LUPI
    elif not wolves_alive or story:
        winner = VILLAGGIO
    if winner:
        declare(state, winner, events)


def declare(state: GameState, winner: str, events: list[Event]) -> None:
    state.winner = winner
    events.append(public("game_over", winner=winner,
                         roles={p.name: p.role for p in state.players},
                         factions={p.name: p.faction for p in state.players}))


def count_quiet(state: GameState, died: bool, events: list[Event], pending: list[Pending]) -> None:
    """§2.1: six consecutive phases without a death put the game in a stall."""
    quiet = 0 if died else int(state.data.get("quiet_phases", 0)) + 1
    state.data["quiet_phases"] = quiet
    if quiet >= STALL_PHASES and not state.over:
        remedies = ["wait", "kill", "resurrect", "draw", "other"]
        pending.append(Pending("stall", {"quiet_phases": quiet, "remedies": remedies}, False))
        events.append(master("stall", quiet_phases=quiet, remedies=remedies))


# -- the Masters' desk (§2.1 remedies): pure functions returning (state, events) ------

def gm_kill(state: GameState, names: list[str], rng: random.Random) -> tuple[GameState, list[Event]]:
    state = state.copy()
    events: list[Event] = []
    for name in names:
        if kill(state, name, "masters", rng, events):
            state.data["quiet_phases"] = 0
    check_end(state, events)
    return state, events


def gm_resurrect(state: GameState, names: list[str],
                 rng: random.Random) -> tuple[GameState, list[Event]]:
    del rng  # no draw today; kept so every remedy has the same shape
    state = state.copy()
    events: list[Event] = []
    for name in names:
        if revive(state, name, "masters", events):
            state.data["quiet_phases"] = 0
    check_end(state, events)
    return state, events


def gm_declare_draw(state: GameState) -> tuple[GameState, list[Event]]:
    state = state.copy()
    events: list[Event] = []
    if not state.over:
        declare(state, DRAW, events)
    return state, events
