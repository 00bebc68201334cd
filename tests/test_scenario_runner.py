"""The scenario runner itself must catch a wrong expectation, not only pass right ones."""
from __future__ import annotations

import yaml

from engine.scenario import run_scenario
from pbm.cli import main

BASE = """
ruleset: lupus-live-12
players:
  Anna: Lupo Mannaro
  Bruno: Contadino
  Carla: Contadino
  Dario: Veggente
setup:
  mayor: Bruno
steps:
  - phase: night 1
    act:
      Dario: {target: Anna}
    expect:
      results: {Dario: [{answer: ANSWER}]}
"""


def test_right_expectation_passes() -> None:
    assert run_scenario(yaml.safe_load(BASE.replace("ANSWER", "yes"))).passed


def test_wrong_expectation_fails_and_says_what_differed() -> None:
    outcome = run_scenario(yaml.safe_load(BASE.replace("ANSWER", "no")))
    assert not outcome.passed
    assert "results.Dario" in outcome.summary()


def test_phase_out_of_order_is_an_error_of_the_file() -> None:
    data = yaml.safe_load(BASE.replace("ANSWER", "yes"))
    data["steps"][0]["phase"] = "day"
    outcome = run_scenario(data)
    assert not outcome.passed and "next phase is night 1" in outcome.summary()


def test_cli_prints_pass_and_fail_and_exit_code(tmp_path, capsys) -> None:
    good = tmp_path / "good.yaml"
    bad = tmp_path / "sub" / "bad.yaml"
    bad.parent.mkdir()
    good.write_text(BASE.replace("ANSWER", "yes"))
    bad.write_text(BASE.replace("ANSWER", "no"))
    assert main(["scenario", "run", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"PASS {good}" in out
    assert any(line.startswith(f"FAIL {bad}: ") for line in out)
    assert main(["scenario", "run", str(good)]) == 0


NOCTIS = """
ruleset: lupus-noctis
players:
  Anna: Licantropo
  Bruno: Contadino
  Carla: Procione Mannaro
  Dario: Veggente
setup:
  unlucky: UNLUCKY
steps:
  - phase: night 1
  - phase: morning 1
    act:
      Bruno: {vote: Anna}
      Dario: {vote: Bruno}
    expect:
      runoff: [Anna, RUNOFF]
  - phase: afternoon 1
    act:
      Carla: {vote: Anna}
    expect:
      burned: Anna
      winner: WINNER
"""


def _noctis(unlucky: str = "Carla", runoff: str = "Bruno", winner: str = "Carla"):
    text = NOCTIS.replace("UNLUCKY", unlucky).replace("RUNOFF", runoff).replace("WINNER", winner)
    return run_scenario(yaml.safe_load(text))


def test_noctis_runoff_and_a_player_as_winner() -> None:
    assert _noctis().passed


def test_noctis_wrong_runoff_fails_and_says_so() -> None:
    outcome = _noctis(runoff="Dario")
    assert not outcome.passed and "runoff" in outcome.summary()


def test_noctis_wrong_winner_fails() -> None:
    outcome = _noctis(winner="Villaggio")
    assert not outcome.passed and "winner" in outcome.summary()


def test_a_refused_set_up_is_an_error_of_the_file() -> None:
    outcome = _noctis(unlucky="Zeno")
    assert not outcome.passed and "set-up refused" in outcome.summary()
