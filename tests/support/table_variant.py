"""A variant of Lupus Noctis for tests only, whose rules lean on the one filter
(``pbm/visibility.py``) for two promises the service makes every game:

- the Veggente's look kills (a second death at dawn), and the rules list the night's
  deaths in the order they resolved them, the pack's victim first: only the filter's
  rule that deaths reach the readers in the order of their wording keeps the table
  from learning which death was the pack's;
- the ballot is secret: the public copy of a vote (``visible``) keeps the counts and
  drops who voted whom.

Register it with ``engine.registry.register(KEY, __name__)``."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.core import Action, Event, GameState, Resolution, keep_last, public
from engine.lupus_common.actions import POWER
from engine.interface import Viewer
from engine.lupus_noctis.endgame import check_end
from engine.lupus_noctis.phases import NIGHT
from engine.lupus_noctis.roles import VEGGENTE
from engine.lupus_noctis.ruleset import LupusNoctis

KEY = "test-noctis-variant"


class Variant(LupusNoctis):
    key = KEY
    names = {"it": "Lupus Noctis (variante di prova)", "en": "Lupus Noctis (test variant)"}

    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        result = super().resolve(state, actions, rng, gm)
        if state.phase.kind != NIGHT or not result.publishable:
            return result
        after = result.state
        looked = [a.args["target"] for a in keep_last(actions) if a.kind == POWER
                  and state.player(a.player).role == VEGGENTE and state.player(a.player).alive]
        killed = [name for name in looked if after.player(name).alive]
        if not killed:
            return result
        for name in killed:
            after.player(name).alive = False
        events = [e for e in result.events if e.kind not in ("dawn", "game_over")]
        dawn = next(e for e in result.events if e.kind == "dawn")
        # After the pack's victim, in the order resolved: the leak the filter must close.
        events += [public("death", player=name) for name in killed]
        died = sorted([*dawn.data["died"], *killed], key=after.names().index)
        events.append(public("dawn", **{**dawn.data, "died": died}))
        after.winner = None
        check_end(after, events)
        return Resolution(after, events, result.pending)

    def visible(self, event: Event, viewer: Viewer) -> Event | None:
        seen = super().visible(event, viewer)
        if seen is None or viewer.master or "votes" not in seen.data:
            return seen
        return replace(seen, data={k: v for k, v in seen.data.items() if k != "votes"})


RULESET = Variant()
