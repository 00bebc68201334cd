"""A game at the table as data: the narrator's taps worked out without a database.

The server keeps a game at the table in its tables (``pbm/operations/table.py``); the
narrator's phone, without a network, keeps the same thing as one ``Book``: the moment
open now (the state it opened with, the narrator's progress in ``gm_input``, the
submissions tapped so far) and what the last moment published. Both ask the rules
here: the checks of a tap (``checked_taps``), where the night is (``next_call``), what a
power tells its actor (``told``), who votes (``voters``) and the moment's resolution
are the same functions whichever side runs them (the phone runs this package in
Pyodide), so no rule is written twice.

``book_hash`` is the canonical fingerprint of a book: the server builds the book of a
stored game (``pbm/operations/table_sync.py``) and the phone hashes its own; after the
phone's taps are replayed on the server the two must be equal.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .core import PRIVATE, Action, Event, GameState, Phase, Rejected, Resolution, keep_last, phase_rng
from .interface import IDENTIFY, Call, IdentifyTap, NightFrame, PowerTap, TableScript
from .registry import get_ruleset

# gm_input keys of the narrator's progress (the server stores them on the open phase).
SCRIPT_DONE = "script_done"
IDENTIFY_TAPS = "identify_taps"
ANSWERS_SHOWN = "answers_shown"

# What the book's moment is: open (taps go in), identities (a first night closed from
# the Masters' desk that waits for the narrator's faces: taps still go in), held (a
# resolution waits for the Masters' desk: nothing the phone can do), over, setup.
OPEN, IDENTITIES, HELD, OVER, SETUP = "open", "identities", "held", "over", "setup"


class Refused(Exception):
    """A tap the rules or the narrator's progress refuse: ``code`` and its ``params``,
    the service's own codes (worded by ``pbm/errors.py``), or the ruleset's refusal."""

    def __init__(self, code: str, *, by_rules: bool = False, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        self.by_rules = by_rules  # the ruleset's own refusal (``describe_rejection`` words it)


# --------------------------------------------------------------------------- the shared rules of a tap

def table_of(ruleset_key: str) -> TableScript | None:
    return get_ruleset(ruleset_key).ability(TableScript)


def night_script(ruleset_key: str, state_before: dict[str, Any]) -> tuple[Call, ...]:
    table = table_of(ruleset_key)
    if table is None:
        raise Refused("not_a_table_game")
    return table.night_script(GameState.from_dict(state_before))


def night_frame(ruleset_key: str) -> NightFrame:
    table = table_of(ruleset_key)
    if table is None:
        raise Refused("not_a_table_game")
    return table.night_frame()


def calls_done(gm: dict[str, Any] | None) -> list[str]:
    return list((gm or {}).get(SCRIPT_DONE) or [])


def next_call(script: tuple[Call, ...], gm: dict[str, Any] | None) -> int | None:
    """The index of the call the narrator is at, None when every call is done."""
    done = set(calls_done(gm))
    return next((i for i, call in enumerate(script) if call.role not in done), None)


def identified(gm: dict[str, Any] | None) -> dict[str, list[str]]:
    """The faces tapped so far tonight, by role."""
    taps = (gm or {}).get(IDENTIFY_TAPS) or {}
    return {role: list(names) for role, names in taps.items()}


def checked_taps(call: Call, taps: Iterable[Any], gm: dict[str, Any] | None) -> list[str]:
    """The faces tapped for ``call``, as the call allows them: an identifying call
    needs exactly as many faces as the role has copies, none tapped for another role; a
    power needs one of its choices (or none when the power is optional); a call nobody
    can answer takes no tap."""
    tap = call.tap
    out = [str(t) for t in taps]
    if len(set(out)) != len(out) or any(t not in tap.choices for t in out):
        raise Refused("bad_tap")
    if isinstance(tap, IdentifyTap):
        if len(out) != tap.count:
            raise Refused("tap_count", expected=tap.count, got=len(out))
        taken = {n: role for role, names in identified(gm).items() if role != call.role for n in names}
        twice = next((t for t in out if t in taken), None)
        if twice is not None:
            raise Refused("tapped_twice", player=twice)
    elif isinstance(tap, PowerTap):
        if tap.actor is None:
            if out:
                raise Refused("bad_tap")
        elif not out and not tap.optional:
            raise Refused("tap_count", expected=1, got=0)
        elif len(out) > 1:
            raise Refused("tap_count", expected=1, got=len(out))
    else:
        raise Refused("unknown_tap", kind=type(tap).__name__)
    return out


def identify_into(gm: dict[str, Any], script: tuple[Call, ...], call: Call, taps: list[str]) -> None:
    """The first night's faces of ``call`` into ``gm``; the whole identification, as the
    ruleset's resolve reads it (``gm[IDENTIFY]``), once every identifying call has its
    faces (so a night closed early from the Masters' desk waits for the rest)."""
    gm[IDENTIFY_TAPS] = {**identified(gm), call.role: taps}
    if all(c.role in gm[IDENTIFY_TAPS] for c in script if isinstance(c.tap, IdentifyTap)):
        gm[IDENTIFY] = gm[IDENTIFY_TAPS]


def correctable(call: Call) -> bool:
    return bool(call.tap.choices) and not (isinstance(call.tap, PowerTap) and call.tap.actor is None)


def told(events: Iterable[Event], actor: str | None) -> list[Event]:
    """What the rules tell ``actor`` in private about tonight's choice (a seer's
    answer), among the events of tonight resolved as it stands. A refusal of the
    actor's own choice is not an answer to signal."""
    if not actor:
        return []
    return [e for e in events if e.visibility == PRIVATE and actor in e.to
            and e.kind != "rejected_at_resolution"]


def fingerprint(events: list[Event]) -> str:
    """What an answer was, short enough to keep: the same events, the same print."""
    raw = json.dumps([e.to_dict() for e in events], sort_keys=True, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def voters(ruleset_key: str, state_before: dict[str, Any], seats: Iterable[str]) -> list[tuple[str, str, list[str]]]:
    """Who votes now, in seat order: (name, the submission key, the legal choices)."""
    ruleset = get_ruleset(ruleset_key)
    state = GameState.from_dict(state_before)
    out = []
    for name in seats:
        for form in ruleset.forms(state, name):
            if form.fields:
                out.append((name, form.fields[0].name, list(form.fields[0].choices)))
                break
    return out


def resolve(ruleset_key: str, seed: Any, kind: str, number: int, state_before: dict[str, Any],
            actions: list[Action], gm: dict[str, Any] | None) -> Resolution:
    """The moment resolved with what was tapped (the phase's own seed: the same draw
    on the server and on the phone)."""
    return get_ruleset(ruleset_key).resolve(GameState.from_dict(state_before), actions,
                                            phase_rng(seed, Phase(kind, number)), gm or {})


# --------------------------------------------------------------------------- the canonical hash

def plain(data: Any) -> Any:
    """``data`` as JSON keeps it (tuples as lists, keys as strings): what a stored
    value reads back as, so both sides hash the same thing."""
    return json.loads(json.dumps(data, default=str))


def canonical(data: Any) -> str:
    return json.dumps(plain(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def book_hash(book: "Book") -> str:
    """The fingerprint of everything the narrator's taps change: the moment open now
    (its state, the narrator's progress, the submissions that count) and what the last
    moment published. The words shown are left out: they follow from these."""
    return hashlib.sha256(canonical(book.hashed()).encode()).hexdigest()


# --------------------------------------------------------------------------- the book

def confirmed_faces(calls: Any, gm_input: dict[str, Any] | None,
                    last_args: Callable[[PowerTap], dict[str, Any] | None]) -> dict[str, list[str]]:
    """The faces confirmed so far tonight, by the role called: the first night's
    identities, a power's target as its actor's latest submission (``last_args``: read
    from the server's rows or the phone's book) stands."""
    out: dict[str, list[str]] = {}
    done = set(calls_done(gm_input))
    ids = identified(gm_input)
    for call in calls:
        if call.role not in done:
            continue
        tap = call.tap
        if isinstance(tap, IdentifyTap):
            out[call.role] = list(ids.get(call.role) or [])
        elif isinstance(tap, PowerTap) and tap.actor is not None:
            args = last_args(tap)
            out[call.role] = [str(args[tap.key])] if args is not None and tap.key in args else []
        else:
            out[call.role] = []
    return out


@dataclass
class Book:
    """A game at the table from the moment open now; JSON in, JSON out (``to_dict``)."""

    ruleset: str
    seed_hex: str  # the game's seed (its UTF-8, in hex: a value for programs, never text)
    seats: list[str]
    status: str
    index: int = 0
    kind: str = ""
    number: int = 0
    state_before: dict[str, Any] = field(default_factory=dict)
    gm_input: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)  # {player, kind, args}, in order
    published: list[dict[str, Any]] = field(default_factory=list)  # the last moment's events
    options: dict[str, Any] = field(default_factory=dict)  # the game's options (``holds``)
    state: dict[str, Any] | None = None  # the game's state once over

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Book":
        return cls(**plain(data))

    def to_dict(self) -> dict[str, Any]:
        return plain(self.__dict__)

    def hashed(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "seats": self.seats, "status": self.status,
                "index": self.index, "kind": self.kind, "number": self.number,
                "state_before": self.state_before, "gm_input": self.gm_input,
                "actions": [a.to_dict() for a in self.engine_actions()],
                "published": self.published, "state": self.state}

    @property
    def seed(self) -> str:
        return bytes.fromhex(self.seed_hex).decode()

    @staticmethod
    def hex_of(seed: Any) -> str:
        return str(seed).encode().hex()

    # ----------------------------------------------------------------- reading

    def engine_actions(self) -> list[Action]:
        return keep_last(Action(a["player"], a["kind"], dict(a["args"])) for a in self.actions)

    def taking_taps(self) -> bool:
        return self.status in (OPEN, IDENTITIES)

    def script(self) -> tuple[Call, ...]:
        return night_script(self.ruleset, self.state_before) if self.taking_taps() else ()

    def next_call(self) -> int | None:
        return next_call(self.script(), self.gm_input)

    def preview(self) -> Resolution | None:
        try:
            return resolve(self.ruleset, self.seed, self.kind, self.number, self.state_before,
                           self.engine_actions(), self.gm_input)
        except Rejected:  # a preview must never stop the night
            return None

    def tapped(self) -> dict[str, list[str]]:
        """The faces confirmed so far tonight, by the role called."""
        def last_args(tap: PowerTap) -> dict[str, Any] | None:
            rows = self._power_rows(tap)
            return rows[-1]["args"] if rows else None
        return confirmed_faces(self.script(), self.gm_input, last_args)

    def _power_rows(self, tap: PowerTap) -> list[dict[str, Any]]:
        kind = get_ruleset(self.ruleset).kind_of_key(tap.key)
        return [a for a in self.actions if a["player"] == tap.actor and (kind is None or a["kind"] == kind)]

    def answer_waiting(self) -> tuple[int, Call, str, list[Event], bool] | None:
        """The first confirmed call whose answer the narrator has not signalled as it
        stands now: (index, call, actor, what the rules tell them, shown before)."""
        done = set(calls_done(self.gm_input))
        shown = self.gm_input.get(ANSWERS_SHOWN) or {}
        events: list[Event] | None = None
        for index, call in enumerate(self.script()):
            tap = call.tap
            if call.role not in done or not isinstance(tap, PowerTap) or not tap.actor:
                continue
            if events is None:
                result = self.preview()
                events = list(result.events) if result is not None else []
            answer = told(events, tap.actor)
            now = fingerprint(answer) if answer else None
            if now != shown.get(call.role):
                return index, call, tap.actor, answer, call.role in shown
        return None

    def voters(self) -> list[tuple[str, str, list[str]]]:
        return voters(self.ruleset, self.state_before, self.seats) if self.status == OPEN else []

    # ----------------------------------------------------------------- the taps

    def _need_taps(self) -> tuple[Call, ...]:
        if not self.taking_taps():
            raise Refused("no_open_phase")
        script = self.script()
        if not script:
            raise Refused("not_a_night")
        return script

    def _submit(self, player: str, submission: dict[str, Any], *, final: bool) -> None:
        """A submission as the server's ``submit`` checks it: the ruleset's reading
        against the moment's state, and a final one (a tapped vote) never twice."""
        if player not in self.seats:
            raise Refused("unknown_player", name=player)
        ruleset = get_ruleset(self.ruleset)
        state = GameState.from_dict(self.state_before)
        mine = [Action(a["player"], a["kind"], dict(a["args"])) for a in self.actions if a["player"] == player]
        try:
            read = ruleset.submission_actions(state, player, submission, made=lambda: keep_last(mine))
        except ValueError as exc:
            raise Refused("bad_submission", reason=str(exc)) from exc
        if read.refused:
            first = read.refused[0]
            raise Refused(first.code, by_rules=True, **first.params)
        if final:
            kinds = {a.kind for a in read.accepted}
            recorded = next((a["kind"] for a in self.actions if a["player"] == player and a["kind"] in kinds), None)
            if recorded is not None:
                raise Refused("already_recorded", player=player, kind=recorded)
        self.actions.extend(plain({"player": player, "kind": a.kind, "args": a.args}) for a in read.accepted)

    def _apply(self, script: tuple[Call, ...], call: Call, taps: list[str]) -> None:
        tap = call.tap
        if isinstance(tap, IdentifyTap):
            identify_into(self.gm_input, script, call, taps)
        elif isinstance(tap, PowerTap) and tap.actor is not None and taps:
            self._submit(tap.actor, {tap.key: taps[0]}, final=True)

    def call(self, index: int, taps: list[str]) -> None:
        """Confirm call ``index`` of tonight's script (``table.record_call``)."""
        script = self._need_taps()
        at = self.next_call()
        if at is None or index != at:
            raise Refused("stale_call")
        call = script[index]
        checked = checked_taps(call, taps, self.gm_input)
        self._apply(script, call, checked)
        self.gm_input[SCRIPT_DONE] = [*calls_done(self.gm_input), call.role]

    def correct(self, index: int, taps: list[str]) -> None:
        """Replace the faces of a confirmed call tonight (``table.correct_call``)."""
        script = self._need_taps()
        if not 0 <= index < len(script) or script[index].role not in calls_done(self.gm_input):
            raise Refused("stale_call")
        call = script[index]
        if not correctable(call):
            raise Refused("stale_call")
        checked = checked_taps(call, taps, self.gm_input)
        if isinstance(call.tap, PowerTap):
            dropped = {id(a) for a in self._power_rows(call.tap)}
            self.actions = [a for a in self.actions if id(a) not in dropped]
        self._apply(script, call, checked)

    def shown(self, index: int, mark: str) -> None:
        """The narrator signalled the answer of call ``index`` (``table.answer_shown``)."""
        if not self.taking_taps():
            raise Refused("no_open_phase")
        waiting = self.answer_waiting()
        if waiting is None or waiting[0] != index or fingerprint(waiting[3]) != mark:
            raise Refused("stale_call")
        _index, call, _actor, answer, _again = waiting
        shown = dict(self.gm_input.get(ANSWERS_SHOWN) or {})
        if answer:
            shown[call.role] = mark
        else:
            shown.pop(call.role, None)
        self.gm_input[ANSWERS_SHOWN] = shown

    def vote(self, voter: str, choice: str) -> None:
        """One vote tapped (``table.record_vote``): the ruleset's check, final."""
        if self.status != OPEN:
            raise Refused("no_open_phase")
        if self.script():
            raise Refused("not_a_vote")
        if voter not in self.seats:
            raise Refused("unknown_player", name=voter)
        now_voting = self.voters()
        if not now_voting:
            raise Refused("not_a_vote")
        key = next((k for name, k, _c in now_voting if name == voter), now_voting[0][1])
        self._submit(voter, {key: choice}, final=True)

    def close(self, index: int) -> None:
        """The narrator's confirm (``table.close_moment``): the moment resolved, and,
        unless the rules hold it for the Masters, published and the next one opened."""
        if index != self.index or not self.taking_taps():
            raise Refused("stale_call")
        if self.script() and self.next_call() is not None:
            raise Refused("calls_left")
        result = resolve(self.ruleset, self.seed, self.kind, self.number, self.state_before,
                         self.engine_actions(), self.gm_input)
        if get_ruleset(self.ruleset).holds(result, self.options):
            self.status = HELD
            return
        after = plain(result.state.to_dict())
        self.published = [plain(e.to_dict()) for e in result.events]
        self.gm_input, self.actions = {}, []
        if result.state.over:
            self.status, self.state = OVER, after
            return
        self.status = OPEN
        self.index += 1
        self.kind, self.number = result.state.phase.kind, result.state.phase.number
        self.state_before = after

    def play(self, tap: dict[str, Any]) -> None:
        """One tap as the phone records it (and the server replays it)."""
        op = tap.get("op")
        if op == "call":
            self.call(int(tap["index"]), list(tap.get("taps") or []))
        elif op == "correct":
            self.correct(int(tap["index"]), list(tap.get("taps") or []))
        elif op == "shown":
            self.shown(int(tap["index"]), str(tap.get("mark", "")))
        elif op == "vote":
            self.vote(str(tap.get("voter", "")), str(tap.get("choice", "")))
        elif op == "close":
            self.close(int(tap["phase"]))
        else:
            raise Refused("unknown_tap", kind=str(op))
