"""Remedies any ruleset may offer its Masters when its rules have none of their own.

A remedy is a pure function of the state, its arguments and a random generator the
service seeds and stores with the remedy's event, so replaying it gives the same
game. A ruleset lists the remedies it offers in ``remedies()`` and applies them in
``apply_remedy``; ``apply`` below is the plain version (a death without
consequences, a revival, a draw, a winner named by the Masters).
"""
from __future__ import annotations

import random
from typing import Any

from .core import Event, FormField, GameState, Rejected, public
from .interface import Remedy

KILL, RESURRECT, DRAW, END = "kill", "resurrect", "draw", "end"


def standard() -> list[Remedy]:
    """The four plain remedies, for a ruleset that offers them (``remedies()``)."""
    return [
        Remedy(KILL, {"it": "Uccidi", "en": "Kill"}, [FormField("players", "players")]),
        Remedy(RESURRECT, {"it": "Resuscita", "en": "Resurrect"}, [FormField("players", "players")]),
        Remedy(DRAW, {"it": "Dichiara il pareggio", "en": "Declare a draw"}, []),
        Remedy(END, {"it": "Termina la partita", "en": "End the game"},
               [FormField("winner", "text")]),
    ]


def players_of(state: GameState, args: dict[str, Any]) -> list[str]:
    names = [str(n) for n in args.get("players") or []]
    for name in names:
        if not state.has_player(name):
            raise Rejected("unknown_player", player=name)
    return names


def apply(state: GameState, key: str, args: dict[str, Any],
          rng: random.Random) -> tuple[GameState, list[Event]]:
    del rng  # the plain remedies draw nothing; kept so every remedy has one shape
    state = state.copy()
    events: list[Event] = []
    if key == KILL:
        for name in players_of(state, args):
            p = state.player(name)
            if p.alive:
                p.alive = False
                events.append(public("death", player=name, cause="masters"))
    elif key == RESURRECT:
        for name in players_of(state, args):
            p = state.player(name)
            if not p.alive:
                p.alive = True
                events.append(public("revive", player=name, cause="masters"))
    elif key == DRAW:
        state.winner = "draw"
        events.append(public("game_over", winner="draw",
                             roles={p.name: p.role for p in state.players}))
    elif key == END:
        state.winner = str(args.get("winner") or "draw")
        events.append(public("game_over", winner=state.winner,
                             roles={p.name: p.role for p in state.players}))
    else:
        raise Rejected("unknown_remedy", remedy=key)
    return state, events
