"""A tie for the stake settled by lot is said in the bulletin (issue 31; principale §1.7:
"viene designato per il rogo uno a caso tra di questi"), to the players only when the
count they can make shows the tie too (the secret weights stay secret)."""
from __future__ import annotations

import random

from engine.core import Action, Phase
from engine.interface import Viewer
from engine.registry import get_ruleset

ROLES = [("Anna", "Lupo Mannaro"), ("Bruno", "Contadino"), ("Carla", "Veggente"), ("Dario", "Contadino")]


def _day(votes: dict[str, str]):
    rules = get_ruleset("lupus-live-12")
    state, _ = rules.setup(ROLES, random.Random(3), {"mayor": "Dario"})
    state.phase = Phase("day", 1)
    actions = [Action(voter, "vote", {"vote": target}) for voter, target in votes.items()]
    resolution = rules.resolve(state, actions, random.Random(7))
    (pyre,) = [e for e in resolution.events if e.kind == "pyre"]
    return rules, pyre


def test_a_tie_broken_by_lot_is_told_with_the_tied_and_the_one_the_lot_chose():
    rules, pyre = _day({"Anna": "Bruno", "Bruno": "Anna", "Carla": "Bruno"})
    # Bruno 2, Anna 1: no tie, no lot.
    seen = rules.visible(pyre, Viewer(player="Carla"))
    assert "sorte" not in rules.describe(seen, "it", Viewer(player="Carla"))
    rules, pyre = _day({"Anna": "Bruno", "Bruno": "Anna"})  # half the living: a valid vote
    seen = rules.visible(pyre, Viewer(player="Carla"))
    line = rules.describe(seen, "it", Viewer(player="Carla"))
    burned = pyre.data["burned"]
    assert f"Pareggio tra Anna e Bruno: la sorte ha scelto {burned}." in line, line
    assert "the lot fell on" in rules.describe(seen, "en", Viewer(player="Carla"))
    assert rules.tally(seen, "it").tied[0] == burned
