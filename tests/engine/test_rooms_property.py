"""What holds of the rooms at every moment of random games of every ruleset with rooms,
under the Masters' settings, one by one and all together (issue 30):

- nobody outside a room's members ever gets READ, and the settings only ever take away
  (never more than the rules give, never a room the rules do not);
- everyone in a group room has been told of everyone else in it by the game's own events
  (Lupus LIVE! 12's ``pack``; tempo-reale-7's ``knows``, ``necromancers``, ``fantasma``):
  a room never tells a player who someone is;
- the piazza and the table hold every player, the ghosts' room exactly the dead.
"""
from __future__ import annotations

import itertools
import random

import pytest

from engine.core import Action, Rejected, phase_rng, setup_rng
from engine.lupus_live_12.autoplay import play_phase, random_game
from engine.registry import get_ruleset
from engine.rooms import GHOSTS, GROUP, Access, Rooms

from tests.support.complots_bots import random_answers

LIVE = get_ruleset("lupus-live-12")
TR7 = get_ruleset("tempo-reale-7")
COMPLOTS = get_ruleset("complots")


def test_which_games_have_rooms():
    """Lupus Noctis is played at a table, its players without accounts
    (docs/rulings-lupus-noctis.md, N14); the others talk in rooms."""
    assert get_ruleset("lupus-noctis").ability(Rooms) is None
    for rules in (LIVE, TR7, COMPLOTS):
        assert isinstance(rules.ability(Rooms), Rooms)


def settings_to_try(rooms: Rooms):
    """The defaults, none, all, and each setting alone: the settings act one by one
    (engine/rooms.py), so these meet every way one of them can take access away."""
    keys = [s.key for s in rooms.settings()]
    yield {}
    yield dict.fromkeys(keys, False)
    yield dict.fromkeys(keys, True)
    for key in keys:
        yield {**dict.fromkeys(keys, False), key: True}


def told(events) -> set[tuple[str, str]]:
    """(a, b): the events told player a who b is, as one of their own."""
    out = set()
    for e in events:
        if e.kind == "pack":
            out |= {(e.to[0], m) for m in e.data["members"]}
        elif e.kind == "knows":
            out |= {(e.to[0], m) for m in e.data["players"]}
        elif e.kind == "necromancers":
            out |= {(e.to[0], m) for m in e.data["players"]}
        elif e.kind == "fantasma":
            out |= {(n, e.data["player"]) for n in e.to}
    return out


def check(rules, state, events) -> None:
    rooms = rules.ability(Rooms)
    names = [p.name for p in state.players]
    known = told(events)
    present = rooms.rooms_in(state)
    for spec in rooms.specs():
        by_rules = rooms.rules_members(state, spec.key)
        if spec not in present:
            assert all(rooms.access(state, spec.key, n, {}) == Access.NONE for n in names)
            continue
        if spec.plenary:
            assert set(by_rules) == set(names)
        if spec.kind == GHOSTS:
            assert set(by_rules) == {p.name for p in state.players if not p.alive}
        if spec.kind == GROUP:
            for a, b in itertools.permutations(by_rules, 2):
                assert (a, b) in known, (spec.key, a, b)
        for settings in settings_to_try(rooms):
            members = rooms.members(state, spec.key, settings)
            for name in names:
                level = rooms.access(state, spec.key, name, settings)
                assert level == members.get(name, Access.NONE)
                assert level <= by_rules.get(name, Access.NONE)
                refusal = rooms.write_refusal(state, spec.key, name, settings)
                assert (refusal is None) == (level == Access.WRITE)
            assert Access.NONE not in members.values()
            assert rooms.access(state, spec.key, "Nobody-in-this-game", settings) == Access.NONE


@pytest.mark.parametrize("seed", range(12))
def test_lupus_live_12_games(seed):
    rng = random.Random(seed)
    state = random_game(rng, rng.randint(8, 16))
    seating = [(p.name, p.role) for p in state.players]
    state, events = LIVE.setup(seating, setup_rng(seed), {})
    events = list(events)
    for _ in range(14):
        check(LIVE, state, events)
        if state.over:
            break
        res, _ = play_phase(state, rng, seed)
        state = res.state
        events += res.events
    check(LIVE, state, events)


def tr7_actions(state, rng):
    actions = []
    for p in state.players:
        for form in TR7.forms(state, p.name):
            if rng.random() < 0.3 or not all(f.choices for f in form.fields):
                continue
            try:
                actions.append(TR7.validate(state, Action(
                    p.name, form.kind, {f.name: rng.choice(f.choices) for f in form.fields})))
            except Rejected:
                pass
    return actions


@pytest.mark.parametrize("seed", range(12))
def test_tempo_reale_7_games(seed):
    from engine.tempo_reale_7.roles import FACTIONS, ROLES
    rng = random.Random(seed)
    by_faction = {f: [r.name for r in ROLES.values() if r.faction == f] for f in FACTIONS}
    roles = ["Lupo", "Negromante", "Fantasma", "Contadino", "Massone", "Massone"]
    roles += [rng.choice(by_faction[rng.choice(FACTIONS)]) for _ in range(rng.randint(4, 12))]
    seating = [(f"P{i:02d}", role) for i, role in enumerate(roles)]
    rng.shuffle(seating)
    state, events = TR7.setup(seating, setup_rng(seed), {})
    events = list(events)
    for _ in range(14):
        check(TR7, state, events)
        if state.over:
            break
        res = TR7.resolve(state, tr7_actions(state, rng), phase_rng(seed, state.phase))
        state, events = res.state, events + res.events
    check(TR7, state, events)


@pytest.mark.parametrize("seed", range(4))
def test_complots_games(seed):
    rng = random.Random(seed)
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena"][: 2 + seed]
    state, events = COMPLOTS.setup([(n, "") for n in names], setup_rng(seed), {})
    for _ in range(600):
        check(COMPLOTS, state, events)
        if state.over:
            break
        actions = random_answers(COMPLOTS, state, rng)
        state = COMPLOTS.resolve(state, actions, phase_rng(seed, state.phase)).state
    assert state.over
    check(COMPLOTS, state, events)
