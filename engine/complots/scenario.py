"""The Complots section of docs/scenarios.md: a step is one turn.

Each step's ``action`` and answers (``challenge``, ``block``, ``block_challenge``,
``lose``, ``keep``, ``show``, ``discard``) are handed out to the answer windows as they
open, read as the service reads a submission (``submission_actions``) and resolved
through the same ``resolve``, each window with its own ``phase_rng``. A window the step
gives no answer to closes in silence (its default answer). A refused submission makes
the step ``rejected``: the game goes back to where it was before the step (the format:
"nothing changed"). An answer the turn never asked for (a challenge of Reddito, a card
to lose by a player who lost none) is submitted when the turn is over, and refused like
a late mail. A refusal is never silent: a step refused without ``rejected: true`` in its
``expect`` (or in the ``one_of`` alternative that held) fails, naming the player and
the refusal (the runner, ``engine/scenario.py``, says so for every game).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import Action, GameState, Rejected, SetupError, phase_rng, setup_rng
from ..interface import BaseRuleset
from ..scenario_format import Mismatch, Played, ScenarioError, Scenarios, name_set
from .cards import canonical_action, canonical_card

TOP_KEYS = {"ruleset", "title", "source", "seed", "seeds", "variant", "players", "setup", "steps",
            "description", "notes", "note", "comment"}
SETUP_KEYS = {"coins", "court", "variant"}  # variant: also read here, as a courtesy
STEP_KEYS = {"turn", "action", "challenge", "block", "block_challenge", "lose", "keep", "show",
             "discard", "expect"}
EXPECT_KEYS = {"coins", "revealed", "hand", "influence", "eliminated", "court", "next", "rejected",
               "results", "winner", "one_of", "all_seen", "treasury"}
RESULT_KINDS = ("saw", "drew")
MAX_WINDOWS = 200  # a turn has a handful of windows; more is a runaway


def _card(value: Any, where: str) -> str:
    try:
        return canonical_card(value)
    except KeyError:
        raise ScenarioError(f"{where}: unknown card {value!r}") from None


def _cards(values: Any, where: str) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    return [_card(v, where) for v in values]


def _names(values: Any) -> list[str]:
    if values is None:
        return []
    if isinstance(values, (list, tuple)):
        return [str(v) for v in values]
    return [str(values)]


def _action(value: Any, where: str) -> dict[str, Any]:
    """``income`` / ``{coup: Bruno}`` as turn arguments."""
    if isinstance(value, str):
        name, target = value, None
    elif isinstance(value, dict) and len(value) == 1:
        ((name, target),) = value.items()
    else:
        raise ScenarioError(f"{where}: bad action {value!r}")
    try:
        args: dict[str, Any] = {"action": canonical_action(name)}
    except KeyError:
        raise ScenarioError(f"{where}: unknown action {name!r}") from None
    if target is not None:
        args["target"] = str(target)
    return args


class _Refused(Exception):
    """A step's submission was refused: whose, and the refusal."""

    def __init__(self, player: str, rejected: Rejected) -> None:
        super().__init__(player, rejected)
        self.player, self.rejected = player, rejected


def _submit(ruleset: BaseRuleset, state: GameState, action: Action) -> Action:
    """One of the step's submissions, read as the service reads it (``submission_actions``:
    a form's ``{"kind": ..., **args}``); raises ``_Refused`` when it is refused."""
    checked = ruleset.submission_actions(state, action.player, {"kind": action.kind, **action.args})
    if checked.refused:
        raise _Refused(action.player, checked.refused[0])
    (accepted,) = checked.accepted
    return accepted


class _Script:
    """What a step says each player answers, handed out window by window."""

    def __init__(self, step: dict[str, Any], label: str, state: GameState) -> None:
        unknown = set(step) - STEP_KEYS
        if unknown:
            raise ScenarioError(f"{label}: unknown step key(s) {sorted(unknown)}")
        if "action" not in step:
            raise ScenarioError(f"{label}: no action")
        self.turn = _action(step["action"], label)
        self.challengers = _names(step.get("challenge"))
        blocks = step.get("block")
        blocks = [] if blocks is None else blocks if isinstance(blocks, list) else [blocks]
        self.blocks: list[tuple[str, Any]] = []
        for b in blocks:
            if not isinstance(b, dict) or "by" not in b:
                raise ScenarioError(f"{label}: block must be {{by: Name, as: Character}}")
            self.blocks.append((str(b["by"]), b.get("as")))
        self.block_challengers = _names(step.get("block_challenge"))
        self.losses: dict[str, list[str]] = {}
        for name, cards in (step.get("lose") or {}).items():
            self.losses[str(name)] = _cards(cards, f"{label}: lose")
        self.keep = _cards(step["keep"], f"{label}: keep") if step.get("keep") is not None else None
        self.show = _card(step["show"], f"{label}: show") if step.get("show") is not None else None
        self.discard = step.get("discard")
        for name in (self.challengers + [b for b, _ in self.blocks] + self.block_challengers
                     + list(self.losses)):
            if not state.has_player(name):
                raise ScenarioError(f"{label}: unknown player {name!r}")

    def answers(self, state: GameState) -> list[Action]:
        """The step's submissions to the window now open (consumed as handed out)."""
        kind, who = state.phase.kind, state.data["window"]["answerers"]
        out: list[Action] = []
        if kind == "answer":
            out += [Action(n, "answer", {"answer": "challenge"}) for n in self.challengers]
            self.challengers = []
            # A player answers once per window: who also challenged blocks in the block
            # window that opens if the claim is proven.
            stay = [(n, c) for n, c in self.blocks if any(a.player == n for a in out)]
            out += [Action(n, "answer", {"answer": "block", "as": c})
                    for n, c in self.blocks if (n, c) not in stay]
            self.blocks = stay
        elif kind == "block":
            out += [Action(n, "answer", {"answer": "block", "as": c}) for n, c in self.blocks]
            self.blocks = []
        elif kind == "block_challenge":
            out += [Action(n, "answer", {"answer": "challenge"}) for n in self.block_challengers]
            self.block_challengers = []
        elif kind == "lose" and self.losses.get(who[0]):
            out.append(Action(who[0], "lose", {"card": self.losses[who[0]].pop(0)}))
        elif kind == "exchange" and self.keep is not None:
            out.append(Action(who[0], "keep", {"cards": self.keep}))
            self.keep = None
        elif kind == "show" and self.show is not None:
            out.append(Action(who[0], "show", {"card": self.show}))
            self.show = None
        elif kind == "inspect" and self.discard is not None:
            out.append(Action(who[0], "discard", {"discard": bool(self.discard)}))
            self.discard = None
        return out

    def automatic_loss(self, player: str, card: str) -> None:
        """A last card is revealed with no choice: a card the step names for it must be it."""
        if self.losses.get(player):
            named = self.losses[player].pop(0)
            if named != card:
                raise _Refused(player, Rejected("not_in_hand", card=named))

    def leftovers(self, moot: bool) -> list[Action]:
        """Answers no window asked for; after a bluff caught, what would have followed is moot."""
        out = [Action(n, "answer", {"answer": "challenge"}) for n in self.challengers]
        out += [Action(n, "lose", {"card": c}) for n, cards in self.losses.items() for c in cards]
        if not moot:
            out += [Action(n, "answer", {"answer": "block", "as": c}) for n, c in self.blocks]
            out += [Action(n, "answer", {"answer": "challenge"}) for n in self.block_challengers]
            if self.keep is not None:
                out.append(Action("", "keep", {"cards": self.keep}))
            if self.show is not None:
                out.append(Action("", "show", {"card": self.show}))
            if self.discard is not None:
                out.append(Action("", "discard", {"discard": bool(self.discard)}))
        return out


def _play_turn(ruleset: BaseRuleset, state: GameState, script: _Script, seed: int) -> tuple[GameState, list]:
    """Play one turn to its end; raises ``_Refused`` at the first refused submission."""
    events: list = []
    actor = state.data["window"]["answerers"][0]
    submitted = [_submit(ruleset, state, Action(actor, "turn", script.turn))]
    for _ in range(MAX_WINDOWS):
        mine = [(a.player, a.args["card"]) for a in submitted if a.kind == "lose"]
        res = ruleset.resolve(state, submitted, phase_rng(seed, state.phase))
        state = res.state
        for e in res.events:
            if e.kind == "rejected_at_resolution":
                raise _Refused(e.to[0], Rejected(e.data["code"], **(e.data.get("params") or {})))
            if e.kind == "lost_card":
                if (e.data["player"], e.data["card"]) in mine:
                    mine.remove((e.data["player"], e.data["card"]))
                else:
                    script.automatic_loss(e.data["player"], e.data["card"])
        events += res.events
        if state.over or state.phase.kind == "turn":
            break
        submitted = [_submit(ruleset, state, a) for a in script.answers(state)]
    else:
        raise ScenarioError("the turn never ends")
    # The claim caught as a bluff ends the turn: its block, exchange or examination is moot.
    moot = state.over or any(e.kind == "bluff" and e.data["player"] == actor for e in events)
    for a in script.leftovers(moot):
        if not a.player:
            a = Action(actor, a.kind, a.args)
        _submit(ruleset, state, a)  # raises: no window is open for it
        raise _Refused(a.player, Rejected("not_your_moment"))
    return state, events


class TurnScenarios(Scenarios):
    """Complots' scenario files: a step is one player's turn."""

    says_rejected = "rejected: true"

    def start(self, ruleset: BaseRuleset, data: dict[str, Any], seed: int) -> GameState:
        unknown = set(data) - TOP_KEYS
        if unknown:
            raise ScenarioError(f"unknown key(s) {sorted(unknown)}")
        players = data.get("players") or {}
        if not players:
            raise ScenarioError("no players")
        setup = data.get("setup") or {}
        if set(setup) - SETUP_KEYS:
            raise ScenarioError(f"unknown setup key(s) {sorted(set(setup) - SETUP_KEYS)}")
        hands = {}
        for name, cards in players.items():
            if isinstance(cards, str):  # "Capitano, Duchessa"
                cards = cards.replace(",", " ").split()
            if not isinstance(cards, (list, tuple)) or len(cards) != 2:
                raise ScenarioError(f"players: {name} must hold a list of two cards")
            hands[str(name)] = _cards(cards, f"players: {name}")
        options = {"variant": data.get("variant") or setup.get("variant") or "ambasciatore",
                   "hands": hands,
                   "court": _cards(setup.get("court"), "setup.court"),
                   "coins": {str(k): int(v) for k, v in (setup.get("coins") or {}).items()}}
        for name in options["coins"]:
            if name not in hands:
                raise ScenarioError(f"setup.coins: unknown player {name!r}")
        try:
            state, _ = ruleset.setup([(n, "") for n in hands], setup_rng(seed), options)
        except SetupError as exc:
            raise ScenarioError(f"setup: {exc}") from None
        return state

    def label(self, step: Any, index: int) -> str:
        if not isinstance(step, dict) or "turn" not in step:
            raise ScenarioError(f"step {index + 1}: no turn")
        return f"step {index + 1} (turn {step['turn']})"

    def play(self, ruleset: BaseRuleset, state: GameState, step: dict[str, Any],
             label: str, seed: int) -> Played:
        whose = state.data["window"]["answerers"][0]
        if state.phase.kind != "turn" or str(step["turn"]) != whose:
            raise ScenarioError(f"{label}: it is {whose}'s turn")
        script = _Script(step, label, state)
        before = state
        refusals: dict[str, list[str]] = {}
        try:
            state, events = _play_turn(ruleset, state, script, seed)
        except _Refused as refused:
            state, events = before, []
            refusals[refused.player] = [str(refused.rejected)]
        return Played(state, _Checker(state, events, bool(refusals), label).check, refusals)


class _Checker:
    def __init__(self, state: GameState, events: list, rejected: bool, step: str) -> None:
        self.state, self.events, self.rejected, self.step = state, events, rejected, step

    def check(self, expect: dict[str, Any]) -> list[Mismatch]:
        out: list[Mismatch] = []
        for key, expected in expect.items():
            if key not in EXPECT_KEYS:
                raise ScenarioError(f"{self.step}: unknown expect key {key!r}")
            if key in ("one_of", "all_seen"):
                continue
            out += getattr(self, "_k_" + key)(expected)
        return out

    def _player(self, name: Any):
        if not self.state.has_player(str(name)):
            raise ScenarioError(f"{self.step}: unknown player {name!r}")
        return self.state.player(str(name))

    def _per_player(self, key: str, expected: dict[str, Any], got, norm) -> list[Mismatch]:
        out = []
        for name, value in (expected or {}).items():
            want, have = norm(value), got(self._player(name))
            if want != have:
                out.append(Mismatch(self.step, f"{key}.{name}", want, have))
        return out

    def _k_coins(self, expected):
        return self._per_player("coins", expected, lambda p: p.data["coins"], int)

    def _k_influence(self, expected):
        return self._per_player("influence", expected, lambda p: len(p.data["hand"]), int)

    def _k_revealed(self, expected):
        return self._per_player("revealed", expected, lambda p: sorted(p.data["revealed"]),
                                lambda v: sorted(_cards(v, f"{self.step}: revealed")))

    def _k_hand(self, expected):
        return self._per_player("hand", expected, lambda p: sorted(p.data["hand"]),
                                lambda v: sorted(_cards(v, f"{self.step}: hand")))

    def _k_eliminated(self, expected):
        got = sorted(e.data["player"] for e in self.events if e.kind == "eliminated")
        if name_set(expected) != frozenset(got):
            return [Mismatch(self.step, "eliminated", sorted(name_set(expected)), got)]
        return []

    def _k_court(self, expected):
        got = len(self.state.data["court"])
        return [] if int(expected) == got else [Mismatch(self.step, "court", int(expected), got)]

    def _k_treasury(self, expected):
        got = self.state.data["treasury"]
        return [] if int(expected) == got else [Mismatch(self.step, "treasury", int(expected), got)]

    def _k_next(self, expected):
        got = None if self.state.over else self.state.data["window"]["answerers"][0]
        want = None if expected is None or str(expected).casefold() == "none" else str(expected)
        return [] if want == got else [Mismatch(self.step, "next", expected, got or "none")]

    def _k_rejected(self, expected):
        want = bool(expected) and str(expected).casefold() not in ("no", "false")
        return [] if want == self.rejected else [Mismatch(self.step, "rejected", want, self.rejected)]

    def _k_winner(self, expected):
        want = None if expected is None or str(expected).casefold() == "none" else str(expected)
        got = self.state.winner
        if (want or "").casefold() != (got or "").casefold():
            return [Mismatch(self.step, "winner", expected, got or "none")]
        return []

    def _item(self, item: Any) -> tuple[str, tuple[str, ...]]:
        if not isinstance(item, dict) or len(item) != 1:
            raise ScenarioError(f"{self.step}: bad result item {item!r}")
        ((kind, value),) = item.items()
        if kind not in RESULT_KINDS:
            raise ScenarioError(f"{self.step}: unknown result item kind {kind!r}")
        return kind, tuple(sorted(_cards(value, f"{self.step}: results")))

    def _k_results(self, expected):
        out = []
        for name, items in (expected or {}).items():
            self._player(name)
            want = Counter(self._item(i) for i in items or [])
            got = Counter(
                (e.kind, tuple(sorted(_cards(e.data[e.kind], "event"))))
                for e in self.events
                if e.visibility == "private" and str(name) in e.to and e.kind in RESULT_KINDS)
            if want != got:
                out.append(Mismatch(self.step, f"results.{name}", sorted(want.elements()),
                                    sorted(got.elements())))
        return out
