"""Rooms: where the players of a game talk, as each ruleset's rules say (issue 30).

A game that carries its players' talk declares the ``Rooms`` ability (in the ruleset's
``abilities``; the service asks ``ruleset.ability(Rooms)``). The ruleset says which rooms
its rules give (``specs``: the piazza, the groups who know each other from the start, the
ghosts' room, the table), who is in each at a given state and with what access by the
rules alone (``rules_members``), and which of the Masters' usual choices its rules leave
open (``settings``: night silence, the dead only read, whispers...). This module applies
those choices the same way for every game, so the service stores only the Masters'
choices and asks:

- ``rooms_in(state)``: the rooms this game has now;
- ``members(state, room, settings)`` / ``access(state, room, player, settings)``: who
  reads and who writes, now;
- ``write_refusal(state, room, player, settings)``: why a post is refused, as a code the
  ruleset words (``describe_rejection``);
- ``may_whisper(state, sender, recipients, settings)``: whether a private conversation
  is allowed, or why not;
- ``posts_from(events)``: the posts a published moment makes (the night shout, anonymous,
  in the piazza).

Seats are players by name here: a substitute who takes a seat takes its rooms and their
history with it (the service's seat keeps its name); a player the Masters remove
(disqualify) is the service's to shut out, after these rules. The Masters read every
room; whether they read whispers is a setting (``MASTERS_READ_WHISPERS``).

Pure: values in, values out, no clock, no I/O. Wording as ``Say`` (Italian, English);
refusal codes are worded in the rulesets' ``REJECTIONS`` (engine/texts.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Iterable, Mapping

from .core import PUBLIC, Event, GameState
from .interface import Ability, Say

# What a room is (RoomSpec.kind).
PIAZZA = "piazza"  # every player of the game: the plenary discussion
GROUP = "group"  # players the rules let know each other (the wolves' den, the Massoni...)
GHOSTS = "ghosts"  # the dead, who act together (Lupus LIVE! rituals)
TABLE = "table"  # every player at a table game's table (Complots)
KINDS = (PIAZZA, GROUP, GHOSTS, TABLE)

# The Masters' choices a ruleset may leave open (RoomSetting.key).
NIGHT_SILENCE = "night_silence"  # the piazza is written by day only
DEAD_READ_ONLY = "dead_read_only"  # the dead read, but write only in the ghosts' room
WHISPERS = "whispers"  # players may open private conversations
DEAD_TO_LIVING = "dead_to_living"  # a dead player may whisper to the living
MASTERS_READ_WHISPERS = "masters_read_whispers"  # the Masters read the whispers (players are told)


class Access(IntEnum):
    """How far a player is in a room: ordered, so ``min`` and ``>=`` read naturally."""

    NONE = 0
    READ = 1
    WRITE = 2


@dataclass(frozen=True)
class RoomSpec:
    """A room the rules give.

    ``key``: its stable id in this game ("piazza", "lupi", "massoni", "ghosts", "table");
    ``name``: how the players call it; ``about``: one line for the room's page (who is
    here, by which rule, cited by rulebook and section); ``signed``: posts carry their
    author's name (False: anonymous room); ``kind``: one of ``KINDS``."""

    key: str
    name: Say
    about: Say
    kind: str = GROUP
    signed: bool = True

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown room kind {self.kind!r}")

    @property
    def plenary(self) -> bool:
        """Every player of the game is in it (the piazza, the table): the room an archive
        of "the piazza only" keeps."""
        return self.kind in (PIAZZA, TABLE)


@dataclass(frozen=True)
class RoomSetting:
    """One of the Masters' choices about talk that the rules leave open: ``label`` on the
    set-up form, ``default`` as a careful Master would choose with these rules, and what
    the players are told when it is ``on`` or ``off`` (the Italian Masters' sign-up post)."""

    key: str
    label: Say
    default: bool
    on: Say = Say("")
    off: Say = Say("")

    def told(self, value: bool) -> Say:
        return self.on if value else self.off


@dataclass(frozen=True)
class Refusal:
    """Why a post or a whisper is refused: ``code`` worded by the ruleset's
    ``describe_rejection(code, params, lang)``, like a ``Rejected``."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RoomPost:
    """A post the rules make (not a player's): ``room``'s key, the ``text``, ``signed``
    False for an anonymous one, ``heading`` what stands where an author's name would."""

    room: str
    text: str
    signed: bool = False
    heading: Say = Say("")


# ---------------------------------------------------------------------------- the usual settings
# Each ruleset declares those its rules leave open, with its own default (and its own words,
# dataclasses.replace, where "the dead" are called otherwise).

def night_silence(default: bool = False) -> RoomSetting:
    return RoomSetting(
        NIGHT_SILENCE, Say("Silenzio notturno: in piazza si scrive solo di giorno",
                           "Night silence: the piazza is written by day only"), default,
        on=Say("Di notte la piazza tace: si scrive solo di giorno.",
               "At night the piazza is silent: posts by day only."),
        off=Say("In piazza si scrive di giorno e di notte.", "The piazza is open day and night."))


def dead_read_only(default: bool = False) -> RoomSetting:
    return RoomSetting(
        DEAD_READ_ONLY, Say("I morti leggono soltanto (salvo nella stanza dei fantasmi)",
                            "The dead only read (but in the ghosts' room)"), default,
        on=Say("I morti leggono le stanze ma non vi scrivono.",
               "The dead read the rooms but do not post in them."),
        off=Say("Anche i morti scrivono nelle stanze.", "The dead post in the rooms too."))


def whispers(default: bool = True) -> RoomSetting:
    return RoomSetting(
        WHISPERS, Say("Conversazioni private tra giocatori", "Private conversations between players"),
        default,
        on=Say("Si possono aprire conversazioni private con altri giocatori.",
               "Players may open private conversations with each other."),
        off=Say("Niente conversazioni private: si parla nelle stanze.",
                "No private conversations: all talk is in the rooms."))


def dead_to_living(default: bool = True) -> RoomSetting:
    return RoomSetting(
        DEAD_TO_LIVING, Say("I morti possono scrivere in privato ai vivi",
                            "The dead may write privately to the living"), default,
        on=Say("I morti possono scrivere in privato ai vivi.",
               "The dead may write privately to the living."),
        off=Say("I morti non scrivono in privato ai vivi.",
                "The dead do not write privately to the living."))


def masters_read_whispers(default: bool = True) -> RoomSetting:
    return RoomSetting(
        MASTERS_READ_WHISPERS, Say("I Master leggono le conversazioni private",
                                   "The Masters read private conversations"), default,
        on=Say("I Master leggono le conversazioni private.",
               "The Masters read private conversations."),
        off=Say("I Master non leggono le conversazioni private.",
                "The Masters do not read private conversations."))


def worded(setting: RoomSetting, label: Say, on: Say, off: Say) -> RoomSetting:
    """A usual setting in a game's own words (Complots' eliminated are not "the dead")."""
    return replace(setting, label=label, on=on, off=off)


# ---------------------------------------------------------------------------- the ability

class Rooms(Ability):
    """The rooms a ruleset's rules give, and who reads and writes in each.

    A ruleset implements ``specs``, ``rules_members`` and, where its rules leave them open,
    ``settings``; it overrides ``is_night``, ``is_dead``, ``is_out`` where its state says
    them otherwise, and ``posts_from`` where its events make posts. The rest is common."""

    # -- what the ruleset declares ---------------------------------------------------
    def specs(self) -> tuple[RoomSpec, ...]:
        """Every room a game of this ruleset may have, in the order pages list them."""
        raise NotImplementedError

    def settings(self) -> tuple[RoomSetting, ...]:
        """The Masters' choices the rules leave open, with their defaults. Default: none
        (no whispers, nothing the Masters may restrict)."""
        return ()

    def rules_members(self, state: GameState, room: str) -> dict[str, Access]:
        """Who is in ``room`` at ``state`` by the rules alone, and how (before any of the
        Masters' settings): every player with READ or WRITE, nobody else."""
        raise NotImplementedError

    def is_night(self, state: GameState) -> bool:
        """The open moment is a night (night silence)."""
        return state.phase.kind == "night"

    def is_dead(self, state: GameState, player: str) -> bool:
        """The player is dead (or out, in a game without death) and still in the game."""
        return not state.player(player).alive

    def is_out(self, state: GameState, player: str) -> bool:
        """The player no longer plays at all (tempo-reale-7's exiled): no whispers."""
        return False

    def posts_from(self, events: Iterable[Event]) -> list[RoomPost]:
        """The posts the published events of a moment make, in their order. Default: none."""
        return []

    # -- what the service asks -----------------------------------------------------------
    def spec(self, room: str) -> RoomSpec | None:
        return next((s for s in self.specs() if s.key == room), None)

    def rooms_in(self, state: GameState) -> tuple[RoomSpec, ...]:
        """The rooms this game has at ``state``: the piazza, the table and the ghosts' room
        always (the ghosts' may be empty yet); a group once at least two players are in it
        by the rules (a group of one knows nobody)."""
        return tuple(s for s in self.specs() if _exists(s, self.rules_members(state, s.key)))

    def chosen(self, settings: Mapping[str, Any] | None) -> dict[str, bool]:
        """The Masters' choices for every declared setting, the default where they made
        none; keys the ruleset does not declare are left out (they change nothing)."""
        settings = settings or {}
        return {s.key: bool(settings.get(s.key, s.default)) for s in self.settings()}

    def members(self, state: GameState, room: str,
                settings: Mapping[str, Any] | None) -> dict[str, Access]:
        """Who reads (READ) and who writes (WRITE) in ``room`` now, the Masters' settings
        applied; nobody else. A room the game does not have now has no members."""
        spec = self.spec(room)
        by_rules = self.rules_members(state, room) if spec is not None else {}
        if spec is None or not _exists(spec, by_rules):
            return {}
        chosen = self.chosen(settings)
        out = {}
        for player, level in by_rules.items():
            level = min(level, self._allowed(state, spec, player, chosen)[0])
            if level > Access.NONE:
                out[player] = level
        return out

    def access(self, state: GameState, room: str, player: str,
               settings: Mapping[str, Any] | None) -> Access:
        """How far ``player`` is in ``room`` now (NONE for anyone not a member)."""
        return self.members(state, room, settings).get(player, Access.NONE)

    def write_refusal(self, state: GameState, room: str, player: str,
                      settings: Mapping[str, Any] | None) -> Refusal | None:
        """Why ``player`` may not post in ``room`` now, or None (they may)."""
        spec = self.spec(room)
        by_rules = self.rules_members(state, room) if spec is not None else {}
        if spec is None or not _exists(spec, by_rules):
            return Refusal("room_unknown", {"room": room})
        level = by_rules.get(player, Access.NONE)
        if level == Access.NONE:
            return Refusal("room_not_member", {"room": room})
        if level == Access.READ:
            return Refusal("room_read_only", {"room": room})
        return self._allowed(state, spec, player, self.chosen(settings))[1]

    def may_whisper(self, state: GameState, sender: str, recipients: Iterable[str],
                    settings: Mapping[str, Any] | None) -> Refusal | None:
        """Whether ``sender`` may write privately to ``recipients`` now (None: yes), by
        the rules and the Masters' settings. A whisper is no room of the rules: it needs
        the ``WHISPERS`` setting, declared and on; players out of the game take no part;
        while the game goes on, a dead sender writes to the living only if
        ``DEAD_TO_LIVING`` is declared and on. The service asks again at every post."""
        chosen = self.chosen(settings)
        if not chosen.get(WHISPERS):
            return Refusal("whispers_off")
        others = list(dict.fromkeys(r for r in recipients if r != sender))
        if not state.has_player(sender):
            return Refusal("whisper_not_in_game")
        if not others:
            return Refusal("whisper_nobody")
        for name in others:
            if not state.has_player(name):
                return Refusal("whisper_recipients", {"player": name})
        for name in [sender, *others]:
            if self.is_out(state, name) and not state.over:
                return Refusal("whisper_out", {"player": name})
        if not state.over and self.is_dead(state, sender) and not chosen.get(DEAD_TO_LIVING):
            living = [n for n in others if not self.is_dead(state, n)]
            if living:
                return Refusal("whisper_dead_to_living", {"players": living})
        return None

    def masters_read_whispers(self, settings: Mapping[str, Any] | None) -> bool:
        """Whether the Masters read whispers (the players are told). A ruleset that does
        not declare the setting leaves them reading, as they read everything else."""
        return self.chosen(settings).get(MASTERS_READ_WHISPERS, True)

    # -- the settings, applied the same way in every game -------------------------------
    def _allowed(self, state: GameState, spec: RoomSpec, player: str,
                 chosen: Mapping[str, bool]) -> tuple[Access, Refusal | None]:
        """The most the Masters' settings leave ``player`` in the room now, and why when
        that is less than WRITE. The settings only ever take away: never a room
        the rules do not give. Once the game is over they lapse (no nights, no dead to
        keep quiet: the talk after the reveal)."""
        if state.over:
            return Access.WRITE, None
        if spec.kind == PIAZZA and chosen.get(NIGHT_SILENCE) and self.is_night(state):
            return Access.READ, Refusal("room_night_silence", {"room": spec.key})
        if spec.kind != GHOSTS and chosen.get(DEAD_READ_ONLY) and self.is_dead(state, player):
            return Access.READ, Refusal("room_dead_read_only", {"room": spec.key})
        return Access.WRITE, None


def _exists(spec: RoomSpec, by_rules: Mapping[str, Access]) -> bool:
    """A group exists once two players are in it (a group of one knows nobody); the other
    rooms always do (the ghosts' may be empty yet)."""
    return spec.kind != GROUP or len(by_rules) >= 2


def everyone(state: GameState, level: Access = Access.WRITE) -> dict[str, Access]:
    """Every player of the game at ``level``: the piazza's, the table's members."""
    return {p.name: level for p in state.players}


def shouts(events: Iterable[Event], room: str, heading: Say) -> list[RoomPost]:
    """The published night shouts (public ``shout`` events), anonymous posts in ``room``."""
    return [RoomPost(room, str(e.data.get("text") or ""), False, heading)
            for e in events if e.kind == "shout" and e.visibility == PUBLIC and e.data.get("text")]


__all__ = [
    "Access", "DEAD_READ_ONLY", "DEAD_TO_LIVING", "GHOSTS", "GROUP", "KINDS", "MASTERS_READ_WHISPERS",
    "NIGHT_SILENCE", "PIAZZA", "Refusal", "RoomPost", "RoomSetting", "RoomSpec", "Rooms", "TABLE",
    "WHISPERS", "dead_read_only", "dead_to_living", "everyone", "masters_read_whispers",
    "night_silence", "shouts", "whispers", "worded",
]
