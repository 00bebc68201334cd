"""Whole random games of Lupus Noctis: secrecy, the end, forms against validate."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.core import MASTER, PUBLIC, Action, Rejected, public, setup_rng
from engine.lupus_common.results import pyre_of
from engine.interface import NARRATOR, Viewer
from engine.lupus_noctis.endgame import ended

from lupus_noctis_play import R, play, seating_for, setup_events

SEEDS = range(60)


def test_the_unlucky_player_is_drawn_uniformly():
    seating = [(f"P{i}", "Contadino") for i in range(6)] + [("W", "Licantropo")]
    draws = Counter(R.setup(seating, setup_rng(seed), {})[0].data["unlucky"] for seed in range(1400))
    assert set(draws) == {name for name, _ in seating}
    # 200 expected per seat; a fair draw stays well within +-60 (over 4 sigma).
    assert all(140 <= count <= 260 for count in draws.values()), draws


@pytest.mark.parametrize("seed", SEEDS)
def test_the_unlucky_player_is_never_told(seed):
    """Neither a public event nor any private one names the unlucky player as such: no
    event carries the key, and public events name them no more than the game's own
    events about them would."""
    events = setup_events(seed, 9)
    checked = 0
    for state, _, res in play(seed):
        events += res.events
        for e in res.events:
            assert "unlucky" not in json.dumps(e.data)
            seen = R.visible(e, Viewer(player=state.players[0].name))
            if seen is not None and seen.visibility == PUBLIC:
                assert "unlucky" not in seen.data and "tie_broken_by" not in seen.data
            checked += 1
    assert checked > 0
    assert all(e.visibility != PUBLIC or "unlucky" not in e.data for e in events)


def test_deaths_at_dawn_carry_no_cause_for_the_table():
    deaths = secrets = 0
    for seed in SEEDS:
        for state, _, res in play(seed):
            if state.phase.kind != "night":
                continue
            for e in res.events:
                if e.kind == "death":
                    assert e.visibility == PUBLIC and set(e.data) == {"player"}
                    deaths += 1
                if e.kind in ("night_kill", "raised", "night_kill_failed", "pack_split"):
                    assert e.visibility == MASTER
                    assert R.visible(e, Viewer(player=e.data.get("player"))) is None
                    assert R.visible(e, Viewer(master=True)) is e
                    secrets += 1
    assert deaths > 20 and secrets >= deaths


def test_a_cause_given_by_mistake_is_still_hidden_from_the_table():
    leaked = public("death", player="Anna", cause="licantropi")
    assert R.visible(leaked, Viewer(player="Bruno")).data == {"player": "Anna"}
    assert R.visible(leaked, Viewer(master=True)).data["cause"] == "licantropi"
    pyre = public("death", player="Anna", cause="pyre")
    assert R.visible(pyre, Viewer(player="Bruno")).data["cause"] == "pyre"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_game_ends_at_dawn_or_evening_exactly_when_the_rule_says(seed):
    moments = 0
    last = None
    for state, _, res in play(seed, moments=200):
        moments += 1
        over = res.state.over
        if state.phase.kind == "morning":
            assert not over
        else:
            assert over == ended(res.state)
        assert sum(e.kind == "game_over" for e in res.events) == (1 if over else 0)
        last = res
    assert last is not None and last.state.over


@pytest.mark.parametrize("seed", SEEDS)
def test_every_choice_offered_is_accepted_and_others_refused(seed):
    checked = 0
    for state, _, _ in play(seed, moments=12):
        names = state.names()
        for p in state.players:
            offered = {f.kind: f.fields[0].choices for f in R.forms(state, p.name)}
            for kind in ("vote", "power"):
                key = "vote" if kind == "vote" else "target"
                for target in names:
                    try:
                        R.validate(state, Action(p.name, kind, {key: target}))
                        accepted = True
                    except Rejected as exc:
                        accepted = False
                        assert exc.code in R.REJECTIONS
                    assert accepted == (target in offered.get(kind, [])), (state.phase, p, kind, target)
                    checked += 1
    assert checked > 0


@pytest.mark.parametrize("seed", range(20))
def test_every_event_is_worded_in_both_languages(seed):
    kinds = set()
    for _state, _, res in play(seed):
        for e in res.events:
            viewer = Viewer(master=True)
            for lang in ("it", "en"):
                text = R.describe(e, lang, viewer)
                assert text and "{" not in text, (e.kind, lang, text)
            kinds.add(e.kind)
    assert {"runoff", "pyre", "death", "dawn"} <= kinds


def test_winners_include_the_dead_of_the_winning_side():
    seating = [("Anna", "Licantropo"), ("Bruno", "Apprendista Necromante"), ("Carla", "Contadino"),
               ("Dario", "Procione Mannaro"), ("Elio", "Contadino"), ("Fede", "Contadino")]
    state, _ = R.setup(seating, setup_rng(0), {"unlucky": "Carla"})
    state.player("Bruno").alive = False
    state.player("Carla").alive = False
    state.player("Dario").alive = False
    state.phase = state.phase.__class__("afternoon", 1)
    state.data["runoff"] = ["Anna", "Elio"]
    res = R.resolve(state, [Action("Fede", "vote", {"vote": "Anna"})], setup_rng(0))
    (over,) = [e for e in res.events if e.kind == "game_over"]
    assert res.state.winner == "Villaggio"
    assert sorted(over.data["winners"]) == ["Carla", "Elio", "Fede"]  # Carla dead; Dario's win needs life

    # Anna's vote from inside the run-off is refused at resolution too; 0 to 0 is a tie
    # that Carla's seat settles: Anna and Elio both sit two seats away, Elio clockwise.
    res = R.resolve(state, [Action("Anna", "vote", {"vote": "Elio"})], setup_rng(0))
    assert [e.data["code"] for e in res.events if e.kind == "rejected_at_resolution"] == ["in_runoff"]
    assert pyre_of(res).data["burned"] == "Elio"
    (over,) = [e for e in res.events if e.kind == "game_over"]
    assert res.state.winner == "Licantropi"
    assert sorted(over.data["winners"]) == ["Anna", "Bruno"]  # the dead Apprendista too


def test_timing_is_the_narrators():
    state, _ = R.setup(seating_for(8, random.Random(1)), setup_rng(1), {})
    assert R.timing(state).kind == NARRATOR
