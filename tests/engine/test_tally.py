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


# --------------------------------------------------------------------------- Lupus Noctis

def _noctis_day(morning_votes: dict[str, str], afternoon_votes: dict[str, str]):
    """A village of seven, Bruno the unlucky one (seats clockwise), through night 1, the
    morning and the afternoon with these votes: the two resolutions of the day."""
    import random
    from engine.core import Action
    rules = get_ruleset("lupus-noctis")
    seating = [("Anna", "Licantropo"), ("Bruno", "Licantropo"), ("Carla", "Contadino"),
               ("Dario", "Veggente"), ("Elio", "Medium"), ("Fede", "Contadino"), ("Gino", "Contadino")]
    state, _ = rules.setup(seating, random.Random(0), {"unlucky": "Bruno"})
    state = rules.resolve(state, [], random.Random(0)).state
    morning = rules.resolve(state, [Action(v, "vote", {"vote": c}) for v, c in morning_votes.items()],
                            random.Random(0))
    afternoon = rules.resolve(morning.state, [Action(v, "vote", {"vote": c})
                                              for v, c in afternoon_votes.items()], random.Random(0))
    return rules, morning, afternoon


def _vote_of(rules, resolution, lang="en"):
    found = [t for t in (rules.tally(rules.visible(e, Viewer()), lang) for e in resolution.events
                         if rules.visible(e, Viewer()) is not None) if t is not None]
    assert len(found) == 1, found
    return found[0]


def test_lupus_noctis_the_morning_chooses_two_and_lists_a_runner_up_chosen_at_nought():
    """Mattina: the two most voted go to the run-off. Gino alone is voted; the second
    place is a tie at 0 among all the others, and bad luck (nearness to Bruno) picks
    Bruno himself: he is shown chosen, at 0, and the tie is said to have been broken."""
    rules, morning, _ = _noctis_day({"Anna": "Gino", "Carla": "Gino", "Dario": "Gino"},
                                    {"Anna": "Gino", "Carla": "Gino"})
    t = _vote_of(rules, morning)
    assert t.all_chosen == ("Gino", "Bruno")
    assert t.counts == (("Gino", 3.0), ("Bruno", 0.0))
    assert t.votes == (("Anna", "Gino"), ("Carla", "Gino"), ("Dario", "Gino"))
    assert "two with most votes" in t.needed and "bad luck settled it" in t.needed
    assert "Bruno" not in t.needed and t.valid  # who is unlucky is nobody's to know
    it = _vote_of(rules, morning, "it")
    assert "I due più votati vanno al ballottaggio" in it.needed


def test_lupus_noctis_the_afternoon_burns_one_and_lists_both_of_the_run_off():
    """Pomeriggio: only the living outside the run-off vote, for one of the two; the
    other of the two is shown even with no vote, and no tie is claimed when none was."""
    rules, morning, afternoon = _noctis_day(
        {"Anna": "Gino", "Carla": "Gino", "Dario": "Fede", "Elio": "Fede", "Bruno": "Fede"},
        {"Anna": "Fede", "Carla": "Fede", "Dario": "Fede"})
    assert _vote_of(rules, morning).all_chosen == ("Fede", "Gino")
    t = _vote_of(rules, afternoon)
    assert t.chosen == "Fede" and t.all_chosen == ("Fede",)
    assert t.counts == (("Fede", 3.0), ("Gino", 0.0))
    assert "Only the living outside the run-off vote" in t.needed
    assert "There was a tie" not in t.needed


def test_lupus_noctis_the_archive_draws_both_run_off_players_as_chosen():
    from pbm import archive
    rules, morning, _ = _noctis_day({"Anna": "Gino", "Carla": "Gino", "Dario": "Elio"}, {})
    bars = archive.bars(_vote_of(rules, morning), "en")
    assert [(b["name"], b["chosen"]) for b in bars] == [("Gino", True), ("Elio", True)]
