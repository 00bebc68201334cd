"""Lupus LIVE! 12th edition: setup, legal actions and the resolution of each phase."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Iterable, Sequence

from .. import remedies as plain_remedies
from ..core import Action, ActionForm, Event, GameState, Pending, Phase, Player, Rejected, Resolution, RoleInfo, SetupError, master, private, public, valid_at_close
from ..lupus_common.actions import APPOINT, BECOME, RITUAL_KEYS, SHOUT
from ..lupus_common.results import without_cause
from .. import texts as base_texts
from ..lupus_common import texts as lupus_texts
from ..lupus_common.ruleset import LupusRuleset
from ..lupus_common.scenario import PhaseScenarios
from ..lupus_common.pyre import pyre_tally
from ..interface import Ability, Checked, Panel, Remedy, RoleCard, Tally, Viewer, Vocabulary
from . import endgame, texts
from . import vocabulary as _vocabulary
from .day import resolve_day
from .forms import forms as _forms
from .role_cards import role_card as _role_card
from .night import resolve_night
from .panels import fraction as _panels_fraction
from .panels import panels as _panels
from .ritual_night import ritual_state
from .rituals import RITUALS, canonical_ritual
from .rooms import ROOMS
from .roles import EREDE_CHOICES, LUPI, ROLES, USURPATORE_CHOICES, VILLAGGIO, canonical
from .validation import power_beside_ritual
from .validation import validate as _validate
from ..fair_deal import FairDeal
from ..lupus_common.figures import FIGURES


def canonical_result(kind: str, value: Any) -> Any:
    """The rulebook's spelling of a result value, for comparisons (scenario runner)."""
    try:
        if kind == "ritual":
            return canonical_ritual(value)
        if kind == "role":
            return canonical(str(value))
    except (Rejected, KeyError):
        pass
    return value


class LupusLive12(LupusRuleset):
    key = "lupus-live-12"
    names = texts.NAMES
    factions = (VILLAGGIO, LUPI)
    EVENTS = texts.EVENTS
    REJECTIONS = texts.REJECTIONS
    # §2.6: a ghost's ritual form carries the Satanista it names.
    RITUAL_KEYS = RITUAL_KEYS + ("satanista",)
    # §1.2: days 9-21 Mon-Thu, a long day from Friday 9 to Sunday 21.
    schedule_spec = {"day_start": "09:00", "day_end": "21:00", "long_day": {"from": "fri", "to": "sun"}}
    # Where the players talk (rooms.py; docs/rulesets.md, "Rooms"); its scenario files, a phase a step.
    abilities: tuple[Ability, ...] = (ROOMS, PhaseScenarios(canonical_result), FIGURES, FairDeal(LUPI))

    def tally(self, event: Event, lang: str) -> Tally | None:
        """The pyre's count, for the archive and the vote picture (engine/lupus_common/pyre.py)."""
        return pyre_tally(event, lang, texts.TALLY)

    # -- composition -------------------------------------------------------
    def roles(self) -> list[RoleInfo]:
        return [RoleInfo(r.name, r.faction, r.aura,
                         {"corruption": str(r.corruption), "magic": r.magic,
                          "guaranteed": r.guaranteed}) for r in ROLES.values()]

    def role_card(self, role: str, lang: str, example_names: Sequence[str] = ()) -> RoleCard | None:
        return _role_card(role, lang, example_names)

    def canonical_role(self, name: str) -> str:
        return canonical(name)

    def options(self) -> list[Any]:
        return [lupus_texts.mayor_option()]

    def titles(self, state: GameState, player: str, lang: str) -> list[str]:
        return lupus_texts.mayor_titles(state, player, lang)

    def prepared_options(self, events: list[Event]) -> dict[str, Any]:
        return lupus_texts.mayor_drawn(events)

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
        ritual_state(state)
        # Scenario/test conveniences (documented in docs/rulings.md): players who
        # start as ghosts, and ghosts already corrupted, as if from earlier phases.
        for name in options.get("dead") or []:
            state.player(str(name)).alive = False
        for name in options.get("corrupt") or []:
            p = state.player(str(name))
            if p.faction == VILLAGGIO:
                p.faction = LUPI
                p.data["corrupt"] = True
        mayor = options.get("mayor")
        if mayor is None:
            # §3: "Il Sindaco viene scelto casualmente all'inizio della partita".
            mayor = rng.choice([p.name for p in players if p.alive] or [p.name for p in players])
        elif not state.has_player(mayor):
            raise SetupError("mayor_not_a_player", f"mayor {mayor!r} is not a player", name=mayor)
        state.mayor = mayor
        events = [public("mayor", player=mayor, how="draw")]
        for p in players:
            events.append(private(p.name, "role_letter", role=p.role, faction=p.faction, aura=p.aura))
        # "Tutti i giocatori della fazione dei Lupi si conoscono tra di loro."
        wolves = [p.name for p in players if p.faction == LUPI]
        for w in wolves:
            events.append(private(w, "pack", members=[x for x in wolves if x != w]))
        return state, events

    # -- what a player may do now -------------------------------------------
    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        return _forms(state, player)

    def validate(self, state: GameState, action: Action) -> Action:
        return _validate(state, action)

    def submission_actions(self, state: GameState, player: str, submission: dict[str, Any],
                           made: Callable[[], list[Action]] | None = None) -> Checked:
        """``target`` is "the player on whom a power is used" and also a ritual's target
        (docs/scenarios.md): one submission naming a ritual and a target, from a ghost who
        holds her power tonight besides her ritual (§4.8 Replay: "in aggiunta al
        rituale"), also uses the power on that target, unless she already chose another
        target for her power this night (``made``); anyone else's target is the
        ritual's alone, so a power refused here is no refusal (docs/rulings.md)."""
        checked = super().submission_actions(state, player, submission, made)
        beside = power_beside_ritual(state, player, submission, checked.accepted,
                                     made if made is not None else list)
        checked.accepted += beside
        return checked

    # -- what players write and read (vocabulary.py) -------------------------------
    def vocabulary(self) -> Vocabulary:
        return _vocabulary.vocabulary()

    def describe_submission(self, submission: dict[str, Any], lang: str,
                            state: GameState | None = None) -> list[str]:
        """The default lines, and for a ritual named with no other participant the rule it
        breaks (§1.10.2: "svolto se ella indica esattamente altri n_r-1 fantasmi"): a lone
        ghost's ritual is recorded, and fails, so the receipt says so now (issue 31)."""
        lines = super().describe_submission(submission, lang, state)
        ritual = RITUALS.get(str(submission.get("ritual") or ""))
        if ritual is not None and not submission.get("with"):
            n = submission.get("n")
            count = ritual.participants(int(n) if str(n or "").isdigit() else None)
            lines.append(base_texts.word(texts.EVENTS, "ritual_alone", lang,
                                         {"count": max(count, ritual.base + (1 if ritual.parametric else 0))})
                         or "")
        return lines

    def describe_choice(self, key: str, value: Any, lang: str) -> str:
        return lupus_texts.mayor_choice(key, value, lang) or _vocabulary.describe_choice(key, value, lang)

    def form_groups(self, forms: list[ActionForm]) -> list[list[ActionForm]]:
        return _vocabulary.form_groups(forms)

    # The ritual forms' words are this game's; the others' the two Lupus games share.
    def form_title(self, form: ActionForm, lang: str) -> str | None:
        return _vocabulary.form_title(form, lang) or lupus_texts.form_title(form, lang)

    def field_label(self, form: ActionForm, field: str, lang: str) -> str | None:
        return _vocabulary.field_label(form, field, lang) or lupus_texts.field_label(field, lang)

    def field_help(self, form: ActionForm, field: str, lang: str) -> str | None:
        return _vocabulary.field_help(form, field, lang) or lupus_texts.field_help(field, lang)

    def shown_when(self, form: ActionForm, field: str) -> dict[str, list[str]]:
        return _vocabulary.shown_when(form, field)

    def form_values(self, form: ActionForm, args: dict[str, Any], state: GameState) -> dict[str, Any]:
        return _vocabulary.form_values(form, args, state)

    # -- resolution ------------------------------------------------------------
    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        state = state.copy()
        events: list[Event] = []
        pending: list[Pending] = []
        valid = valid_at_close(self.validate, state, actions, events)
        # §3: the designation holds from when it is made, so before anything dies.
        for a in valid:
            if a.kind == APPOINT:
                state.data["vice"] = a.args["appoint"]
                events.append(private(a.player, "vice_appointed", player=a.args["appoint"]))
        if state.phase.kind == "night":
            resolve_night(state, valid, rng, gm or {}, events, pending)
            shouts = [a.args["shout"] for a in valid if a.kind == SHOUT and a.args.get("shout")]
            rng.shuffle(shouts)  # anonymous: the bulletin must not reveal the order of submission
            for text in shouts:
                events.append(public("shout", text=text))
            next_phase = Phase("day", state.phase.number)
        else:
            resolve_day(state, valid, rng, events)
            next_phase = Phase("night", state.phase.number + 1)
        self._become(state, valid, events)
        died = any(e.kind == "death" for e in events)
        endgame.check_end(state, events)
        endgame.count_quiet(state, died, events, pending)
        state.phase = next_phase
        return Resolution(state, events, pending)

    # -- what each viewer may see, and how it reads ------------------------------
    def visible(self, event: Event, viewer: Viewer) -> Event | None:
        """The players' copy of an event keeps only what the rulebooks publish.

        - A death (or a return to life) without its cause, except the pyre and the
          Masters' own decision, which everybody saw: the cause would give away the
          use of powers (principale §1.5) and the role of the dead (a "missile" death
          names a Missile, an "usurpatore" one an Erede), which no power reveals.
        - The pyre shows who was designated and who voted whom (§1.5: "I voti dati
          sono pubblici"), with the count those votes make at the weights everybody
          knows (1, the Sindaco's 1¼), not the real weighted totals: those would give
          every voter's weight away, and so the Sabbino (weight 0, personaggi §2.5)
          and the targets of the vote rituals (§4.5, §4.11); nor what spared the
          designated (the Mannella, the Avvocato).
        """
        seen = super().visible(event, viewer)
        if seen is None or viewer.master:
            return seen
        seen = without_cause(seen)
        if seen.kind == "pyre":
            public = {k: seen.data.get(k) for k in ("burned", "quorum", "votes", "voters",
                                                     "living", "mayor")}
            counted = public_tally(seen.data)
            # The lot is told when the count everybody can make shows the tie too: a tie
            # only the secret weights made would give those weights away.
            tied = list(seen.data.get("tied") or [])
            top = max(counted.values(), default=0)
            if tied and sorted(n for n, v in counted.items() if v == top) != sorted(tied):
                tied = []
            return replace(seen, data={**public, "tally": counted, "declared": True,
                                       **({"tied": tied} if tied else {})})
        return seen

    def describe(self, event: Event, lang: str, viewer: Viewer) -> str | None:
        data = event.data
        if event.kind == "death":
            return lupus_texts.death_line(self.EVENTS, texts.CAUSES, data, lang)
        if event.kind == "pyre":
            line = lupus_texts.pyre_line(self.EVENTS, data, lang,
                                        "pyre_declared" if data.get("declared") else "pyre_tally")
            if data.get("tied") and data.get("burned"):
                line += " " + (base_texts.word(self.EVENTS, "pyre_lot", lang, {
                    "tied": base_texts.names(data["tied"], lang), "burned": data["burned"]}) or "")
            return line
        if event.kind == "rejected_at_resolution":
            return base_texts.rejected_line(self, data, lang)
        if event.kind == "answer":
            return self._answer(data, lang)
        if event.kind == "game_over":
            return lupus_texts.winner_line(self.EVENTS, data, lang)
        if event.kind == "mayor":
            return lupus_texts.mayor_line(self.EVENTS, data, lang)
        if event.kind == "role_letter":
            return lupus_texts.role_letter(self.EVENTS, data, lang,
                                          self.describe_choice("become", data.get("role"), lang))
        if event.kind in ("ritual", "ritual_failed") and data.get("ritual"):
            data = {**data, "ritual": _vocabulary.ritual_name(str(data["ritual"]), lang)}
        if event.kind in ("became", "become_void"):
            data = {**data, "role": self.describe_choice("become", data.get("role"), lang)}
        if event.kind == "corruption_draw":
            data = {**data, "corrupt": base_texts.word(base_texts.VALUES,
                                                       "yes" if data.get("corrupt") else "no", lang),
                    "expected": _panels_fraction(data.get("expected", "0"), lang)}
        return base_texts.word(self.EVENTS, base_texts.masters_kind(self.EVENTS, event), lang, data)

    def _answer(self, data: dict[str, Any], lang: str) -> str | None:
        """The answer to what the power asks: "Giulia ha l'aura nera." (or "non ha")."""
        answer = data.get("answer")
        if data.get("question") == "profeta":
            return base_texts.word(self.EVENTS, "answer.profeta", lang, {
                **data, "answer": base_texts.word(base_texts.VALUES, str(answer), lang) or answer})
        return (base_texts.word(self.EVENTS, f"answer.{data.get('question')}.{answer}", lang, data)
                or base_texts.word(self.EVENTS, "answer", lang, {
                    **data, "answer": base_texts.word(base_texts.VALUES, str(answer), lang) or answer}))

    # -- the Masters ------------------------------------------------------------
    def holds(self, resolution: Resolution, options: dict[str, Any]) -> bool:
        """A question only the Masters answer holds the phase, and so does a stall
        (§2.1) once, when it begins: if the Masters choose to wait, later phases
        publish as usual while the desk keeps showing it."""
        if not resolution.publishable:
            return True
        return any(p.kind == "stall" and p.data.get("quiet_phases") == endgame.STALL_PHASES
                   for p in resolution.pending)

    def panels(self, state: GameState, events: Iterable[Event], lang: str) -> list[Panel]:
        return _panels(state, events, lang)

    def remedies(self) -> list[Remedy]:
        return plain_remedies.standard()

    def apply_remedy(self, state: GameState, key: str, args: dict[str, Any],
                     rng: random.Random) -> tuple[GameState, list[Event]]:
        """§2.1's remedies with their consequences (corruption, succession, the end)."""
        if key == plain_remedies.KILL:
            names = plain_remedies.players_of(state, args)
            return endgame.gm_kill(state, [n for n in names if state.player(n).alive], rng)
        if key == plain_remedies.RESURRECT:
            return endgame.gm_resurrect(state, plain_remedies.players_of(state, args), rng)
        if key == plain_remedies.DRAW:
            return endgame.gm_declare_draw(state)
        return plain_remedies.apply(state, key, args, rng)

    @staticmethod
    def _become(state: GameState, actions: list[Action], events: list[Event]) -> None:
        """Erede and Usurpatore take their new role at the end of the phase, if alive.

        Ruling (docs/rulings.md): at the end, so a same-night Usurpatore still
        finds an Erede, and the Usurpatore may name the role with the attempt.
        """
        for a in actions:
            if a.kind != BECOME:
                continue
            p = state.player(a.player)
            new = a.args["become"]
            if not p.alive:
                continue
            if p.role == "Erede" and new in EREDE_CHOICES:
                pass
            elif p.role == "Usurpatore" and p.data.get("usurped") and new in USURPATORE_CHOICES:
                pass
            else:
                events.append(private(p.name, "become_void", role=new))
                continue
            old = p.role
            p.role = new
            p.aura = ROLES[new].aura  # "a tutti gli effetti", the aura included
            p.data.pop("cooldown", None)
            events.append(private(p.name, "became", role=new, was=old))
            events.append(master("became", player=p.name, role=new, was=old))


def public_tally(data: dict[str, Any]) -> dict[str, float]:
    """The count anybody can make from the published votes of a pyre: each vote weighs
    1 and the Sindaco's 1¼ (principale §1.7, personaggi §3); no secret weight enters."""
    out: dict[str, float] = {}
    for voter, target in (data.get("votes") or {}).items():
        out[target] = out.get(target, 0) + (1.25 if voter == data.get("mayor") else 1)
    return out


RULESET = LupusLive12()
