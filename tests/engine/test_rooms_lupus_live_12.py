"""The rooms of Lupus LIVE! 12 (issue 30): which rooms a game has and who is in each, at
the start, at night and by day, after deaths, a corruption and a return to life, and
after the end; the Masters' settings applied; the night shout as an anonymous post.

Expected members are written from the rulebook (Lupus LIVE!, 12th edition: main document
§1.10, §1.11, §1.11.1, §3.4; characters §1, §2), never read back from the rooms' code."""
from __future__ import annotations

import random

from engine import remedies
from engine.core import Action, phase_rng
from engine.registry import get_ruleset
from engine.rooms import (
    DEAD_READ_ONLY, DEAD_TO_LIVING, NIGHT_SILENCE, WHISPERS, Access, Rooms,
)

R = get_ruleset("lupus-live-12")
ROOMS = R.ability(Rooms)
R_, W = Access.READ, Access.WRITE

# Characters §2: the Lupi's faction is the Lupo Mannaro, the Avvocato, the Sabbino (white
# aura, but a Lupo all the same)...; §1: the Villaggio does not know each other.
SEATING = [("Anna", "Lupo Mannaro"), ("Bruno", "Sabbino"), ("Mara", "Avvocato"),
           ("Carla", "Contadino"), ("Dario", "Veggente"), ("Elena", "Contadino"),
           ("Fede", "Contadino"), ("Gino", "Contadino"), ("Ivo", "Contadino"), ("Luca", "Mago"),
           ("Nora", "Guardia del corpo")]
NAMES = [n for n, _ in SEATING]
DEN = {"Anna", "Bruno", "Mara"}


def start(**options):
    state, _ = R.setup(SEATING, random.Random(0), {"mayor": "Carla", **options})
    return state


def resolve(state, actions=(), seed=1):
    res = R.resolve(state, [R.validate(state, a) for a in actions], phase_rng(seed, state.phase))
    return res.state, res.events


def keys(state):
    return [s.key for s in ROOMS.rooms_in(state)]


def test_at_the_start_the_piazza_the_den_and_an_empty_ghosts_room():
    state = start()
    assert keys(state) == ["piazza", "lupi", "ghosts"]
    assert ROOMS.members(state, "piazza", {}) == dict.fromkeys(NAMES, W)
    assert ROOMS.members(state, "lupi", {}) == dict.fromkeys(DEN, W)
    assert ROOMS.members(state, "ghosts", {}) == {}
    # The Villaggio has no room of its own (characters §1).
    assert ROOMS.access(state, "lupi", "Dario", {}) == Access.NONE
    assert {s.key for s in ROOMS.specs()} == {"piazza", "lupi", "ghosts"}


def test_a_den_of_one_is_no_room():
    state, _ = R.setup([("Anna", "Lupo Mannaro"), ("Carla", "Contadino"), ("Dario", "Veggente")],
                       random.Random(0), {"mayor": "Carla"})
    assert keys(state) == ["piazza", "ghosts"]
    assert ROOMS.members(state, "lupi", {}) == {}
    assert ROOMS.write_refusal(state, "lupi", "Anna", {}).code == "room_unknown"


def test_the_dead_go_to_the_ghosts_room_and_keep_the_piazza_and_the_den():
    """§1.11: the dead play on as ghosts, talking with the other players; §1.10: they agree
    on their rituals together."""
    state = start()
    state, _ = resolve(state)  # night 1
    assert state.phase.kind == "day"
    votes = [Action(n, "vote", {"vote": "Mara"}) for n in NAMES]
    state, events = resolve(state, votes)
    assert any(e.kind == "death" and e.data["player"] == "Mara" for e in events)
    assert ROOMS.members(state, "ghosts", {}) == {"Mara": W}
    assert ROOMS.access(state, "lupi", "Mara", {}) == W
    assert ROOMS.access(state, "piazza", "Mara", {}) == W
    assert ROOMS.access(state, "ghosts", "Anna", {}) == Access.NONE


def test_the_corrupted_never_join_the_den():
    """§1.11.1: "Ai corrotti non viene rivelata l'identità dei personaggi della fazione dei
    Lupi, né a questi viene rivelata l'identità dei corrotti." Luca is corrupted by a
    Maledizione (characters §4.4) and plays for the Lupi: still not in the den."""
    ghosts = ["Elena", "Fede", "Gino", "Ivo", "Mara"]
    state = start(dead=[*ghosts, "Luca"])
    curse = [Action(g, "ritual", {"ritual": "Maledizione", "with": [x for x in ghosts if x != g],
                                  "target": "Luca"}) for g in ghosts]
    state, _ = resolve(state, curse)
    assert state.player("Luca").faction == "Lupi"  # the curse worked
    assert ROOMS.members(state, "lupi", {}) == dict.fromkeys(DEN, W)
    assert ROOMS.access(state, "ghosts", "Luca", {}) == W


def test_who_comes_back_to_life_leaves_the_ghosts_room():
    state = start(dead=["Dario", "Fede"])
    assert set(ROOMS.members(state, "ghosts", {})) == {"Dario", "Fede"}
    state, _ = R.apply_remedy(state, remedies.RESURRECT, {"players": ["Dario"]}, random.Random(0))
    assert ROOMS.members(state, "ghosts", {}) == {"Fede": W}
    assert ROOMS.write_refusal(state, "ghosts", "Dario", {}).code == "room_not_member"


def test_night_silence_closes_the_piazza_at_night_only():
    state = start()
    assert state.phase.kind == "night"
    silent = {NIGHT_SILENCE: True}
    assert set(ROOMS.members(state, "piazza", silent).values()) == {R_}
    assert ROOMS.write_refusal(state, "piazza", "Carla", silent).code == "room_night_silence"
    # The den talks at night (the wolves choose their victim then).
    assert ROOMS.access(state, "lupi", "Anna", silent) == W
    day, _ = resolve(state)
    assert set(ROOMS.members(day, "piazza", silent).values()) == {W}
    assert ROOMS.write_refusal(day, "piazza", "Carla", silent) is None
    # Without the Masters' choice, the rules let the piazza talk at night too (§3.4).
    assert ROOMS.access(state, "piazza", "Carla", {}) == W


def test_the_dead_only_read_but_in_the_ghosts_room():
    state = start(dead=["Anna", "Carla"])
    quiet = {DEAD_READ_ONLY: True}
    assert ROOMS.access(state, "piazza", "Carla", quiet) == R_
    assert ROOMS.access(state, "lupi", "Anna", quiet) == R_
    assert ROOMS.access(state, "ghosts", "Anna", quiet) == W
    assert ROOMS.access(state, "piazza", "Dario", quiet) == W
    assert ROOMS.write_refusal(state, "lupi", "Anna", quiet).code == "room_dead_read_only"
    assert ROOMS.write_refusal(state, "ghosts", "Anna", quiet) is None


def test_after_the_end_every_member_writes_and_nobody_joins():
    state = start(dead=["Carla"])
    state, events = R.apply_remedy(state, remedies.KILL, {"players": ["Anna"]}, random.Random(0))
    assert state.over  # §2: no Lupo Mannaro alive, the Villaggio wins
    closed = {NIGHT_SILENCE: True, DEAD_READ_ONLY: True}
    assert ROOMS.members(state, "piazza", closed) == dict.fromkeys(NAMES, W)
    assert ROOMS.members(state, "lupi", closed) == dict.fromkeys(DEN, W)
    assert ROOMS.members(state, "ghosts", closed) == {"Anna": W, "Carla": W}


def test_whispers_follow_the_masters_settings():
    state = start(dead=["Carla"])
    assert ROOMS.may_whisper(state, "Dario", ["Anna", "Luca"], {}) is None
    assert ROOMS.may_whisper(state, "Carla", ["Dario"], {}) is None  # §1.11: ghosts talk
    assert ROOMS.may_whisper(state, "Dario", ["Anna"], {WHISPERS: False}).code == "whispers_off"
    refused = ROOMS.may_whisper(state, "Carla", ["Dario", "Fede"], {DEAD_TO_LIVING: False})
    assert refused.code == "whisper_dead_to_living" and refused.params["players"] == ["Dario", "Fede"]
    # The living may still write to the dead, and the dead to each other.
    state = start(dead=["Carla", "Fede"])
    assert ROOMS.may_whisper(state, "Dario", ["Carla"], {DEAD_TO_LIVING: False}) is None
    assert ROOMS.may_whisper(state, "Carla", ["Fede"], {DEAD_TO_LIVING: False}) is None
    assert ROOMS.may_whisper(state, "Dario", ["Zorro"], {}).code == "whisper_recipients"
    assert ROOMS.may_whisper(state, "Dario", ["Dario"], {}).code == "whisper_nobody"
    assert ROOMS.may_whisper(state, "Zorro", ["Dario"], {}).code == "whisper_not_in_game"


def test_the_night_shout_becomes_an_anonymous_post_in_the_piazza():
    """§3.4: "le giocatrici possono comunicare anonimamente tramite l'urlo notturno";
    §1.4.2: living and ghosts alike have the shout box."""
    state = start(dead=["Carla"])
    shouts = {"Anna": "Dario è il veggente!", "Carla": "Vendicatemi", "Luca": "Al lupo"}
    state, events = resolve(state, [Action(n, "shout", {"shout": t}) for n, t in shouts.items()])
    posts = ROOMS.posts_from(events)
    assert sorted(p.text for p in posts) == sorted(shouts.values())
    assert {p.room for p in posts} == {"piazza"}
    assert not any(p.signed for p in posts)
    assert ROOMS.spec("piazza").signed  # the piazza's own posts are signed
    assert {p.heading.read("it") for p in posts} == {"Urlo nella notte"}
    # Nothing else of the night becomes a post.
    quiet, events = resolve(start())
    assert ROOMS.posts_from(events) == []


def test_refusals_are_worded_in_both_languages():
    for code in ("room_unknown", "room_not_member", "room_read_only", "room_night_silence",
                 "room_dead_read_only", "whispers_off", "whisper_nobody", "whisper_not_in_game",
                 "whisper_recipients", "whisper_out", "whisper_dead_to_living"):
        params = {"room": "lupi", "player": "Zorro", "players": ["Anna", "Bruno"]}
        for lang in ("it", "en"):
            line = R.describe_rejection(code, params, lang)
            assert line and "{" not in line, (code, lang, line)


def test_specs_are_worded_and_cite_the_rulebook():
    for spec in ROOMS.specs():
        assert spec.name.it and spec.name.en and spec.about.it and spec.about.en
        assert "Lupus LIVE!" in spec.about.it and "§" in spec.about.it
    for setting in ROOMS.settings():
        assert setting.label.it and setting.label.en
        assert setting.told(True).it and setting.told(False).it
