"""The wording scanner at full strength (`make faults`): whole bot games of every
ruleset, in Italian and in English, every viewer reading every page of the URL map and
every mail at every step (tests/support/botgame.py's ``every_read``), checked for
internal text by tests/support/wording.py. The quick version is tests/wording/test_wording_scan.py."""
from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support import wording


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("ruleset", sorted(wording.GAMES))
def test_no_page_or_mail_of_a_whole_game_shows_internal_text(tmp_path, report, ruleset, lang):
    scenario = replace(wording.GAMES[ruleset], lang=lang)
    found = wording.scan(scenario, tmp_path, quick=False)
    report(f"wording scan {ruleset} {lang}", read=found.read, mails=found.mails, problems=len(found.problems))
    assert not found.problems, found.report()
    assert {"anonymous", "outsider", "other_master", "master"} <= found.viewers
