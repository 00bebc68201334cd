"""The day: the mayor's election, then the pyre (§3.3, §3.10, FAQ 7-9, 33-39)."""
from __future__ import annotations

import random

from ..core import Action, Event, GameState, master, public
from ..lupus_common.actions import ELECT, VOTE
from .deaths import after_deaths, awaken_fantasmi, check_winner, kill, leaders_alive, living
from .votes import quorum, run_pipeline, tally


def elect_mayor(state: GameState, actions: list[Action], events: list[Event]) -> None:
    """More than 50% of the living elect a new mayor, before the pyre (§3.10, FAQ 33)."""
    ballots = {a.player: a.args["elect"] for a in actions if a.kind == ELECT}
    if not ballots:
        return
    counts: dict[str, int] = {}
    for target in ballots.values():
        counts[target] = counts.get(target, 0) + 1
    n_living = len(living(state))
    winners = [n for n, c in counts.items() if 2 * c > n_living]
    events.append(public("election", ballots=ballots, counts=counts, elected=winners[0] if winners else None))
    if winners and winners[0] != state.mayor:
        state.mayor = winners[0]
        # FAQ 8: the new mayor has had no time to designate a successor.
        state.data["vice"] = None
        events.append(public("mayor", player=winners[0], how="elected"))


def pyre(state: GameState, actions: list[Action], rng: random.Random, events: list[Event]) -> None:
    fx = state.data.get("day_effects") or {}
    voters = [p.name for p in living(state)]
    alive = set(voters)
    submitted = {a.player: a.args["vote"] for a in actions if a.kind == VOTE}
    pipe = run_pipeline(
        voters, submitted,
        amnesia=set(fx.get("amnesia", [])),
        ipnosi={x: y for x, y in (fx.get("ipnosi") or {}).items() if x in alive and y in alive},
        control=state.data.get("hypnosis", {}),
        alive=alive,
        scrutatori=[(s, x) for s, x in fx.get("scrutatori", []) if x in alive],
        rng=rng,
    )
    if pipe.failed_hypnotists:
        events.append(master("contradiction", failed=pipe.failed_hypnotists, where="votes"))
    votes = {v: t for v, t in pipe.votes.items() if t is not None}
    totals = tally(pipe.votes)
    valid = quorum(pipe.votes, len(voters))
    chosen = None
    tie = False
    if valid and totals:
        top = max(totals.values())
        leaders = [n for n in voters if totals.get(n) == top]
        tie = len(leaders) > 1
        if not tie:
            chosen = leaders[0]
        else:
            mayor_vote = pipe.votes.get(state.mayor) if state.mayor else None
            chosen = mayor_vote if mayor_vote in leaders else leaders[rng.randrange(len(leaders))]
    spared = chosen is not None and chosen in fx.get("avvocato", [])
    burned = None if spared else chosen
    # FAQ 9: a player saved by the Avvocato after a tie is not named.
    events.append(public("pyre", burned=burned, tally=totals, votes=votes, quorum=valid,
                         voters=len(votes), living=len(voters), spared=spared,
                         saved=chosen if spared and not tie else None))
    if spared:
        events.append(master("avvocato_saved", player=chosen))
    if burned is not None:
        had = leaders_alive(state)
        kill(state, burned, "pyre", events)
        awaken_fantasmi(state, [burned], state.phase.number + 1, rng, events)
        after_deaths(state, had, rng, events)


def resolve_day(state: GameState, actions: list[Action], rng: random.Random,
                events: list[Event]) -> None:
    elect_mayor(state, actions, events)
    pyre(state, actions, rng, events)
    if state.winner is None:
        # "subito dopo la votazione del tramonto" even when nobody burned.
        check_winner(state, events)
    state.data["day_effects"] = {}

