"""Lupus in tempo reale, 7th edition: the ruleset object the service and the scenarios call."""
from __future__ import annotations

import random
from typing import Any

from ..interface import BaseRuleset, Vocabulary
from ..core import (
    APPOINT, Action, ActionForm, Event, GameState, Phase, Rejected, Resolution, RoleInfo,
    keep_last, private, public,
)
from . import forms as _forms
from . import vocabulary as _vocabulary
from .day import resolve_day
from .night import resolve_night
from .roles import FACTIONS, POWERS, ROLES, SPETTRO_ROLE, canonical, canonical_power
from .setup import KEY, setup_game


class TempoReale7(BaseRuleset):
    key = KEY
    factions = FACTIONS

    def roles(self) -> list[RoleInfo]:
        out = [RoleInfo(r.name, r.faction, r.aura,
                        {"mystic": r.mystic, "target": r.target, "frequency": r.frequency,
                         "dealt": True}) for r in ROLES.values()]
        out.append(RoleInfo(SPETTRO_ROLE.name, SPETTRO_ROLE.faction, SPETTRO_ROLE.aura,
                            {"dealt": False, "powers": list(POWERS)}))
        return out

    def canonical_role(self, name: str) -> str:
        return canonical(name)

    def canonical_result(self, kind: str, value: Any) -> Any:
        """The rulebook's spelling of a result value, for comparisons (scenario runner):
        the rulebook itself writes both "Morte" and "Spettro della Morte"."""
        try:
            if kind == "spettro":
                return canonical_power(str(value))
            if kind == "role":
                return canonical(str(value))
        except KeyError:
            pass
        return value

    def setup(self, seating: list[tuple[str, str]], rng: random.Random,
              options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
        return setup_game(seating, rng, options)

    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        return _forms.forms(state, player)

    def validate(self, state: GameState, action: Action) -> Action:
        return _forms.validate(state, action)

    # -- what players write and read (vocabulary.py) -------------------------------
    def vocabulary(self) -> Vocabulary:
        return _vocabulary.vocabulary()

    def describe_choice(self, key: str, value: Any, lang: str) -> str:
        return _vocabulary.describe_choice(key, value, lang)

    def field_label(self, form: ActionForm, field: str, lang: str) -> str | None:
        return _vocabulary.field_label(form, field, lang)

    def role_label(self, state: GameState, player: str, lang: str) -> str:
        p = state.player(player)
        return _vocabulary.role_label(p.role, p.data.get("spettro"), lang)

    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        state = state.copy()
        events: list[Event] = []
        valid: list[Action] = []
        for a in keep_last(actions):
            try:
                valid.append(self.validate(state, a))
            except Rejected as exc:
                events.append(private(a.player, "rejected_at_resolution", code=exc.code))
        for a in valid:
            if a.kind == APPOINT:
                state.data["vice"] = a.args["appoint"]
                events.append(private(a.player, "appointed", player=a.args["appoint"]))
        if state.phase.kind == "night":
            resolve_night(state, valid, rng, events)
            state.phase = Phase("day", state.phase.number)
        else:
            resolve_day(state, valid, rng, events)
            state.phase = Phase("night", state.phase.number + 1)
        if state.winner is not None and not any(e.kind == "game_over" for e in events):
            events.append(public("game_over", winner=state.winner))
        return Resolution(state, events, [])


RULESET = TempoReale7()
