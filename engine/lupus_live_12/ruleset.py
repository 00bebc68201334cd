"""Lupus LIVE! 12th edition: setup, legal actions and the resolution of each phase."""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ..core import (
    APPOINT, NOTES, POWER, SHOUT, VOTE, Action, ActionForm, Event, FormField,
    GameState, Phase, Player, Rejected, Resolution, RoleInfo, as_number, keep_last,
    private, public,
)
from . import night
from .death import kill
from .roles import LUPI, ROLES, VILLAGGIO, canonical

MAYOR_BONUS = Fraction(1, 4)


class LupusLive12:
    key = "lupus-live-12"
    factions = (VILLAGGIO, LUPI)

    # -- composition -------------------------------------------------------
    def roles(self) -> list[RoleInfo]:
        return [RoleInfo(r.name, r.faction, r.aura,
                         {"corruption": str(r.corruption), "magic": r.magic,
                          "guaranteed": r.guaranteed}) for r in ROLES.values()]

    def canonical_role(self, name: str) -> str:
        return canonical(name)

    def setup(self, seating: list[tuple[str, str]], rng: random.Random,
              options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
        options = options or {}
        players = []
        for name, role_name in seating:
            role = ROLES[canonical(role_name)]
            players.append(Player(name=name, role=role.name, faction=role.faction, aura=role.aura))
        state = GameState(ruleset=self.key, players=players, phase=Phase("night", 1),
                          data={"corruption": {"expected": "0", "actual": 0}, "vice": None,
                                "quiet_phases": 0, "initial_count": len(players)})
        mayor = options.get("mayor")
        if mayor is None:
            mayor = rng.choice([p.name for p in players])
        elif not state.has_player(mayor):
            raise ValueError(f"mayor {mayor!r} is not a player")
        state.mayor = mayor
        events = [public("mayor", player=mayor, how="draw")]
        for p in players:
            events.append(private(p.name, "role_letter", role=p.role, faction=p.faction, aura=p.aura))
        wolves = [p.name for p in players if p.faction == LUPI]
        for w in wolves:
            events.append(private(w, "pack", members=[x for x in wolves if x != w]))
        return state, events

    # -- what a player may do now -------------------------------------------
    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        if state.over:
            return []
        p = state.player(player)
        forms: list[ActionForm] = []
        living = [q.name for q in state.alive()]
        if state.mayor == player and p.alive:
            forms.append(ActionForm(APPOINT, [FormField("appoint", "player",
                                    [n for n in living if n != player])], "form.appoint"))
        if state.phase.kind == "day":
            if p.alive:
                forms.append(ActionForm(VOTE, [FormField("vote", "player", living)], "form.vote"))
            return forms
        if p.alive:
            choices = night.power_choices(state, p)
            if choices is not None:
                forms.append(ActionForm(POWER, [FormField("target", "player", choices)], "form.power"))
            forms.append(ActionForm(SHOUT, [FormField("shout", "text", required=False)], "form.shout"))
            forms.append(ActionForm(NOTES, [FormField("notes", "text", required=False)], "form.notes"))
        return forms

    def validate(self, state: GameState, action: Action) -> Action:
        if state.over:
            raise Rejected("game_over")
        if not state.has_player(action.player):
            raise Rejected("not_a_player", player=action.player)
        p = state.player(action.player)
        kind = action.kind
        if kind == APPOINT:
            target = action.args.get("appoint")
            if state.mayor != p.name or not p.alive:
                raise Rejected("not_mayor")
            self._living_other(state, p, target)
            return action
        if kind in (SHOUT, NOTES):
            return action
        if state.phase.kind == "day":
            if kind != VOTE:
                raise Rejected("not_now", kind=kind)
            if not p.alive:
                raise Rejected("dead_cannot_vote")
            target = action.args.get("vote")
            if not state.has_player(target) or not state.player(target).alive:
                raise Rejected("target_not_alive", target=target)
            return action
        if kind == VOTE:
            raise Rejected("not_now", kind=kind)
        if kind == POWER:
            if not p.alive:
                raise Rejected("dead_no_power")
            night.validate_power(state, p, action)
            return action
        raise Rejected("not_now", kind=kind)

    @staticmethod
    def _living_other(state: GameState, p: Player, target: Any) -> None:
        if not isinstance(target, str) or not state.has_player(target):
            raise Rejected("unknown_player", target=target)
        if target == p.name:
            raise Rejected("self_target")
        if not state.player(target).alive:
            raise Rejected("target_not_alive", target=target)

    # -- resolution ------------------------------------------------------------
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
        appoints = [a for a in valid if a.kind == APPOINT]
        for a in appoints:
            state.data["vice"] = a.args["appoint"]
        alive_before = {p.name for p in state.alive()}
        if state.phase.kind == "night":
            night.resolve_night(state, valid, rng, events)
            shouts = [a.args["shout"] for a in valid if a.kind == SHOUT and a.args.get("shout")]
            rng.shuffle(shouts)  # anonymous: the bulletin must not reveal the order of submission
            for text in shouts:
                events.append(public("shout", text=text))
            state.phase = Phase("day", state.phase.number)
        else:
            self._resolve_day(state, valid, rng, events)
            state.phase = Phase("night", state.phase.number + 1)
        died = alive_before - {p.name for p in state.alive()}
        state.data["quiet_phases"] = 0 if died else state.data.get("quiet_phases", 0) + 1
        self._check_end(state, events)
        return Resolution(state, events, [])

    def vote_weight(self, state: GameState, p: Player) -> Fraction:
        weight = Fraction(0) if p.role == "Sabbino" else Fraction(1)
        if state.mayor == p.name:
            weight += MAYOR_BONUS
        return weight

    def _resolve_day(self, state: GameState, actions: list[Action], rng: random.Random,
                     events: list[Event]) -> None:
        living = state.alive()
        votes = {a.player: a.args["vote"] for a in actions if a.kind == VOTE}
        tally: dict[str, Fraction] = {}
        for voter, target in votes.items():
            tally[target] = tally.get(target, Fraction(0)) + self.vote_weight(state, state.player(voter))
        quorum = 2 * len(votes) >= len(living)
        burned = None
        if quorum and tally:
            top = max(tally.values())
            leaders = [n for n in state.names(living) if tally.get(n) == top]
            burned = leaders[0] if len(leaders) == 1 else rng.choice(leaders)
        events.append(public("pyre", burned=burned, quorum=quorum, votes=votes,
                             tally={n: as_number(v) for n, v in tally.items() if v != 0},
                             voters=len(votes), living=len(living)))
        if burned is not None:
            kill(state, burned, "pyre", rng, events)

    def _check_end(self, state: GameState, events: list[Event]) -> None:
        wolves_alive = any(p.alive and p.role == "Lupo Mannaro" for p in state.players)
        village_alive = any(p.alive and p.faction == VILLAGGIO for p in state.players)
        winner = None
        if not village_alive:
            winner = LUPI  # also wins a tie of contradictory conditions (§2)
        elif not wolves_alive:
            winner = VILLAGGIO
        if winner:
            state.winner = winner
            events.append(public("game_over", winner=winner,
                                 roles={p.name: p.role for p in state.players}))


RULESET = LupusLive12()
