"""The rules lupus-live-12 and tempo-reale-7 share, written once: a death's cause kept
from the players unless everybody saw it (``lupus_common.results.without_cause``), the kinds nobody must
send (``OPTIONAL_KINDS``), the pyre's tally (``engine/lupus_common/pyre.py``)."""
from __future__ import annotations

import pytest

from engine.core import Event, setup_rng
from engine.interface import Viewer
from engine.registry import get_ruleset

BY_MAIL = ("lupus-live-12", "tempo-reale-7")
SEATING = {
    "lupus-live-12": [("Anna", "Lupo Mannaro"), ("Bruno", "Contadino"), ("Carla", "Contadino"),
                      ("Dario", "Veggente"), ("Elena", "Contadino")],
    "tempo-reale-7": [("Anna", "Lupo"), ("Bruno", "Contadino"), ("Carla", "Contadino"),
                      ("Dario", "Veggente"), ("Elena", "Negromante")],
}


@pytest.mark.parametrize("key", BY_MAIL)
@pytest.mark.parametrize("kind", ["death", "revive"])
def test_a_cause_nobody_saw_is_kept_from_the_players_not_from_the_masters(key, kind):
    rules = get_ruleset(key)
    secret = Event(kind, {"player": "Carla", "cause": "wolves"}, "public", [])
    assert rules.visible(secret, Viewer(player="Bruno")).data == {"player": "Carla"}
    assert rules.visible(secret, Viewer()).data == {"player": "Carla"}
    assert rules.visible(secret, Viewer(master=True)).data["cause"] == "wolves"
    for cause in ("pyre", "masters"):
        seen = Event(kind, {"player": "Carla", "cause": cause}, "public", [])
        assert rules.visible(seen, Viewer(player="Bruno")).data["cause"] == cause


@pytest.mark.parametrize("key", BY_MAIL)
def test_the_optional_kinds_are_never_required(key):
    rules = get_ruleset(key)
    state, _ = rules.setup(SEATING[key], setup_rng(0), {"mayor": "Dario"})
    offered = {f.kind for f in rules.forms(state, "Dario")}
    assert {"power", "appoint"} <= offered  # the mayor's Veggente, at night
    assert rules.required_kinds(state, "Dario") == offered - {"shout", "notes", "appoint"}
    assert "power" in rules.required_kinds(state, "Dario")


def test_tempo_reale_7_pyre_tally_says_the_quorum_in_its_own_words():
    rules = get_ruleset("tempo-reale-7")
    pyre = Event("pyre", {"burned": "Cy", "quorum": True, "votes": {"Ada": "Cy", "Bea": "Cy", "Cy": "Ada"},
                          "tally": {"Cy": 2, "Ada": 1}, "voters": 3, "living": 5}, "public", [])
    t = rules.tally(rules.visible(pyre, Viewer()), "en")
    assert t.counts == (("Cy", 2.0), ("Ada", 1.0)) and t.chosen == "Cy" and t.valid
    assert "3 of 5" in t.needed and "mayor's vote" in t.needed and "1¼" not in t.needed
    assert rules.tally(Event("death", {"player": "Cy"}, "public", []), "en") is None
