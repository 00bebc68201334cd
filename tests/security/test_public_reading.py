"""A public event reads alike for every reader who is not a Master (the promise of
``BaseRuleset.visible`` and ``describe``): the service words it once for all the
players of a boundary (``pbm.visibility.Reading``), so a ruleset that tailored a
public event to its reader would hand every player the first reader's copy.

Every event of whole games of every ruleset (the rulebooks' scenarios, as
tests/security/test_visibility_sql.py plays them), read by each of their players,
a stranger and the public, in both languages; and ``Reading`` gives each player
exactly what ``seen`` worked out alone used to (each event asked of the ruleset
for that very reader).
"""
from __future__ import annotations

import pytest

from engine.core import PUBLIC, Event
from engine.interface import Viewer
from engine.registry import get_ruleset
from pbm import visibility

from .test_visibility_sql import GAMES


def readers(players: set[str]) -> list[Viewer]:
    return [Viewer()] + [Viewer(player=p) for p in sorted(players)] + [Viewer(player="Nessuno Estraneo")]


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_public_event_reads_the_same_for_every_reader(ruleset):
    rules = get_ruleset(ruleset)
    players, events = GAMES[ruleset]
    public = [e for e in events if e.visibility == PUBLIC]
    assert public, "a game without public events proves nothing"
    for event in public:
        for lang in ("it", "en"):
            copies = set()
            for viewer in readers(players):
                shown = rules.visible(event, viewer)
                copies.add(None if shown is None else
                           (repr(shown), rules.describe(shown, lang, viewer)))
            assert len(copies) == 1, (ruleset, event, copies)


def one_by_one(events: list[Event], viewer: Viewer, ruleset: str, lang: str) -> list[tuple]:
    """``seen`` as it was before ``Reading``: every event asked of the ruleset for this reader."""
    rules = get_ruleset(ruleset)
    out = []
    for event in events:
        shown = rules.visible(event, viewer)
        if shown is not None:
            out.append((shown, rules.describe(shown, lang, viewer)))
    return out


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_shared_reading_gives_each_player_their_own_events(ruleset):
    players, events = GAMES[ruleset]
    reading = visibility.Reading(events, ruleset)
    for viewer in readers(players) + [Viewer(master=True)]:
        for lang in ("it", "en"):
            got = reading.seen(viewer, lang)
            expected = one_by_one(events, viewer, ruleset, lang)
            # The same events, each as the ruleset shows and words it for this reader
            # (the order of a phase's public events of one kind is their wording's).
            assert sorted((repr(s.event), s.text or "") for s in got) == \
                sorted((repr(e), t or "") for e, t in expected), (ruleset, viewer, lang)
