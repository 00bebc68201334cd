"""The Masters' report reads in one language and in the third person (issue 31): no
"[public]" or "[private → Carla]" tags in an Italian mail, what a player was told quoted
as told to them, and no second-person line of a player's repeated as the Masters' own."""
from __future__ import annotations

import pytest

from engine.core import Event, master, private, public
from pbm.telling.masters_mail import report_lines

from tests.support import wording

EVENTS = {
    "lupus-live-12": [public("death", player="Bruno"), private("Carla", "answer", question="aura_nera",
                                                                target="Anna", answer="yes"),
                      private("Dario", "became", role="Veggente", was="Erede"),
                      master("became", player="Dario", role="Veggente", was="Erede"),
                      private("Elena", "corrupted", player="Elena", how="death"),
                      master("corrupted", player="Elena", how="death")],
    "tempo-reale-7": [private("Fabio", "spettro", spettro="Morte"),
                      master("spettro", player="Fabio", spettro="Morte", how="negromanti"),
                      private("Gina", "corrupted", by="Fabio"), master("corrupted", player="Gina", by="Fabio")],
}


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("ruleset", sorted(EVENTS))
def test_the_report_has_no_tags_and_no_second_person_of_its_own(ruleset, lang):
    rows: list[Event] = EVENTS[ruleset]
    lines = report_lines(rows, ruleset, lang)
    assert len(lines) == len(rows)
    for line in lines:
        assert "[" not in line and "public" not in line and "private" not in line and "master]" not in line, line
        assert not wording.second_person(line, lang), line
        assert not wording.problems(line, lang), line
    told = next(x for x in lines if "Carla" in x or "Fabio" in x)
    assert ("«" in told) if lang == "it" else ("“" in told)


def test_the_second_person_check_can_fail():
    assert wording.second_person("Il tuo nuovo ruolo è Veggente.", "it") == ["tuo"]
    assert wording.second_person("Per Dario: «Il tuo nuovo ruolo è Veggente.»", "it") == []
    assert wording.second_person("Your new role is Seer.", "en") == ["Your"]
