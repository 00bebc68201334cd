"""The two votes of the day: the morning vote picks the run-off, the afternoon run-off
picks who is burned in the evening (ruling N1, N2)."""
from __future__ import annotations

from collections import Counter

from ..core import Action, Event, GameState, public
from ..lupus_common.actions import VOTE
from .endgame import check_end
from .tiebreak import most_voted


def _tally(actions: list[Action]) -> dict[str, int]:
    counts = Counter(a.args["vote"] for a in actions if a.kind == VOTE)
    return dict(counts)


def _votes(actions: list[Action]) -> dict[str, str]:
    """Who voted whom: the table votes aloud, in turn ("in ordine orario")."""
    return {a.player: a.args["vote"] for a in actions if a.kind == VOTE}


def resolve_morning(state: GameState, actions: list[Action], events: list[Event]) -> None:
    """"I due giocatori che raccolgono il maggior numero di voti vanno al ballottaggio":
    every living player is a candidate with their count (0 when nobody voted for them),
    so one player voted by all still meets the luckless nearest the unlucky seat."""
    tally = _tally(actions)
    chosen, tie = most_voted(state, tally, [p.name for p in state.alive()], 2)
    state.data["runoff"] = chosen
    events.append(public("runoff", players=chosen, tally=tally, votes=_votes(actions),
                         tie_broken=tie))


def resolve_afternoon(state: GameState, actions: list[Action], events: list[Event]) -> None:
    """The most voted of the run-off is burned in the evening; a tie (0 to 0 too) is bad
    luck's to break. Then the evening's check of the end."""
    runoff = list(state.data.get("runoff") or [])
    tally = _tally(actions)
    state.data["runoff"] = []
    if not runoff:
        return
    (burned,), tie = most_voted(state, tally, runoff, 1)
    state.player(burned).alive = False
    events.append(public("pyre", burned=burned, runoff=runoff, tally=tally, votes=_votes(actions),
                         tie_broken=tie))
    events.append(public("death", player=burned, cause="pyre"))
    check_end(state, events)
