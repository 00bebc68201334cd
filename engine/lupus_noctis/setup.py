"""The start of a game: the village as dealt on paper, and the unlucky player drawn in
secret (ruling N2)."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..core import Event, GameState, Phase, Player, SetupError, private
from .phases import NIGHT
from .roles import KEY, ROLES, canonical


def setup_game(seating: list[tuple[str, str]], rng: random.Random,
               options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
    options = dict(options or {})
    players: list[Player] = []
    seen: set[str] = set()
    for name, role_name in seating:
        if name in seen:
            raise SetupError("seated_twice", f"player {name!r} is seated twice", name=name)
        seen.add(name)
        role = ROLES[canonical(role_name)]
        players.append(Player(name=name, role=role.name, faction=role.faction, aura=role.aura))
    if len(players) < 2:
        raise SetupError("too_few_players", "Lupus Noctis needs at least two players", minimum=2)
    unlucky = options.get("unlucky")
    if unlucky is None:
        # "assegnato casualmente e segretamente": uniform over the seats, in no event.
        unlucky = players[rng.randrange(len(players))].name
    elif str(unlucky) not in seen:
        raise SetupError("unlucky_not_a_player", f"unlucky {unlucky!r} is not a player", name=unlucky)
    composition = dict(Counter(p.role for p in players))
    state = GameState(ruleset=KEY, players=players, phase=Phase(NIGHT, 1),
                      data={"unlucky": str(unlucky), "runoff": [], "composition": composition})
    events = [private(p.name, "role_card", role=p.role) for p in players]
    return state, events
