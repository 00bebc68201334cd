"""Complots (the Italian "Coup"): the ruleset object the service and the scenarios call.

Every moment is an answer window (``Timing(WINDOW, answerers)``); the window kinds, who
answers them and the submissions they take are listed in ``engine/complots/game.py``.
Silence is the default answer of a window (docs/rulings-complots.md R1): a turn not
taken is Reddito (a coup on a random opponent at 10+ coins, or at 7+ when the treasury
is empty), a challenge or block not sent is a pass, a card to lose or show not chosen
is drawn at random (a public event says so), an exchange not chosen keeps the old
hand, an examined card not discarded is returned. Form headings: ``describe_form``.

Every submission may carry ``moment`` (the ``phase.number`` it answers): an answer
aimed at a window that has closed is then refused as ``not_your_moment`` instead of
landing in a later window (a late mail).
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Sequence

from ..core import (
    Action, ActionForm, Event, FormField, GameState, Rejected, Resolution, acting_player,
    valid_at_close,
)
from ..interface import (
    WINDOW, Ability, BaseRuleset, Panel, RoleCard, Timing, Viewer, Vocabulary, word,)
from . import game, wording
from . import vocabulary as _vocabulary
from .cards import (
    ACTIONS, ASSASSIN_COST, ASSASSINATE, COUP, COUP_COST,
    EXAMINE, FORCED_COUP_AT, TARGETED, VARIANTS, blockers, canonical_action, canonical_card,
    card_name, fold, in_play,
)
from .rooms import ROOMS
from .role_cards import role_card as _role_card
from .scenario import TurnScenarios
from .texts import EVENTS, FORMS, KINDS, MOMENT, REJECTIONS, WELCOME
from .vocabulary import PASS_NOT_ME, challenge_key
from .figures import FIGURES

# The submission kind each window takes.
KIND_OF_WINDOW = {
    "choose": "choose", "turn": "turn", "answer": "answer", "block": "answer",
    "block_challenge": "answer", "lose": "lose", "exchange": "keep", "show": "show",
    "inspect": "discard",
}
# What each answer window allows.
ANSWERS_OF_WINDOW = {
    "answer": ("pass", "challenge", "block"),
    "block": ("pass", "block"),
    "block_challenge": ("pass", "challenge"),
}
_TRUE = {"true", "yes", "si", "sì", "1", "discard", "scarto", "scarta"}
_FALSE = {"false", "no", "0", "return", "restituisco", "restituisci", "keep"}


class Complots(BaseRuleset):
    key = game.KEY
    # No parentheses in a name: pages and mail put it in parentheses ("the game X (Complots)").
    names = {"it": "Complots", "en": "Complots, the Coup"}
    min_players = 2
    max_players = 8
    EVENTS = EVENTS
    REJECTIONS = REJECTIONS
    WELCOME = WELCOME
    # The table's open talk (rooms.py; docs/rulesets.md, "Rooms").
    # Its scenario files play a turn a step (docs/scenarios.md, Complots).
    abilities: tuple[Ability, ...] = (ROOMS, TurnScenarios(), FIGURES)

    # -- set-up ----------------------------------------------------------------------
    SETTINGS = frozenset({"auto_publish", "answer_window", "extensions"})

    def options(self) -> list[Any]:
        return [FormField("variant", "choice", list(VARIANTS), required=False)]

    def setup(self, seating: list[tuple[str, str]], rng: random.Random,
              options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
        return game.setup_game(seating, rng, options)

    # -- moments -------------------------------------------------------------------------
    def timing(self, state: GameState) -> Timing:
        if state.over:
            return Timing(WINDOW, answerers=())
        return Timing(WINDOW, answerers=tuple(game.window(state).get("answerers", ())))

    def complete(self, state: GameState, actions: list[Action]) -> bool:
        """All answerers have answered, or a first challenge (later ones cannot count) or
        a first block of foreign aid (only its challenge follows) has come in."""
        if state.over:
            return True
        answered = self._answers(state, actions)
        kind = state.phase.kind
        if kind in ("answer", "block_challenge") and any(
                a.args["answer"] == "challenge" for a in answered):
            return True
        if kind == "answer" and game.turn(state).get("action") == "foreign_aid" and any(
                a.args["answer"] == "block" for a in answered):
            return True
        return set(game.window(state).get("answerers", ())) <= {a.player for a in answered}

    def _answers(self, state: GameState, actions: list[Action]) -> list[Action]:
        """The valid submissions, the last per player, in the order they were made."""
        last: dict[str, tuple[int, Action]] = {}
        for i, a in enumerate(actions):
            try:
                last[a.player] = (i, self.validate(state, a))
            except Rejected:
                continue
        return [a for _, a in sorted(last.values(), key=lambda t: t[0])]

    # -- actions ---------------------------------------------------------------------------
    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        if state.over or player not in game.window(state).get("answerers", ()):
            return []
        kind = state.phase.kind
        w, p = game.window(state), state.player(player)
        if kind == "choose":
            return [ActionForm("choose", [FormField("card", "choice", sorted(set(w["bundles"][player])))],
                               "complots_choose")]
        if kind == "turn":
            legal = self._legal_actions(state, p)
            targets = game.others(state, player)
            return [ActionForm("turn", [
                FormField("action", "choice", legal),
                FormField("target", "player", targets, required=False,
                          depends={"action": {a: (targets if a in TARGETED else []) for a in legal}}),
            ], "complots_turn")]
        if kind in ANSWERS_OF_WINDOW:
            allowed = [a for a in ANSWERS_OF_WINDOW[kind] if self._answer_allowed(state, player, a)]
            fields = [FormField("answer", "choice", allowed)]
            if "block" in allowed:
                chars = list(blockers(game.turn(state)["action"], game.variant(state)))
                fields.append(FormField("as", "choice", chars, required=False,
                                        depends={"answer": {"block": chars}}))
            return [ActionForm("answer", fields, f"complots_{kind}")]
        if kind == "lose":
            return [ActionForm("lose", [FormField("card", "choice", sorted(set(game.hand(p))))],
                               "complots_lose")]
        if kind == "exchange":
            pool = game.hand(p) + w["drawn"]
            return [ActionForm("keep", [FormField("cards", "cards", sorted(pool), min=w["keep"],
                                                  max=w["keep"])], "complots_keep")]
        if kind == "show":
            return [ActionForm("show", [FormField("card", "choice", sorted(set(game.hand(p))))],
                               "complots_show")]
        if kind == "inspect":
            return [ActionForm("discard", [FormField("discard", "choice", ["return", "discard"])],
                               "complots_inspect")]
        return []

    def _legal_actions(self, state: GameState, p: Any) -> list[str]:
        coins = game.coins(p)
        if coins >= FORCED_COUP_AT:
            return [COUP]
        out = []
        for a in ACTIONS:
            if a == EXAMINE and game.variant(state) != "inquisitore":
                continue
            if (a == COUP and coins < COUP_COST) or (a == ASSASSINATE and coins < ASSASSIN_COST):
                continue
            out.append(a)
        return out

    def _answer_allowed(self, state: GameState, player: str, answer: str) -> bool:
        if answer == "pass":
            return True
        if state.phase.kind == "block_challenge":
            return answer == "challenge" and player != game.turn(state)["blocker"]
        if answer == "challenge":
            return state.phase.kind == "answer" and game.can_challenge(state, player)
        return game.can_block(state, player)

    def validate(self, state: GameState, action: Action) -> Action:
        p = acting_player(state, action)
        if not p.alive:
            raise Rejected("eliminated")
        w = game.window(state)
        waiting = ", ".join(w.get("answerers", ()))
        moment = action.args.get("moment")
        if moment is not None and str(moment) != str(state.phase.number):
            raise Rejected("not_your_moment", waiting=waiting)
        if p.name not in w.get("answerers", ()) or KIND_OF_WINDOW.get(state.phase.kind) != action.kind:
            raise Rejected("not_your_moment", waiting=waiting)
        args = getattr(self, "_v_" + action.kind)(state, p, action.args)
        if moment is not None:
            args["moment"] = state.phase.number
        return Action(p.name, action.kind, args)

    def _card(self, value: Any) -> str:
        try:
            return canonical_card(value)
        except KeyError:
            raise Rejected("unknown_card", card=str(value)) from None

    def _v_choose(self, state: GameState, p: Any, args: dict[str, Any]) -> dict[str, Any]:
        card = self._card(args.get("card"))
        if card not in game.window(state)["bundles"][p.name]:
            raise Rejected("not_in_hand", card=card)
        return {"card": card}

    def _v_turn(self, state: GameState, p: Any, args: dict[str, Any]) -> dict[str, Any]:
        try:
            action = canonical_action(args.get("action"))
        except KeyError:
            raise Rejected("unknown_action", action=str(args.get("action"))) from None
        coins = game.coins(p)
        if action == EXAMINE and game.variant(state) != "inquisitore":
            raise Rejected("not_in_game", character="Inquisitore")
        if coins >= FORCED_COUP_AT and action != COUP:
            raise Rejected("must_coup", coins=coins)
        need = {COUP: COUP_COST, ASSASSINATE: ASSASSIN_COST}.get(action, 0)
        if coins < need:
            raise Rejected("not_enough_coins", need=need, have=coins)
        if action not in TARGETED:
            return {"action": action}
        target = args.get("target")
        if not target:
            raise Rejected("no_target")
        target = str(target)
        if not state.has_player(target):
            raise Rejected("unknown_player", player=target)
        if target == p.name:
            raise Rejected("target_self")
        if not state.player(target).alive:
            raise Rejected("target_eliminated", player=target)
        return {"action": action, "target": target}

    def _v_answer(self, state: GameState, p: Any, args: dict[str, Any]) -> dict[str, Any]:
        answer = fold(str(args.get("answer", "")))
        if answer not in ("pass", "challenge", "block"):
            raise Rejected("bad_answer", answer=str(args.get("answer")))
        if not self._answer_allowed(state, p.name, answer):
            raise Rejected("cannot_challenge" if answer == "challenge" else "cannot_block")
        if answer != "block":
            return {"answer": answer}
        allowed = blockers(game.turn(state)["action"], game.variant(state))
        if not args.get("as") and len(allowed) == 1:
            as_ = allowed[0]  # "BLOCCO" against foreign aid can only mean the Duchessa
        elif not args.get("as"):
            raise Rejected("block_needs_character", blockers=list(allowed))
        else:
            as_ = self._card(args.get("as"))
        if as_ not in in_play(game.variant(state)):
            raise Rejected("not_in_game", character=as_)
        if as_ not in allowed:
            raise Rejected("cannot_block_as", character=as_, blockers=list(allowed))
        return {"answer": "block", "as": as_}

    def _v_lose(self, state: GameState, p: Any, args: dict[str, Any]) -> dict[str, Any]:
        card = self._card(args.get("card"))
        if card not in game.hand(p):
            raise Rejected("not_in_hand", card=card)
        return {"card": card}

    _v_show = _v_lose

    def _v_keep(self, state: GameState, p: Any, args: dict[str, Any]) -> dict[str, Any]:
        cards = args.get("cards")
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        cards = [self._card(c) for c in cards or []]
        w = game.window(state)
        if len(cards) != w["keep"]:
            raise Rejected("keep_count", count=w["keep"])
        pool = Counter(game.hand(p) + w["drawn"])
        for c, n in Counter(cards).items():
            if pool[c] < n:
                raise Rejected("not_in_hand", card=c)
        return {"cards": cards}

    def _v_discard(self, state: GameState, p: Any, args: dict[str, Any]) -> dict[str, Any]:
        value = args.get("discard")
        if isinstance(value, bool):
            return {"discard": value}
        text = fold(str(value))
        if text in _TRUE:
            return {"discard": True}
        if text in _FALSE:
            return {"discard": False}
        raise Rejected("bad_choice", value=str(value))

    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        state = state.copy()
        events: list[Event] = []
        if state.over:
            return Resolution(state, events, [])
        # Every answer is judged, not only each player's last: the last that holds counts.
        valid = valid_at_close(self.validate, state, actions, events, last_only=False)
        answers = self._answers(state, valid)
        kind, number = state.phase.kind, state.phase.number
        first = answers[0].args if answers else None
        if kind == "choose":
            game.resolve_choose(state, {a.player: a.args["card"] for a in answers}, rng, events)
            return Resolution(state, events, [])
        if kind == "turn":
            game.take_turn(state, first or game.default_turn(state, rng), events,
                           defaulted=first is None)
        elif kind == "answer":
            game.resolve_answer(state, [(a.player, a.args) for a in answers], rng, events)
        elif kind == "block":
            game.resolve_block(state, [(a.player, a.args) for a in answers], rng, events)
        elif kind == "block_challenge":
            game.resolve_block_challenge(state, [(a.player, a.args) for a in answers], rng, events)
        elif kind == "lose":
            game.resolve_lose(state, first["card"] if first else None, rng, events)
        elif kind == "exchange":
            game.resolve_exchange(state, first["cards"] if first else None, rng, events)
        elif kind == "show":
            game.resolve_show(state, first["card"] if first else None, rng, events)
        elif kind == "inspect":
            game.resolve_inspect(state, bool(first and first["discard"]), rng, events)
        if state.phase.number == number:  # the answers opened no window of their own
            game.advance(state, rng, events)
        return Resolution(state, events, [])

    # -- words -------------------------------------------------------------------------------
    def vocabulary(self) -> Vocabulary:
        return _vocabulary.vocabulary()

    # The submission key that tells each kind apart, when the submission does not say
    # ``kind`` (a ``card`` alone could be chosen, lost or shown: those name their kind).
    _KIND_OF_KEY = {"action": "turn", "answer": "answer", "cards": "keep", "discard": "discard"}

    def actions(self, player: str, submission: dict[str, Any]) -> list[Action]:
        """A submission from a form or a mail line (``{"kind": ..., **args}``), or in the
        scenario style when its keys name the kind (``{"action": "income"}``)."""
        if "kind" in submission:
            return [self.submission_action(player, submission)]
        kinds = {self._KIND_OF_KEY[k] for k in submission if k in self._KIND_OF_KEY}
        if len(kinds) != 1:
            raise ValueError(f"cannot tell the kind of {sorted(submission)!r}")
        return [Action(player, kinds.pop(), dict(submission))]

    def form_submission(self, form: ActionForm, values: dict[str, Any]) -> dict[str, Any]:
        return {"kind": form.kind, **values}

    # -- standing answers -------------------------------------------------------------
    def standing_answers(self, state: GameState | None = None) -> list[tuple[str, dict[str, str]]]:
        """Set on the game page or by mail (vocabulary.py: SEMPRE PASSO, SEMPRE SFIDO ...);
        with ``state``, only the characters of that game's variant."""
        out = [(PASS_NOT_ME, {"it": "Passo su tutto ciò che non mi prende di mira",
                              "en": "Pass on everything that does not target me"})]
        for c in wording.standing_characters(state):
            en = card_name(c, "en")
            out.append((challenge_key(c), {"it": f"Sfido sempre chi dichiara {wording.the_card(c, 'it')}",
                                           "en": f"Always challenge {'an' if en[:1] in 'AEIOU' else 'a'} {en}"}))
        return out

    def standing_answer(self, state: GameState, player: str,
                        standing: list[str]) -> dict[str, Any] | None:
        """A challenge standing for the character claimed (the action's, or the block's
        in a block_challenge window) comes first, then a pass on what does not aim at
        the player; only answers the window allows (``forms``) are ever made."""
        kind = state.phase.kind
        if kind not in ANSWERS_OF_WINDOW or not self.forms(state, player):
            return None
        t = game.turn(state)
        claimed = t.get("block_as") if kind == "block_challenge" else t.get("character")
        if (claimed and challenge_key(claimed) in standing
                and self._answer_allowed(state, player, "challenge")):
            return {"kind": "answer", "answer": "challenge"}
        aimed_at_me = (t.get("actor") == player if kind == "block_challenge"
                       else t.get("target") == player)
        if PASS_NOT_ME in standing and not aimed_at_me:
            return {"kind": "answer", "answer": "pass"}
        return None

    def confirms(self, form: ActionForm, values: dict[str, Any]) -> bool:
        """A challenge or a block: whoever loses it reveals a card (rules B and C)."""
        return values.get("answer") in ("challenge", "block")

    def reports_to_all(self, state: GameState) -> bool:
        """A turn is over (or the game): everyone gets the turn's log by mail."""
        return state.over or state.phase.kind in ("turn", "choose")

    def submission_action(self, player: str, submission: dict[str, Any]) -> Action:
        """An ``Action`` from a parsed vocabulary line: ``{**keyword.fixed, keyword.key: value}``."""
        args = dict(submission)
        kind = args.pop("kind")
        return Action(player, kind, args)

    def describe_form(self, label: str, lang: str) -> str | None:
        """The heading of a form (``ActionForm.label``) in ``lang``."""
        return word(FORMS, label, lang)

    def form_title(self, form: ActionForm, lang: str) -> str | None:
        """The form's question, asking only what may be answered now: "Dubiti o passi?"
        when nobody may block (issue 31: "Dubiti, blocchi o passi?" asked it anyway)."""
        answers = next((f.choices for f in form.fields if f.name == "answer"), None)
        if form.label == "complots_answer" and answers is not None and "block" not in answers:
            return self.describe_form("complots_answer_no_block", lang)
        return self.describe_form(form.label, lang)

    def describe_choice(self, key: str, value: Any, lang: str) -> str:
        return wording.choice(key, value, lang)

    def describe_submission(self, submission: dict[str, Any], lang: str,
                            state: GameState | None = None) -> list[str]:
        return wording.submission(submission, lang, state)

    def describe(self, event: Event, lang: str, viewer: Viewer) -> str | None:
        return wording.event(event, lang)

    def describe_rejection(self, code: str, params: dict[str, Any], lang: str) -> str | None:
        return wording.rejection(code, params, lang)

    def describe_moment(self, kind: str, number: int, lang: str) -> str:
        return word({"m": MOMENT}, "m", lang, {"name": self.describe_choice("moment", kind, lang),
                                                "number": number}) or kind

    def describe_action(self, kind: str, lang: str) -> str:
        return word(KINDS, kind, lang) or kind

    def moment_heading(self, state: GameState, lang: str) -> str | None:
        return wording.heading(state, lang)

    # -- the character cards (engine/cards.py) -------------------------------------
    def role_card(self, role: str, lang: str, example_names: Sequence[str] = ()) -> RoleCard | None:
        return _role_card(role, lang, example_names)

    def card_roles(self, state: GameState | None = None) -> list[str]:
        """The characters of the game's variant (all six before it is known)."""
        if state is None:
            return [*in_play("ambasciatore"), VARIANTS["inquisitore"]]
        return list(in_play(game.variant(state)))

    def player_roles(self, state: GameState, player: str) -> list[str]:
        """The characters the player holds face down, each once."""
        if not state.has_player(player):
            return []
        return list(dict.fromkeys(game.hand(state.player(player))))
    def public_table(self, state: GameState, viewer: Viewer, lang: str) -> list[Panel]:
        """Coins, face-up cards and face-down counts of everyone, the court and the
        treasury; the viewer's own hand only to the viewer (wording.table)."""
        return wording.table(state, viewer, lang)

    def panels(self, state: GameState, events: Any, lang: str) -> list[Panel]:
        """The Masters' view: every hand, the court in order (top first), the open window."""
        en = lang == "en"
        lines = [f"{p.name}: {', '.join(card_name(c, lang) for c in game.hand(p)) or '—'}"
                 for p in state.players]
        court = ", ".join(card_name(c, lang) for c in game.court(state)) or "—"
        lines.append(f"{'Court (top first)' if en else 'Corte (dalla cima)'}: {court}")
        w = game.window(state)
        if w.get("drawn"):
            lines.append(f"{'Drawn' if en else 'Pescate'}: "
                         f"{', '.join(card_name(c, lang) for c in w['drawn'])}")
        if w.get("card"):
            lines.append(f"{'Shown' if en else 'Mostrata'}: {card_name(w['card'], lang)}")
        return [Panel("Hands" if en else "Mani", lines)]


RULESET = Complots()
