"""`results` in a scenario means "exactly these items" over every kind of the format's
table (docs/scenarios.md), not only the kinds the expectation happens to name."""
from __future__ import annotations

import yaml

from engine.scenario import run_scenario

SPY = """
ruleset: lupus-live-12
players:
  Anna: Lupo Mannaro
  Bruno: Contadino
  Carla: Contadino
  Gaia: Contadino
  Giulio: Contadino
  Greta: Contadino
  Guido: Contadino
setup:
  mayor: Bruno
  dead: [Gaia, Giulio, Greta, Guido]
steps:
  - phase: night 1
    act:
      Gaia: {ritual: Spionaggio, with: [Giulio, Greta, Guido], target: Anna}
      Giulio: {ritual: Spionaggio, with: [Gaia, Greta, Guido], target: Anna}
      Greta: {ritual: Spionaggio, with: [Giulio, Gaia, Guido], target: Anna}
      Guido: {ritual: Spionaggio, with: [Giulio, Greta, Gaia], target: Anna}
    expect:
      results: {Gaia: ITEMS}
"""


def run(items: str):
    return run_scenario(yaml.safe_load(SPY.replace("ITEMS", items)))


def test_all_items_listed_passes() -> None:
    assert run("[{ritual: Spionaggio}, {answer: yes}]").passed


def test_an_item_left_out_is_a_difference() -> None:
    # The participants also get the answer: naming only the ritual must not pass.
    outcome = run("[{ritual: Spionaggio}]")
    assert not outcome.passed and "results.Gaia" in outcome.summary()


def test_a_wrong_extra_kind_is_a_difference() -> None:
    assert not run("[{ritual: Spionaggio}, {answer: yes}, failed]").passed
