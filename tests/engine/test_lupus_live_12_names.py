"""Role and ritual names are accepted as the rulebook writes them, in any case."""
from __future__ import annotations

import pytest
import yaml

from engine.core import Rejected
from engine.lupus_live_12 import RULESET
from engine.lupus_live_12.rituals import canonical_ritual
from engine.scenario import run_scenario


@pytest.mark.parametrize("text,name", [
    ("omicidio", "Omicidio"), ("VOTO DIRETTO", "Voto diretto"),
    ("Meno voto delegato (n)", "Meno voto delegato"), ("\\end{story}", "\\end{story}"),
    ("end story", "\\end{story}"), ("endstory", "\\end{story}"), ("\\end{story} (n)", "\\end{story}"),
])
def test_ritual_names(text: str, name: str) -> None:
    assert canonical_ritual(text) == name


def test_unknown_ritual_is_refused() -> None:
    with pytest.raises(Rejected) as exc:
        canonical_ritual("Sabba")
    assert exc.value.code == "unknown_ritual"


@pytest.mark.parametrize("text,name", [("guardia del corpo", "Guardia del corpo"),
                                       ("LUPO MANNARO", "Lupo Mannaro"), ("lupo", "Lupo Mannaro")])
def test_role_names(text: str, name: str) -> None:
    assert RULESET.canonical_role(text) == name


SCENARIO = """
ruleset: lupus-live-12
players: {Anna: Lupo Mannaro, Bruno: Contadino, Carla: Contadino, Gaia: Contadino, Gino: Contadino}
setup: {mayor: Bruno, dead: [Gaia, Gino]}
steps:
  - phase: night 1
    act:
      Gaia: {ritual: Voto diretto, with: [Gino], target: Anna, n: 1}
      Gino: {ritual: voto diretto, with: [Gaia], target: Anna, n: 1}
    expect:
      results: {Gaia: [{ritual: WANT}]}
"""


def test_result_ritual_names_compare_by_rulebook_name() -> None:
    assert run_scenario(yaml.safe_load(SCENARIO.replace("WANT", '"Voto diretto (n)"'))).passed
    assert not run_scenario(yaml.safe_load(SCENARIO.replace("WANT", "Voto delegato"))).passed
