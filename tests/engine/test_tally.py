"""BaseRuleset.tally: the vote an event records, for the archive and its picture."""
from __future__ import annotations

from engine.core import Event
from engine.interface import BaseRuleset, Viewer
from engine.registry import get_ruleset


def test_default_reads_votes_and_counts_them_when_no_tally_is_given():
    t = BaseRuleset().tally(Event("ballot", {"votes": {"Ada": "Bea", "Cy": "Bea", "Bea": "Ada"}},
                                  "public", []), "it")
    assert t.counts == (("Bea", 2.0), ("Ada", 1.0))
    assert t.votes == (("Ada", "Bea"), ("Bea", "Ada"), ("Cy", "Bea"))
    assert t.chosen is None and t.valid


def test_default_is_none_for_an_event_that_is_no_vote():
    assert BaseRuleset().tally(Event("death", {"player": "Ada"}, "public", []), "it") is None


def test_lupus_live_the_public_copy_counts_at_the_public_weights():
    """Principale §1.7: the Sindaco's vote weighs 1¼; the Sabbino's real weight (0) is
    secret, so the public copy of the pyre (visible) counts his vote as 1."""
    rules = get_ruleset("lupus-live-12")
    pyre = Event("pyre", {"burned": "Cy", "quorum": True, "votes": {"Ada": "Cy", "Sab": "Cy", "May": "Ada"},
                          "tally": {"Cy": 1, "Ada": 1.25}, "voters": 3, "living": 5, "mayor": "May"},
                 "public", [])
    master = rules.tally(pyre, "en")
    public = rules.tally(rules.visible(pyre, Viewer()), "en")
    assert master.counts == (("Ada", 1.25), ("Cy", 1.0))
    assert public.counts == (("Cy", 2.0), ("Ada", 1.25))
    assert public.chosen == "Cy" and public.valid
    assert "3 of 5" in public.needed and "1¼" in public.needed
