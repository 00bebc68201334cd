"""The smallest ruleset, for tests only: "guess who".

Two or more players; the set-up draws one of them as the secret; each moment
every player names who they think it is; the first (in seating order) to guess
right wins, otherwise another moment begins. Its moments end by an answer window
(WINDOW) or, with the set-up option ``narrator``, when the narrator confirms them
(NARRATOR). docs/rulesets.md walks through it.
"""
from __future__ import annotations

import random
from typing import Any

from engine.core import (
    Action, ActionForm, Event, FormField, GameState, Phase, Player, Rejected, Resolution, RoleInfo,
    keep_last, master, public,
)
from engine.interface import NARRATOR, WINDOW, BaseRuleset, Timing

KEY = "test-guess"
GUESSER, FACTION = "Guesser", "Guessers"


class Guess(BaseRuleset):
    key = KEY
    names = {"it": "Indovina chi", "en": "Guess who"}
    factions = (FACTION,)
    min_players = 2
    EVENTS = {"round_over": {"it": "Nessuno ha indovinato: si riprova.", "en": "Nobody guessed: again."}}

    def roles(self) -> list[RoleInfo]:
        return [RoleInfo(GUESSER, FACTION, "")]

    def setup(self, seating: list[tuple[str, str]], rng: random.Random,
              options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
        players = [Player(name, GUESSER, FACTION, "") for name, _role in seating]
        secret = rng.choice([p.name for p in players])
        timing = NARRATOR if (options or {}).get("narrator") else WINDOW
        state = GameState(ruleset=self.key, players=players, phase=Phase("day", 1),
                          data={"secret": secret, "timing": timing})
        return state, [master("secret", player=secret)]

    def timing(self, state: GameState) -> Timing:
        return Timing(state.data["timing"], answerers=tuple(p.name for p in state.players))

    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        if state.over:
            return []
        return [ActionForm("vote", [FormField("vote", "player", [p.name for p in state.players])])]

    def validate(self, state: GameState, action: Action) -> Action:
        if state.over:
            raise Rejected("game_over")
        if action.kind != "vote" or not state.has_player(str(action.args.get("vote"))):
            raise Rejected("bad_choice")
        return action

    def complete(self, state: GameState, actions: list[Action]) -> bool:
        return {a.player for a in actions if a.kind == "vote"} >= {p.name for p in state.players}

    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        state = state.copy()
        right = {a.player for a in keep_last(actions) if a.args.get("vote") == state.data["secret"]}
        winner = next((p.name for p in state.players if p.name in right), None)
        if winner:
            state.winner = winner
            return Resolution(state, [public("game_over", winner=winner)])
        state.phase = Phase("day", state.phase.number + 1)
        return Resolution(state, [public("round_over", number=state.phase.number - 1)])


RULESET = Guess()
