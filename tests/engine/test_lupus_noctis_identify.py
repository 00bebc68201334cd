"""A village dealt on paper: the narrator's first-night taps tell the engine who is who."""
from __future__ import annotations

import pytest

from engine.core import Action, Rejected, SetupError, setup_rng

from engine.interface import IDENTIFY, IdentifyTap

from lupus_noctis_play import TABLE, R

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elio", "Fede", "Gino", "Ivo", "Lea", "Mara"]
TAPS = {"Licantropi": ["Bruno", "Ivo"], "Veggente": ["Anna"], "Medium": "Lea",
        "Apprendista Necromante": ["Mara"], "Amanti Segreti": ["Carla", "Gino"]}


def undealt(composition=None):
    options = {"unlucky": "Elio"}
    if composition is not None:
        options["composition"] = composition
    return R.setup([(n, "") for n in NAMES], setup_rng(0), options)


def test_the_standard_village_waits_for_the_first_night_taps():
    state, events = undealt()
    assert events == [] and not state.data["identified"]
    assert state.data["composition"] == R.default_composition(10)
    calls = TABLE.night_script(state)
    assert [(c.role, c.tap.count) for c in calls] == [
        ("Licantropo", 2), ("Apprendista Necromante", 1), ("Veggente", 1), ("Medium", 1),
        ("Amante Segreto", 2)]
    assert all(c.holders == () and isinstance(c.tap, IdentifyTap) for c in calls)
    assert R.forms(state, "Anna") == []
    with pytest.raises(Rejected):
        R.validate(state, Action("Anna", "vote", {"vote": "Bruno"}))

    waiting = R.resolve(state, [], setup_rng(0))
    assert not waiting.publishable and waiting.state.phase == state.phase
    assert [p.kind for p in waiting.pending] == [IDENTIFY]

    res = R.resolve(state, [], setup_rng(0), {IDENTIFY: TAPS})
    roles = {p.name: p.role for p in res.state.players}
    assert roles == {"Anna": "Veggente", "Bruno": "Licantropo", "Carla": "Amante Segreto",
                     "Dario": "Contadino", "Elio": "Contadino", "Fede": "Contadino",
                     "Gino": "Amante Segreto", "Ivo": "Licantropo", "Lea": "Medium",
                     "Mara": "Apprendista Necromante"}
    assert res.state.player("Mara").aura == "malvagia" and res.state.player("Mara").faction == "Licantropi"
    partners = {e.to[0]: e.data["partners"] for e in res.events if e.kind == "partners"}
    assert partners == {"Bruno": ["Ivo"], "Ivo": ["Bruno"], "Carla": ["Gino"], "Gino": ["Carla"]}
    assert {e.to[0] for e in res.events if e.kind == "role_card"} == set(NAMES)
    assert res.state.phase.kind == "morning" and res.state.data["identified"]
    assert R.forms(res.state, "Dario")[0].fields[0].choices == NAMES


@pytest.mark.parametrize("taps,code", [
    ({**TAPS, "Veggente": []}, "identify_count"),
    ({**TAPS, "Medium": ["Anna"]}, "identify_twice"),
    ({**TAPS, "Procione Mannaro": ["Dario"]}, "identify_not_dealt"),
    ({**TAPS, "Lupo Nero": ["Dario"]}, "identify_unknown_role"),
    ({**TAPS, "Medium": ["Zeno"]}, "unknown_player"),
    ("Anna", "identify_missing"),
])
def test_taps_that_do_not_match_the_composition_are_refused(taps, code):
    state, _ = undealt()
    with pytest.raises(Rejected) as refused:
        R.resolve(state, [], setup_rng(0), {IDENTIFY: taps})
    assert refused.value.code == code and code in R.REJECTIONS
    assert R.describe_rejection(code, refused.value.params, "it")


def test_the_narrator_may_edit_the_composition():
    state, _ = undealt({"Licantropo": 2, "Procione Mannaro": 1, "Contadini": 7})
    assert state.data["composition"] == {"Licantropo": 2, "Procione Mannaro": 1, "Contadino": 7}
    res = R.resolve(state, [], setup_rng(0), {IDENTIFY: {"Licantropo": ["Anna", "Bruno"],
                                                           "Procione Mannaro": ["Carla"]}})
    assert res.state.player("Carla").role == "Procione Mannaro"
    with pytest.raises(SetupError) as wrong:
        undealt({"Licantropo": 2, "Contadino": 3})
    assert wrong.value.code == "composition_size"
