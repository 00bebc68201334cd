"""The room of Complots (issue 30): one table, every player in it, the eliminated too
(docs/rulings-complots.md, R17); no whispers unless the Masters open them."""
from __future__ import annotations

import random

from engine.core import phase_rng, setup_rng
from engine.registry import get_ruleset
from engine.rooms import (
    DEAD_READ_ONLY, DEAD_TO_LIVING, NIGHT_SILENCE, TABLE, WHISPERS, Access, Rooms,
)

from tests.support.complots_bots import random_answers

R = get_ruleset("complots")
ROOMS = R.ability(Rooms)
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
W = Access.WRITE


def play_until(done, seed=0, limit=2000):
    """A random game (answers from the forms, as the bots give them) until ``done(state)``."""
    rng = random.Random(seed)
    state, _ = R.setup([(n, "") for n in NAMES], setup_rng(seed), {"variant": "ambasciatore"})
    for _ in range(limit):
        if done(state):
            return state
        actions = random_answers(R, state, rng)
        state = R.resolve(state, actions, phase_rng(seed, state.phase)).state
    raise AssertionError("the game never got there")


def eliminated(state):
    return [p.name for p in state.players if not p.alive]


def test_one_table_with_everyone():
    state, _ = R.setup([(n, "") for n in NAMES], setup_rng(0), {})
    (table,) = ROOMS.rooms_in(state)
    assert table.key == "table" and table.kind == TABLE and table.plenary and table.signed
    assert ROOMS.members(state, "table", {}) == dict.fromkeys(NAMES, W)


def test_the_eliminated_stay_at_the_table_unless_the_masters_say():
    state = play_until(lambda s: eliminated(s) and not s.over)
    out = eliminated(state)[0]
    assert ROOMS.members(state, "table", {}) == dict.fromkeys(NAMES, W)
    quiet = ROOMS.members(state, "table", {DEAD_READ_ONLY: True})
    assert quiet == {n: Access.READ if n == out else W for n in NAMES}
    refusal = ROOMS.write_refusal(state, "table", out, {DEAD_READ_ONLY: True})
    assert refusal.code == "room_dead_read_only"
    line = R.describe_rejection(refusal.code, dict(refusal.params), "it")
    assert "fuori dal gioco" in line and "morti" not in line


def test_no_night_at_the_table():
    state = play_until(lambda s: s.phase.number >= 3)
    assert ROOMS.members(state, "table", {NIGHT_SILENCE: True}) == dict.fromkeys(NAMES, W)
    assert NIGHT_SILENCE not in ROOMS.chosen({NIGHT_SILENCE: True})


def test_whispers_are_off_unless_the_masters_open_them():
    state = play_until(lambda s: eliminated(s) and not s.over)
    out = eliminated(state)[0]
    playing = [n for n in NAMES if n != out]
    assert ROOMS.may_whisper(state, playing[0], [playing[1]], {}).code == "whispers_off"
    assert ROOMS.may_whisper(state, playing[0], [playing[1]], {WHISPERS: True}) is None
    assert ROOMS.may_whisper(state, out, [playing[0]], {WHISPERS: True}) is None
    refused = ROOMS.may_whisper(state, out, [playing[0]], {WHISPERS: True, DEAD_TO_LIVING: False})
    assert refused.code == "whisper_dead_to_living"


def test_after_the_end_everyone_writes():
    state = play_until(lambda s: s.over)
    assert ROOMS.members(state, "table", {DEAD_READ_ONLY: True}) == dict.fromkeys(NAMES, W)
    assert ROOMS.posts_from([]) == []
