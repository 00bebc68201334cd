"""The rooms of Lupus in tempo reale, 7th edition (issue 30): the piazza (§2.3) and a room
for each group of §3.8 that the deal holds, through a game where a Fantasma wakes as a
Spettro, a Necrofilo takes a Lupo's role (FAQ 21), and the Lupi lose and are exiled (§3.1).

Expected members are written from the rulebook, never read back from the rooms' code."""
from __future__ import annotations

import random

from engine.core import Action, phase_rng
from engine.registry import get_ruleset
from engine.rooms import DEAD_READ_ONLY, NIGHT_SILENCE, Access, Rooms

R = get_ruleset("tempo-reale-7")
ROOMS = R.ability(Rooms)
R_, W = Access.READ, Access.WRITE

SEATING = [("Anna", "Lupo"), ("Bruno", "Lupo"), ("Nina", "Negromante"), ("Fabio", "Fantasma"),
           ("Nico", "Necrofilo"), ("Sam", "Sequestratore"), ("Carla", "Massone"),
           ("Cora", "Massone"), ("Elio", "Contadino"), ("Vera", "Veggente"), ("Ivo", "Ipnotista"),
           ("Mina", "Medium"), ("Diana", "Diavolo"), ("Nadia", "Negromante"), ("Furio", "Fantasma")]
NAMES = [n for n, _ in SEATING]


def start():
    state, _ = R.setup(SEATING, random.Random(0), {"mayor": "Elio"})
    return state


def resolve(state, actions=()):
    res = R.resolve(state, [R.validate(state, a) for a in actions], phase_rng(1, state.phase))
    return res.state


def burn(state, who):
    """A day on which every living player votes ``who`` to the pyre."""
    assert state.phase.kind == "day"
    return resolve(state, [Action(p.name, "vote", {"vote": who}) for p in state.players
                           if p.alive and not p.data.get("exiled")])


def rooms(state, settings=None):
    return {s.key: ROOMS.members(state, s.key, settings or {}) for s in ROOMS.rooms_in(state)}


def everyone(level=W, **levels):
    return {n: levels.get(n, level) for n in NAMES}


def test_at_the_start_the_groups_of_3_8_that_the_deal_holds():
    """§3.8: Massoni; Lupi; Assassini, Avvocati, Necrofili, Rinnegati, Sequestratori;
    Diavoli, Fattucchiere, Stregoni; Negromanti; Ipnotisti, Medium, Scrutatori. A group
    dealt to one player (the Diavolo alone) knows nobody: no room."""
    assert rooms(start()) == {
        "piazza": everyone(),
        "massoni": {"Carla": W, "Cora": W},
        "lupi": {"Anna": W, "Bruno": W},
        "complici": {"Nico": W, "Sam": W},
        "negromanti": {"Nina": W, "Nadia": W},
        "setta": {"Ivo": W, "Mina": W},
    }


def test_a_game_through_its_groups():
    state = resolve(start())  # night 1
    # Days 1 and 2: the two Fantasmi burn and wake as Spettri; each is told the Negromanti
    # and the Negromanti are told of each (§3.7 Fantasma), but the two Fantasmi are never
    # told of each other: the Negromanti's room stays the two dealt, and they whisper.
    state = burn(resolve(burn(state, "Fabio")), "Furio")
    assert state.player("Fabio").data.get("spettro") and state.player("Furio").data.get("spettro")
    assert ROOMS.members(state, "negromanti", {}) == {"Nina": W, "Nadia": W}
    assert ROOMS.may_whisper(state, "Fabio", ["Nina", "Nadia"], {}) is None
    # The dead stay in their groups and in the piazza (§3.5, §2.3).
    state = burn(resolve(state), "Anna")
    assert ROOMS.access(state, "lupi", "Anna", {}) == W
    assert ROOMS.access(state, "piazza", "Anna", {}) == W
    # Night 3: the Necrofilo takes the dead Lupo's role, not what the Lupi know (FAQ 21).
    state = resolve(state, [Action("Nico", "power", {"target": "Anna"})])
    assert state.player("Nico").role == "Lupo"
    assert ROOMS.members(state, "lupi", {}) == {"Anna": W, "Bruno": W}
    assert ROOMS.members(state, "complici", {}) == {"Nico": W, "Sam": W}
    # The last two Lupi burn: the Lupi's faction loses and is exiled (§3.1). The exiled
    # only read the piazza and their groups; nobody else's access changes.
    state = burn(resolve(burn(state, "Bruno")), "Nico")
    exiled = {"Anna", "Bruno", "Nico", "Sam", "Diana"}
    assert {p.name for p in state.players if p.data.get("exiled")} == exiled
    assert not state.over
    assert rooms(state) == {
        "piazza": everyone(**dict.fromkeys(exiled, R_)),
        "massoni": {"Carla": W, "Cora": W},
        "lupi": {"Anna": R_, "Bruno": R_},
        "complici": {"Nico": R_, "Sam": R_},
        "negromanti": {"Nina": W, "Nadia": W},
        "setta": {"Ivo": W, "Mina": W},
    }
    assert ROOMS.write_refusal(state, "piazza", "Sam", {}).code == "room_read_only"
    assert ROOMS.may_whisper(state, "Elio", ["Sam"], {}).code == "whisper_out"
    assert ROOMS.may_whisper(state, "Sam", ["Elio"], {}).code == "whisper_out"
    # The dead read only where the Masters say so; the exiled are not "the dead".
    quiet = rooms(state, {DEAD_READ_ONLY: True})
    assert quiet["piazza"]["Fabio"] == R_ and quiet["piazza"]["Sam"] == R_
    assert quiet["piazza"]["Elio"] == W


def test_night_silence():
    state = start()
    assert set(ROOMS.members(state, "piazza", {NIGHT_SILENCE: True}).values()) == {R_}
    assert ROOMS.members(state, "lupi", {NIGHT_SILENCE: True}) == {"Anna": W, "Bruno": W}
    assert set(ROOMS.members(resolve(state), "piazza", {NIGHT_SILENCE: True}).values()) == {W}


def test_after_the_end_the_exiled_write_again():
    state = start()
    for p in state.players:
        if p.faction == "Lupi":
            p.data["exiled"], p.alive = True, False
    state.winner = "Popolani"
    assert ROOMS.members(state, "piazza", {NIGHT_SILENCE: True, DEAD_READ_ONLY: True}) == everyone()
    assert ROOMS.members(state, "lupi", {}) == {"Anna": W, "Bruno": W}


def test_a_massone_woken_as_a_spettro_stays_with_the_massoni():
    """§3.8 is what they know from the start; a Spettro plays for the Negromanti (§3.7),
    "il villaggio non viene informato del suo risveglio": the Massoni keep their brother,
    and the Negromanti who woke him are told only their own names, not a room."""
    state = burn(resolve(start()), "Carla")
    state = resolve(state, [Action("Nina", "power", {"target": "Carla", "power": "Amnesia"})])
    assert state.player("Carla").data.get("spettro") == "Amnesia"
    assert ROOMS.members(state, "massoni", {}) == {"Carla": W, "Cora": W}
    assert ROOMS.access(state, "negromanti", "Carla", {}) == Access.NONE


def test_a_game_set_up_before_the_deal_was_kept_has_the_piazza_only():
    """No group rather than a wrong one: without the role dealt, a Necrofilo now Lupo
    could not be told from a Lupo dealt."""
    state = start()
    for p in state.players:
        del p.data["dealt"]
    assert [s.key for s in ROOMS.rooms_in(state)] == ["piazza"]
    assert ROOMS.access(state, "lupi", "Anna", {}) == Access.NONE


def test_specs_cite_the_rulebook():
    for spec in ROOMS.specs():
        assert spec.name.it and spec.name.en and spec.about.it and spec.about.en
        assert "tempo reale" in spec.about.it and "§" in spec.about.en
