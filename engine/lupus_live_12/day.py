"""The day: the pyre vote (§1.7) and the order of the day's effects (§1.8)."""
from __future__ import annotations

import random
from fractions import Fraction

from ..core import Action, Event, GameState, Player, public
from ..lupus_common.actions import VOTE
from .death import kill, revive

MAYOR_BONUS = Fraction(1, 4)


def as_number(value: Fraction) -> int | float:
    """A vote total for display and comparison: an int when whole."""
    return int(value) if value.denominator == 1 else float(value)


def day_mods(state: GameState, day: int) -> dict[str, dict[str, str]]:
    """The rituals of the night before this day (Voto delegato/diretto and their Meno)."""
    return state.data.get("day_mods", {}).get(str(day), {"weight": {}, "direct": {}})


def vote_weight(state: GameState, p: Player, day: int) -> Fraction:
    # Sabbino: default 0; the mayor adds 1/4; the rituals add or take n/2.
    # The weight may fall below zero: nothing in §1.7 or §4.5 bounds it
    # (ruling in docs/rulings.md).
    weight = Fraction(0) if p.role == "Sabbino" else Fraction(1)
    if state.mayor == p.name:
        weight += MAYOR_BONUS
    weight += Fraction(day_mods(state, day)["weight"].get(p.name, "0"))
    return weight


def tally(state: GameState, votes: dict[str, str], day: int) -> dict[str, Fraction]:
    living = {p.name for p in state.alive()}
    out: dict[str, Fraction] = {}
    for voter, target in votes.items():
        out[target] = out.get(target, Fraction(0)) + vote_weight(state, state.player(voter), day)
    for name, extra in day_mods(state, day)["direct"].items():
        if name in living:
            out[name] = out.get(name, Fraction(0)) + Fraction(extra)
    return out


def resolve_day(state: GameState, actions: list[Action], rng: random.Random,
                events: list[Event]) -> None:
    day = state.phase.number
    living = [p.name for p in state.alive()]
    votes = {a.player: a.args["vote"] for a in actions if a.kind == VOTE}
    totals = tally(state, votes, day)
    # §1.7: valid if at least half of the living voted.
    quorum = bool(living) and 2 * len(votes) >= len(living)
    designated, leaders = None, []
    if quorum:
        # The maximum is taken over every living player, not only those voted.
        top = max(totals.get(n, Fraction(0)) for n in living)
        leaders = [n for n in living if totals.get(n, Fraction(0)) == top]
        designated = leaders[0] if len(leaders) == 1 else rng.choice(leaders)
    spared_by: list[str] = []
    if designated is not None:
        p = state.player(designated)
        if p.role == "Mannella" and not p.data.get("mannella_used"):
            # Used on the first pyre even if something else protects her too.
            p.data["mannella_used"] = True
            spared_by.append("mannella")
        if designated in state.data.get("avvocato", {}).get(str(day), []):
            spared_by.append("avvocato")
    # §1.7 "uno a caso tra di questi": the lot, said in the bulletin (issue 31).
    tied = sorted(leaders) if quorum and len(leaders) > 1 else []
    events.append(public("pyre", burned=designated, quorum=quorum, votes=votes,
                         tally={n: as_number(v) for n, v in totals.items() if v != 0},
                         voters=len(votes), living=len(living), spared_by=spared_by,
                         mayor=state.mayor, **({"tied": tied} if tied else {})))
    alive_before = set(living)
    # §1.8.1: the pyre.
    if designated is not None and not spared_by:
        kill(state, designated, "pyre", rng, events)
    # §1.8.2: deaths linked to the pyre: none in this edition's roles.
    # §1.8.3: resurrections linked to the pyre: a Messia who dies by the end of the day.
    for entry in list(state.data.get("messia", [])):
        if (entry["until_day"] == day and entry["messia"] in alive_before
                and not state.player(entry["messia"]).alive):
            revive(state, entry["target"], "messia", events)
            state.data["messia"].remove(entry)
    # What belonged to this day is spent.
    state.data.get("day_mods", {}).pop(str(day), None)
    state.data.get("avvocato", {}).pop(str(day), None)
    state.data["messia"] = [e for e in state.data.get("messia", []) if e["until_day"] > day]
