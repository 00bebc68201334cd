"""The leak scanner at full strength (`make faults`): every viewer reads every page of
the URL map at every step, through longer games, and more secrets than the quick scan
of `make test` (tests/security/test_leak_scan.py) plays."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engine import registry

from tests.security.leak_scanner import scan
from tests.security.test_leak_scan import (
    COMPLOTS_BRUNOS_CARDS, LIVE_ROLES, LIVE_WHO_IS_A_WOLF, LIVE_WHO_WAS_THE_SEER, NOCTIS_WHO_IS_A_WOLF,
    NOCTIS_WHOSE_DEATH, SEVEN, TR7_ROLES, TR7_WHO_IS_THE_WOLF, Scenario,
)
from tests.support import table_variant
from tests.support.botgame import TABLE, every_read, viewers_of


@pytest.fixture(autouse=True)
def _the_variant(monkeypatch):
    monkeypatch.setitem(registry._MODULES, table_variant.KEY, table_variant.__name__)

LIVE_WHERE_THE_SEER_LOOKS = Scenario(
    name="lupus-live-12: whom the Veggente looks at",
    ruleset="lupus-live-12", players=SEVEN,
    setup=lambda side: {"roles": LIVE_ROLES, "options": {"mayor": "Fabio"}},
    # Principale §1.5: the use of powers is secret; the answer is the Veggente's alone.
    knowers={"Carla"}, secret_actors={"Carla"}, spared={"Carla"}, by_mail={"Dario", "Giulia"},
    by_web={"Fabio"},
)

TR7_WHERE_THE_SEER_LOOKS = Scenario(
    name="tempo-reale-7: whom the Veggente looks at",
    ruleset="tempo-reale-7", players=SEVEN,
    setup=lambda side: {"roles": TR7_ROLES, "options": {"mayor": "Elena"}},
    # Fabio, the Guardia del corpo, is told how many others acted on whom he protects:
    # the rules let him count the Veggente's visit.
    knowers={"Carla", "Fabio"}, secret_actors={"Carla"}, spared={"Carla"}, by_mail={"Dario", "Giulia"},
    by_web={"Elena"},
)

FULL = [replace(s, max_steps=steps) for s, steps in [
    (LIVE_WHO_IS_A_WOLF, 6), (LIVE_WHERE_THE_SEER_LOOKS, 6), (LIVE_WHO_WAS_THE_SEER, 8),
    (TR7_WHO_IS_THE_WOLF, 6), (TR7_WHERE_THE_SEER_LOOKS, 6),
    (COMPLOTS_BRUNOS_CARDS, 12), (NOCTIS_WHO_IS_A_WOLF, 6), (NOCTIS_WHOSE_DEATH, 12)]]


@pytest.mark.parametrize("scenario", FULL, ids=lambda s: s.name.split(":")[0] + ": " + s.name.split(": ")[1][:40])
def test_no_viewer_reads_a_secret_anywhere(tmp_path, scenario, report):
    found = scan(scenario, tmp_path, every_viewer_every_step=True)
    report(f"leak scan, {scenario.name}", pages_read=found.pages_read, mails_read=found.mails_read,
           steps=found.steps, leaks=0)
    assert found.ended and found.master_saw_difference
    assert found.knower_saw_difference or not scenario.knowers


@pytest.mark.parametrize("scenario", [LIVE_WHO_IS_A_WOLF, TR7_WHO_IS_THE_WOLF, COMPLOTS_BRUNOS_CARDS,
                                      NOCTIS_WHO_IS_A_WOLF], ids=lambda s: s.ruleset)
def test_every_viewer_reads_every_page_of_a_whole_game(tmp_path, scenario, report):
    """The harness the scans share (tests/support/botgame.every_read): a whole game,
    every viewer reading every page and mail at every step. No page fails, every
    viewer reads pages and the game's mail reaches its players (at a table, the table
    hears the night read aloud)."""
    seen: dict[str, set[str]] = {}
    errors, count, moments = [], 0, set()
    for step, moment, read in every_read(scenario, tmp_path):
        count += 1
        moments.add(moment)
        seen.setdefault(read.viewer, set()).add(read.kind)
        if read.status >= 500:
            errors.append(f"step {step} ({moment}): {read.viewer} {read.where}: {read.status}")
    report(f"every read, {scenario.ruleset}", reads=count)
    assert not errors, "\n".join(errors[:10])
    assert {"page"} <= set.intersection(*(seen.get(v, set()) for v in viewers_of(scenario) if v != TABLE))
    if scenario.at_table:
        assert "aloud" in seen[TABLE]
    else:
        assert all("mail" in seen[p] for p in scenario.players)
    assert "boundary passed" in moments
