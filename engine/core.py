"""The ruleset-independent core: players, phases, actions, events, randomness.

The core knows nothing of wolves. A ruleset (one package per rulebook) turns a
game state plus the actions submitted during a phase into a new state and a
list of events. Everything here is plain data that round-trips through JSON, so
the service can snapshot a state before a boundary and replay any phase from
its stored seed.
"""
from __future__ import annotations

import copy
import hashlib
import pickle
import random
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Iterable

PUBLIC = "public"
PRIVATE = "private"
MASTER = "master"


@dataclass
class Player:
    # A game without roles, factions or auras (Complots) leaves them empty: a stored
    # state keeps the one shape whatever the game.
    name: str
    role: str
    faction: str
    aura: str
    alive: bool = True
    # Ruleset-specific memory of this player (powers used, protections...).
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Phase:
    kind: str  # the ruleset's name for the moment ("night", "turn", "answer"...)
    number: int

    def __str__(self) -> str:
        return f"{self.kind} {self.number}"


@dataclass
class GameState:
    ruleset: str
    players: list[Player]
    phase: Phase  # the phase now open for actions (the next to be resolved)
    mayor: str | None = None  # the Lupus games' mayor; None in a game that has none
    winner: str | None = None  # a faction, a player, "draw", or None while the game goes on
    data: dict[str, Any] = field(default_factory=dict)

    # -- lookups -----------------------------------------------------------
    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def has_player(self, name: str) -> bool:
        return any(p.name == name for p in self.players)

    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def dead(self) -> list[Player]:
        return [p for p in self.players if not p.alive]

    def names(self, players: Iterable[Player] | None = None) -> list[str]:
        return [p.name for p in (self.players if players is None else players)]

    @property
    def over(self) -> bool:
        return self.winner is not None

    # -- persistence -------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """What ``dataclasses.asdict`` makes of the state, its keys in the same order,
        several times faster (every boundary stores a state, and a 40-player one
        is thousands of values): the dataclasses laid out here, the plain data they
        hold (JSON-like, see the module's docstring) deep-copied in one go."""
        return _deep_copy({
            "ruleset": self.ruleset,
            "players": [{name: getattr(p, name) for name in _PLAYER_FIELDS} for p in self.players],
            "phase": {name: getattr(self.phase, name) for name in _PHASE_FIELDS},
            "mayor": self.mayor, "winner": self.winner, "data": self.data,
        })

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, owned: bool = False) -> "GameState":
        """The state ``data`` (what ``to_dict`` makes) holds, on a copy of it: a state
        changes in place as a phase resolves, and ``data`` must stay as it was.
        ``owned``: ``data`` is the caller's to give away (parsed just now for this
        state alone, held by nothing else), taken as it is instead of copied."""
        if not owned:
            data = _deep_copy(data)
        return cls(
            ruleset=data["ruleset"],
            players=[Player(**p) for p in data["players"]],
            phase=Phase(**data["phase"]),
            mayor=data.get("mayor"),
            winner=data.get("winner"),
            data=data.get("data", {}),
        )

    def copy(self) -> "GameState":
        return GameState.from_dict(self.to_dict())


_PLAYER_FIELDS = tuple(f.name for f in fields(Player))
_PHASE_FIELDS = tuple(f.name for f in fields(Phase))
# GameState.to_dict lays these out by hand: a field added to the class must be added there.
assert tuple(f.name for f in fields(GameState)) == ("ruleset", "players", "phase", "mayor", "winner", "data")



@dataclass
class Action:
    """What one player submitted during a phase.

    ``kind`` is one of the game's submission kinds (what ``BaseRuleset.forms`` offer);
    ``args`` its arguments, in the game's vocabulary (the Lupus games: docs/scenarios.md's
    target, vote, ritual..., ``engine/lupus_common/actions.py``).
    """

    player: str
    kind: str
    args: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Event:
    """Something that happened while a phase was resolved.

    ``visibility`` is PUBLIC (bulletin), PRIVATE (only the players in ``to``)
    or MASTER (only the Masters). An event carries only structured data: its
    ruleset words it (``BaseRuleset.describe``).
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    visibility: str = PUBLIC
    to: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Event":
        return cls(**data)


def public(kind: str, **data: Any) -> Event:
    return Event(kind, data, PUBLIC, [])


def private(to: str | Iterable[str], kind: str, **data: Any) -> Event:
    names = [to] if isinstance(to, str) else list(to)
    return Event(kind, data, PRIVATE, names)


def master(kind: str, **data: Any) -> Event:
    return Event(kind, data, MASTER, [])


class SetupError(ValueError):
    """A set-up the rules refuse. ``code`` and ``params`` are for the service
    to word in the reader's language; the message is for the command line."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class UnknownRole(KeyError):
    """A role name no ruleset card matches: a KeyError for lookups, with a
    SetupError's code and params for the service."""

    code = "unknown_role"

    def __init__(self, message: str, role: str) -> None:
        super().__init__(message)
        self.params = {"role": role}


class Rejected(Exception):
    """An action the rules forbid. ``code`` is stable; the service words it."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        if not self.params:
            return self.code
        return f"{self.code} " + ", ".join(f"{k}={v}" for k, v in self.params.items())


def acting_player(state: GameState, action: Action) -> Player:
    """Who submits ``action``, refused when the game is over or the name is nobody's."""
    if state.over:
        raise Rejected("game_over")
    if not state.has_player(action.player):
        raise Rejected("not_a_player", player=action.player)
    return state.player(action.player)


@dataclass
class Pending:
    """Something the Masters must settle before the phase can be published."""

    kind: str  # e.g. "profeta_question", "stall"
    data: dict[str, Any] = field(default_factory=dict)
    blocking: bool = True


@dataclass
class Resolution:
    state: GameState
    events: list[Event]
    pending: list[Pending] = field(default_factory=list)

    @property
    def publishable(self) -> bool:
        return not any(p.blocking for p in self.pending)


@dataclass
class FormField:
    """One input of an action form, so the web can offer only legal choices."""

    name: str  # the submission key it fills (target, vote, card...)
    type: str  # "player" | "players" | "choice" | "int" | "text"
    choices: list[str] = field(default_factory=list)
    required: bool = True
    # For dependent inputs: {other field: {its value: [choices]}} narrows the choices.
    depends: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    min: int | None = None
    max: int | None = None


@dataclass
class ActionForm:
    kind: str  # the submission kind (vote, power, turn, answer...)
    fields: list[FormField]
    label: str = ""  # a code the ruleset's own form_title may word


@dataclass
class RoleInfo:
    name: str
    faction: str
    aura: str
    notes: dict[str, Any] = field(default_factory=dict)


def phase_rng(seed: int | str, phase: Phase, attempt: int = 0) -> random.Random:
    """The random generator of one phase, derived from the game's seed.

    Derived rather than drawn from one long stream, so a phase can be
    replayed or previewed on its own and re-resolving one phase never shifts
    the randomness of the next.
    """
    digest = hashlib.sha256(f"{seed}|{phase.kind}|{phase.number}|{attempt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def setup_rng(seed: int | str) -> random.Random:
    digest = hashlib.sha256(f"{seed}|setup".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def keep_last(actions: Iterable[Action]) -> list[Action]:
    """The last submission per player and kind wins (the Lupus rulebooks' §1.6: a choice
    may be changed, not withdrawn)."""
    last: dict[tuple[str, str], Action] = {}
    for a in actions:
        last[(a.player, a.kind)] = a
    return list(last.values())


def valid_at_close(validate: Callable[[GameState, Action], Action], state: GameState,
                   actions: Iterable[Action], events: list[Event], *,
                   last_only: bool = True) -> list[Action]:
    """The submissions that still count as a moment closes, each as ``validate`` returns it.

    Every ruleset judges them again against the state it resolves: an action stored as
    valid may not be one now (the state was changed under it, or it never went through
    ``validate``). Each refused one is left out and its sender told why, privately: a
    ``rejected_at_resolution`` event with the refusal's ``code`` and ``params``.

    ``last_only``: only the last submission of each kind per player is judged
    (``keep_last``: the Lupus games, where a choice may be changed and the latest
    stands even when it no longer holds); False: every submission is judged, in the
    order made, and the ruleset picks among those that hold (Complots: a player's last
    valid answer of the window counts)."""
    valid: list[Action] = []
    for a in (keep_last(actions) if last_only else actions):
        try:
            valid.append(validate(state, a))
        except Rejected as exc:
            events.append(private(a.player, "rejected_at_resolution", code=exc.code,
                                  params=exc.params))
    return valid


def _deep_copy(value: Any) -> Any:
    """A deep copy of a stored state, as ``copy.deepcopy`` makes it (shared
    parts stay shared, every type kept) but several times faster: a service
    reading a 40-player state for every vote pays this on every one."""
    try:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    except Exception:  # something that does not pickle: the slow way
        return copy.deepcopy(value)
