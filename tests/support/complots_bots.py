"""A Complots table played at random, as the bots play it: each player the moment waits
for answers its first form with random legal choices (a card chooser takes as many as
it must). For engine tests that walk whole games to a moment they need."""
from __future__ import annotations

import random
from typing import Any

from engine.core import Action, GameState


def random_answers(ruleset: Any, state: GameState, rng: random.Random) -> list[Action]:
    actions = []
    for name in ruleset.timing(state).answerers:
        forms = ruleset.forms(state, name)
        if not forms:
            continue
        args: dict[str, Any] = {}
        for f in forms[0].fields:
            choices = list(f.choices)
            for dep, table in f.depends.items():
                choices = list(table.get(args.get(dep), []))
            if choices:
                args[f.name] = rng.sample(choices, f.min) if f.type == "cards" else rng.choice(choices)
        actions.append(ruleset.validate(state, Action(name, forms[0].kind, args)))
    return actions
