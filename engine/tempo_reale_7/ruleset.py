"""Lupus in tempo reale, 7th edition: the ruleset object the service and the scenarios call."""
from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from .. import remedies as plain_remedies
from ..core import Action, ActionForm, Event, GameState, Phase, Resolution, RoleInfo, private, public, valid_at_close
from ..lupus_common.actions import APPOINT
from ..lupus_common.results import without_cause
from .. import texts as base_texts
from ..lupus_common import texts as lupus_texts
from ..lupus_common.ruleset import LupusRuleset
from ..lupus_common.scenario import PhaseScenarios
from ..lupus_common.pyre import pyre_tally
from ..interface import Ability, Panel, Remedy, RoleCard, Tally, Viewer, Vocabulary
from . import forms as _forms
from . import texts
from . import vocabulary as _vocabulary
from .day import resolve_day
from .night import resolve_night
from .panels import panels as _panels
from .rooms import ROOMS
from .role_cards import role_card as _role_card
from .role_cards import role_name
from .roles import FACTIONS, LUPI, POWERS, ROLES, SPETTRO_ROLE, canonical, canonical_power
from .setup import KEY, setup_game
from ..fair_deal import FairDeal
from ..lupus_common.figures import FIGURES


def canonical_result(kind: str, value: Any) -> Any:
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


class TempoReale7(LupusRuleset):
    key = KEY
    names = texts.NAMES
    factions = FACTIONS
    EVENTS = texts.EVENTS
    REJECTIONS = texts.REJECTIONS
    # §2.1: days 8-22 Mon-Thu, a long day from Friday 8 to Sunday 22.
    schedule_spec = {"day_start": "08:00", "day_end": "22:00", "long_day": {"from": "fri", "to": "sun"}}
    # Where the players talk (rooms.py; docs/rulesets.md, "Rooms"); its scenario files, a phase a step.
    abilities: tuple[Ability, ...] = (ROOMS, PhaseScenarios(canonical_result), FIGURES, FairDeal(LUPI))

    def tally(self, event: Event, lang: str) -> Tally | None:
        """The pyre's count, for the archive and the vote picture (engine/lupus_common/pyre.py)."""
        return pyre_tally(event, lang, texts.TALLY)

    SETTINGS = frozenset({"auto_publish", "review_contradictions"})

    def roles(self) -> list[RoleInfo]:
        out = [RoleInfo(r.name, r.faction, r.aura,
                        {"mystic": r.mystic, "target": r.target, "frequency": r.frequency,
                         "dealt": True}) for r in ROLES.values()]
        out.append(RoleInfo(SPETTRO_ROLE.name, SPETTRO_ROLE.faction, SPETTRO_ROLE.aura,
                            {"dealt": False, "powers": list(POWERS)}))
        return out

    def role_card(self, role: str, lang: str, example_names: Sequence[str] = ()) -> RoleCard | None:
        return _role_card(role, lang, example_names)

    def canonical_role(self, name: str) -> str:
        return canonical(name)

    def options(self) -> list[Any]:
        return [lupus_texts.mayor_option()]

    def titles(self, state: GameState, player: str, lang: str) -> list[str]:
        return lupus_texts.mayor_titles(state, player, lang)

    def setup(self, seating: list[tuple[str, str]], rng: random.Random,
              options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
        return setup_game(seating, rng, options)

    def prepared_options(self, events: list[Event]) -> dict[str, Any]:
        """The Mayor drawn, and the Divinatore's propositions (§3.7, FAQ 10), which the
        Masters may rewrite."""
        drawn = {e.data["player"]: [{"player": p["player"], "role": p["role"]}
                                    for p in e.data["propositions"]]
                 for e in events if e.kind == "divinatore_propositions"}
        return {**lupus_texts.mayor_drawn(events), **({"divinatore_propositions": drawn} if drawn else {})}

    def describe_prepared(self, key: str, subject: str, lang: str) -> str:
        return base_texts.word(texts.PREPARED, key, lang, {"name": subject}) or f"{subject}:"

    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        return _forms.forms(state, player)


    def validate(self, state: GameState, action: Action) -> Action:
        return _forms.validate(state, action)

    # -- what players write and read (vocabulary.py) -------------------------------
    def vocabulary(self) -> Vocabulary:
        return _vocabulary.vocabulary()

    def describe_choice(self, key: str, value: Any, lang: str) -> str:
        return lupus_texts.mayor_choice(key, value, lang) or _vocabulary.describe_choice(key, value, lang)

    # The two-target powers' fields are worded here; the rest as the two Lupus games share them.
    def form_title(self, form: ActionForm, lang: str) -> str | None:
        return lupus_texts.form_title(form, lang)

    def field_label(self, form: ActionForm, field: str, lang: str) -> str | None:
        return _vocabulary.field_label(form, field, lang) or lupus_texts.field_label(field, lang)

    def field_help(self, form: ActionForm, field: str, lang: str) -> str | None:
        return lupus_texts.field_help(field, lang)

    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        state = state.copy()
        events: list[Event] = []
        valid = valid_at_close(self.validate, state, actions, events)
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

    # -- what each viewer may see, and how it reads ------------------------------
    def visible(self, event: Event, viewer: Viewer) -> Event | None:
        """A death (or a return to life) is announced without its cause, except the pyre
        and the Masters' decision, which everybody saw (``lupus_common.results.without_cause``): the cause
        would tell who used a power, and the role of the dead, which only the Medium
        learns (§3.7). Every vote weighs one (§3.3), so the pyre's count says nothing new
        and is published as it is."""
        seen = super().visible(event, viewer)
        if seen is None or viewer.master:
            return seen
        return without_cause(seen)

    def describe(self, event: Event, lang: str, viewer: Viewer) -> str | None:
        data, kind = event.data, event.kind
        if kind == "death":
            return lupus_texts.death_line(self.EVENTS, texts.CAUSES, data, lang)
        if kind == "pyre":
            return lupus_texts.pyre_line(self.EVENTS, data, lang)
        if kind == "rejected_at_resolution":
            return base_texts.rejected_line(self, data, lang)
        if kind == "game_over":
            return lupus_texts.winner_line(self.EVENTS, data, lang)
        if kind == "mayor":
            return lupus_texts.mayor_line(self.EVENTS, data, lang)
        if kind == "role_letter":
            letter = lupus_texts.role_letter(self.EVENTS, data, lang, role_name(data.get("role"), lang))
            if "mystic" not in data:
                return letter
            mystic = base_texts.word(self.EVENTS, "mystic_yes" if data["mystic"] else "mystic_no", lang)
            return f"{letter} {mystic}"
        if kind == "mystic":
            return (base_texts.word(self.EVENTS, f"mystic.{data.get('mystic')}", lang, data)
                    or base_texts.word(self.EVENTS, kind, lang, data))
        if kind in ("acted_on", "visitors", "others") and not data.get(kind):
            return base_texts.word(self.EVENTS, f"{kind}_none", lang, data)
        if kind == "aura":
            return base_texts.word(self.EVENTS, kind, lang, {**data, "aura": lupus_texts.aura(data.get("aura"), lang)})
        if kind == "spettro":
            return base_texts.word(self.EVENTS, base_texts.masters_kind(self.EVENTS, event), lang,
                                   {**data, "spettro": self.describe_choice("power", data.get("spettro"), lang)})
        if kind == "faction_lost" and lang == "en":
            return base_texts.word(self.EVENTS, kind, lang,
                                   {**data, "faction": lupus_texts.faction(data.get("faction"), lang)})
        if kind == "knows":
            return base_texts.word(self.EVENTS, kind, lang,
                                   {"players": base_texts.listing(data.get("players"), lang)})
        if kind in ("propositions", "divinatore_propositions"):
            lines = [self._proposition(p, lang) for p in data.get("propositions") or []]
            return base_texts.word(self.EVENTS, kind, lang, {**data, "propositions": "; ".join(lines)})
        if kind == "election":
            return base_texts.word(self.EVENTS, kind, lang,
                                   {"counts": base_texts.tally_line(data.get("counts") or {}, lang)})
        return base_texts.word(self.EVENTS, base_texts.masters_kind(self.EVENTS, event), lang, data)

    def public_table(self, state: GameState, viewer: Viewer, lang: str) -> list[Panel]:
        """A Spettro reads its power on its own page; the village is not told of the
        awakening (§3.7), so nobody else does."""
        me = state.player(viewer.player) if viewer.player and state.has_player(viewer.player) else None
        power = me.data.get("spettro") if me is not None else None
        if not power:
            return []
        return [Panel(base_texts.word(self.EVENTS, "spettro_power", lang) or "",
                      [self.describe_choice("power", power, lang)])]

    def _proposition(self, p: dict[str, Any], lang: str) -> str:
        code = "proposition" if "true" not in p else ("proposition_true" if p["true"] else "proposition_false")
        return base_texts.word(self.EVENTS, code, lang, p) or ""

    # -- the Masters ------------------------------------------------------------
    def holds(self, resolution: Resolution, options: dict[str, Any]) -> bool:
        """A contradiction of hypnosis and confusion holds the phase when the
        Masters asked to review them (game option ``review_contradictions``)."""
        if not resolution.publishable:
            return True
        return bool(options.get("review_contradictions")) and any(
            e.kind == "contradiction" for e in resolution.events)

    def panels(self, state: GameState, events: Iterable[Event], lang: str) -> list[Panel]:
        return _panels(state, events, lang)

    def remedies(self) -> list[Remedy]:
        return plain_remedies.standard()

    def apply_remedy(self, state: GameState, key: str, args: dict[str, Any],
                     rng: random.Random) -> tuple[GameState, list[Event]]:
        return plain_remedies.apply(state, key, args, rng)


RULESET = TempoReale7()
