"""Random legal play of Lupus LIVE! 12 games, for tests only. Its users:
tests/engine/test_lupus_live_12_forms.py, tests/engine/test_lupus_live_12_corruption.py
and tests/engine/test_lupus_live_12_replay.py (whole games by ``random_game`` and
``play_phase``), tests/engine/test_rooms_property.py (the same, for who is in which
room at every moment), and tests/engine/wording_corpus.py (``ALL_ROLES`` and
``ritual_actions``, for the corpus the engine's wording test reads).

``form_actions``: each player fills the first field of some of the forms ``forms()``
offers (all but the shout, the notes and the ritual) with a random choice among those
offered (a fixed question where a form asks for text). ``ritual_actions``: rituals
come from coordinated groups of ghosts, a Satanista sometimes among them, drawn from
the ritual table so that rituals actually happen. ``play_phase`` puts every action
through ``validate()`` (one refused is an AssertionError), and each player's yes/no
question is answered at random, as a Master would. Pure: all randomness comes from
the generators passed in.
"""
from __future__ import annotations

import random
from typing import Any

from ..core import Action, GameState, Rejected, Resolution, phase_rng, setup_rng
from .rituals import RITUALS, target_choices
from .roles import ROLES
from .ruleset import RULESET

ALL_ROLES = list(ROLES)


def random_game(rng: random.Random, size: int, roles: list[str] | None = None) -> GameState:
    roles = list(roles or [])
    if not roles:
        roles = ["Lupo Mannaro", "Lupo Mannaro", "Contadino"]
        roles += [rng.choice(ALL_ROLES) for _ in range(size - len(roles))]
    rng.shuffle(roles)
    seating = [(f"P{i:02d}", r) for i, r in enumerate(roles)]
    state, _ = RULESET.setup(seating, setup_rng(str(rng.random())), {})
    return state


def form_actions(state: GameState, rng: random.Random, rate: float = 0.8) -> list[Action]:
    """Each player fills the first field of each offered form (but the shout, notes and
    ritual ones) with a random choice among those offered, a fixed question for a text,
    or leaves it (``rate``: how often one is filled)."""
    actions = []
    for p in state.players:
        for form in RULESET.forms(state, p.name):
            if form.kind in ("shout", "notes", "ritual") or rng.random() > rate:
                continue
            field = form.fields[0]
            if field.type in ("player", "choice"):
                if not field.choices:
                    continue
                args = {field.name: rng.choice(field.choices)}
            elif field.type == "text":
                args = {field.name: "È Anna un lupo?"}
            else:
                continue
            actions.append(Action(p.name, form.kind, args))
    return actions


def ritual_actions(state: GameState, rng: random.Random, groups: int = 3) -> list[Action]:
    """Coordinated groups of ghosts (and a Satanista, sometimes) performing rituals."""
    if state.phase.kind != "night":
        return []
    free = [p.name for p in state.dead()]
    rng.shuffle(free)
    satanisti = [p.name for p in state.alive() if p.role == "Satanista"]
    actions = []
    for _ in range(groups):
        ritual = rng.choice(list(RITUALS.values()))
        n = rng.randint(1, 3) if ritual.parametric else None
        size = ritual.participants(n)
        sat = satanisti.pop() if satanisti and size >= 3 and rng.random() < 0.5 else None
        ghosts_needed = size - 2 if sat else size
        if ghosts_needed > len(free) or ghosts_needed < 1:
            continue
        members = [free.pop() for _ in range(ghosts_needed)]
        targets = target_choices(state, ritual)
        target = rng.choice(targets) if targets else None
        everyone = members + ([sat] if sat else [])
        for m in everyone:
            others = [x for x in everyone if x != m]
            args: dict[str, Any] = {"ritual": ritual.name, "with": others, "target": target}
            if n is not None:
                args["n"] = n
            actions.append(Action(m, "ritual", args))
    return actions


def play_phase(state: GameState, rng: random.Random, seed: int,
               groups: int = 3) -> tuple[Resolution, list[Action]]:
    submitted = form_actions(state, rng) + ritual_actions(state, rng, groups)
    accepted = []
    for a in submitted:
        try:
            accepted.append(RULESET.validate(state, a))
        except Rejected as exc:
            raise AssertionError(f"a choice the forms offered was refused: {a} -> {exc}") from exc
    answers = {p.name: rng.choice(["yes", "no"]) for p in state.players}
    res = RULESET.resolve(state, accepted, phase_rng(seed, state.phase), {"answers": answers})
    return res, accepted
