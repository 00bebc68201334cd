"""Lupus Noctis: the ruleset object the service and the scenarios call."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Sequence

from ..core import (
    Action, ActionForm, Event, GameState, Pending, Resolution, RoleInfo, private,
    valid_at_close,
)
from ..interface import (
    IDENTIFY, NARRATOR, REPORT_GAME, Ability, Panel, RoleCard, Tally, Timing, Viewer, Vocabulary, word,)
from ..lupus_common.ruleset import LupusRuleset
from ..lupus_common.scenario import PhaseScenarios
from . import forms as _forms
from . import vocabulary as _vocabulary
from .night import resolve_night
from .phases import MORNING, NIGHT, next_moment
from .roles import (
    BUONA, FACTIONS, KEY, LICANTROPI, MALVAGIA, MIN_PLAYERS, ROLES, canonical, default_composition,
)
from .role_cards import role_card as _role_card
from .script import NoctisTable, night_script
from .setup import identify, setup_game
from .tally import day_tally
from ..lupus_common import texts as lupus_texts
from .texts import EVENTS, MOMENTS, REJECTIONS, SCRIPT, role_name
from .votes import resolve_afternoon, resolve_morning
from ..fair_deal import FairDeal
from ..lupus_common.figures import FIGURES

_AURAS = {"buona": BUONA, "good": BUONA, "buono": BUONA,
          "malvagia": MALVAGIA, "evil": MALVAGIA, "malvagio": MALVAGIA}


def canonical_result(kind: str, value: Any) -> Any:
    """The rulebook's spelling of a result value, for a scenario file's comparisons."""
    if kind == "aura":
        return _AURAS.get(str(value).casefold(), value)
    return value


class LupusNoctis(LupusRuleset):
    key = KEY
    names = {"it": "Lupus Noctis", "en": "Lupus Noctis"}
    factions = FACTIONS
    min_players = MIN_PLAYERS
    max_players = 40
    EVENTS = EVENTS
    REJECTIONS = REJECTIONS
    SCRIPT = SCRIPT
    # Played at a table from the narrator's phone: the night's calls (script.py).
    abilities: tuple[Ability, ...] = (NoctisTable(), PhaseScenarios(canonical_result), FIGURES, FairDeal(LICANTROPI))

    # -- set-up ----------------------------------------------------------------
    def roles(self) -> list[RoleInfo]:
        return [RoleInfo(r.name, r.faction, r.aura,
                         {"target": r.target, "once": r.once, "alone_if_alive": r.alone_if_alive})
                for r in ROLES.values()]

    def role_card(self, role: str, lang: str, example_names: Sequence[str] = ()) -> RoleCard | None:
        return _role_card(role, lang, example_names)

    def canonical_role(self, name: str) -> str:
        return canonical(name)

    def default_composition(self, players: int) -> dict[str, int] | None:
        return default_composition(players)

    def setup(self, seating: list[tuple[str, str]], rng: random.Random,
              options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
        return setup_game(seating, rng, options)

    # -- moments -----------------------------------------------------------------
    def timing(self, state: GameState) -> Timing:
        return Timing(NARRATOR)

    def masters_report(self, state: GameState) -> str | None:
        """The narrator ran every moment on the phone, at the table: no mail during
        play (nobody at a real table wants one per call or per vote), and the whole
        game, every night's choices included, once it is over: a record to keep."""
        return REPORT_GAME if state.over else None

    # -- actions -------------------------------------------------------------------
    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        return _forms.forms(state, player)

    def required_kinds(self, state: GameState, player: str) -> set[str]:
        """The Apprendista Necromante's once-per-game power is never owed."""
        return {f.kind for f in self.forms(state, player) if all(x.required for x in f.fields)}

    def validate(self, state: GameState, action: Action) -> Action:
        return _forms.validate(state, action)

    def vocabulary(self) -> Vocabulary:
        return _vocabulary.vocabulary()

    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        """Close the open moment. Nothing here draws at random: the unlucky seat, drawn
        at set-up, settles every tie, so ``rng`` is unused. ``gm[IDENTIFY]``: the
        narrator's first-night taps when the village was dealt on paper (raises
        ``Rejected`` when they do not match the composition)."""
        state = state.copy()
        events: list[Event] = []
        valid = valid_at_close(self.validate, state, actions, events)
        kind = state.phase.kind
        if not state.data.get("identified", True):
            # The narrator's first-night taps (ruling N13); without them the night waits.
            taps = (gm or {}).get(IDENTIFY)
            if taps is None:
                roles = [call.role for call in night_script(state)]
                return Resolution(state, [], [Pending(IDENTIFY, {"roles": roles})])
            identify(state, taps)
            events += [private(p.name, "role_card", role=p.role) for p in state.players]
        if kind == NIGHT:
            resolve_night(state, valid, events)
        elif kind == MORNING:
            resolve_morning(state, valid, events)
        else:
            resolve_afternoon(state, valid, events)
        state.phase = next_moment(state.phase)
        return Resolution(state, events, [])

    def describe_moment(self, kind: str, number: int, lang: str) -> str:
        names = MOMENTS.get(kind)
        if names is None:
            return super().describe_moment(kind, number, lang)
        return names.get(lang, names["it"]).format(number=number)

    def tally(self, event: Event, lang: str) -> Tally | None:
        """The morning's vote (the run-off's two) and the afternoon's (the stake), as
        the rulebook counts them (tally.py)."""
        return day_tally(event, lang)

    # -- what each viewer may see ----------------------------------------------------
    def visible(self, event: Event, viewer: Viewer) -> Event | None:
        seen = super().visible(event, viewer)
        if seen is None or viewer.master:
            return seen
        # Deaths at dawn are announced without their cause; only the stake is public.
        if seen.kind == "death" and seen.data.get("cause") not in (None, "pyre"):
            data = {k: v for k, v in seen.data.items() if k != "cause"}
            seen = replace(seen, data=data)
        return seen

    def describe(self, event: Event, lang: str, viewer: Viewer) -> str | None:
        data = event.data
        if event.kind == "rejected_at_resolution":
            return self.describe_rejection(data.get("code", ""), data.get("params") or {}, lang)
        if event.kind == "dawn":
            lines = [word(EVENTS, "dawn", lang, data),
                     word(EVENTS, "dawn_died" if data.get("died") else "dawn_nobody_died", lang, data)]
            if data.get("revived"):
                lines.append(word(EVENTS, "dawn_revived", lang, data))
            return " ".join(line for line in lines if line)
        if event.kind == "death" and data.get("cause") == "pyre":
            return word(EVENTS, "death_pyre", lang, data)
        if event.kind == "game_over":
            return lupus_texts.winner_line(EVENTS, data, lang)
        if event.kind == "aura":
            return word(EVENTS, "aura", lang, {**data, "aura": lupus_texts.aura(data.get("aura"), lang)})
        if event.kind == "role_card":
            return word(EVENTS, "role_card", lang, {**data, "role": role_name(data.get("role"), lang)})
        return word(EVENTS, event.kind, lang, data)

    def public_table(self, state: GameState, viewer: Viewer, lang: str) -> list[Panel]:
        alive = [p.name for p in state.players if p.alive]
        dead = [p.name for p in state.players if not p.alive]
        title = {"it": ("In vita", "Non più in vita"), "en": ("Alive", "Dead")}.get(lang, ("In vita", "Non più in vita"))
        return [Panel(title[0], alive), Panel(title[1], dead)]


RULESET = LupusNoctis()
