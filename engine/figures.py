"""What a finished game says of each of its players, for the service's statistics
(issue 34): the ``GameFigures`` ability of a ruleset counts them from the game's
public events, in order, and the service only adds them up.

Only the events everyone saw at the end are read (the roles and factions a game
reveals when it is over), so the figures never tell more than the game's own archive.
Pure: no clock, no database; the same events always give the same figures.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable

from .core import Event, GameState, Phase
from .interface import Ability

# Which groups of figures a game has (``GameFigures.shows``): the Lupus games count
# nights, deaths and votes; Complots its challenges and coups.
NIGHTS, DEATHS, VOTES, CHALLENGES = "nights", "deaths", "votes", "challenges"


@dataclass
class Figures:
    """One player's figures in one game (every count 0 where the game has none)."""

    role: str = ""
    faction: str = ""
    won: bool = False
    nights_survived: int = 0
    died: str = ""  # how they died, a key of ``GameFigures.causes`` ("" alive at the end)
    votes_cast: int = 0
    votes_on_chosen: int = 0  # day votes that went to the one the vote chose (burnt)
    challenges: int = 0
    challenges_won: int = 0
    bluffs_caught: int = 0  # their own bluffs someone challenged
    coups: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Moment:
    """One resolved moment of a game: its phase and its events, in order."""

    phase: Phase
    events: tuple[Event, ...]


class GameFigures(Ability):
    """A ruleset's counting of a finished game (``count``), the groups of figures it
    has (``shows``) and the words for how its players die (``causes``)."""

    shows: frozenset[str] = frozenset()
    causes: dict[str, dict[str, str]] = {}

    def count(self, final: GameState, moments: Iterable[Moment]) -> dict[str, Figures]:
        raise NotImplementedError

    def faction_name(self, faction: str, lang: str) -> str:
        """A faction as a table's row names it, in the reader's language."""
        return faction

    def cause_name(self, key: str, lang: str) -> str:
        words = self.causes.get(key) or {}
        return words.get("en" if lang == "en" else "it") or words.get("it") or key


def winners_of(final: GameState, game_over: Event | None) -> set[str]:
    """The players who won: those of the winning faction, the winner by name, or the
    list a game names (a draw wins nobody)."""
    winner = final.winner
    named = set((game_over.data.get("winners") or []) if game_over else [])
    if named:
        return {str(n) for n in named}
    if winner in (None, "draw"):
        return set()
    return {p.name for p in final.players if p.name == winner or (p.faction and p.faction == winner)}


def start_figures(final: GameState) -> dict[str, Figures]:
    return {p.name: Figures(role=p.role, faction=p.faction) for p in final.players}
