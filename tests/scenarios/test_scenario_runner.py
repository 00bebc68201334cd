"""The scenario runner itself must catch a wrong expectation, not only pass right ones."""
from __future__ import annotations

import copy

import pytest
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


# ----------------------------------------------------- a refusal is never silent (docs/scenarios.md)
# Each ruleset's night 1, where Anna's first-night kill is refused by the rules.
REFUSED = {
    "lupus-live-12": """
ruleset: lupus-live-12
players: {Anna: Lupo Mannaro, Bruno: Contadino, Carla: Contadino, Dario: Veggente}
setup: {mayor: Bruno}
steps:
  - phase: night 1
    act:
      Anna: {target: Bruno}
      Dario: {target: Anna}
    expect: EXPECT
""",
    "tempo-reale-7": """
ruleset: tempo-reale-7
players: {Anna: Lupo, Bruno: Contadino, Carla: Contadino, Dario: Veggente, Elena: Negromante}
setup: {mayor: Bruno}
steps:
  - phase: night 1
    act:
      Anna: {target: Bruno}
      Dario: {target: Anna}
    expect: EXPECT
""",
    "lupus-noctis": """
ruleset: lupus-noctis
players: {Anna: Licantropo, Bruno: Contadino, Carla: Contadino, Dario: Veggente, Elio: Contadino}
setup: {unlucky: Carla}
steps:
  - phase: night 1
    act:
      Anna: {target: Bruno}
    expect: EXPECT
""",
}
REFUSAL = {"lupus-live-12": "first_night_kill", "tempo-reale-7": "first_night_kill",
           "lupus-noctis": "first_night"}


def _refused(key: str, expect: dict):
    data = yaml.safe_load(REFUSED[key].replace("EXPECT", "{}"))
    data["steps"][0]["expect"] = expect
    return run_scenario(data)


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_a_refusal_the_step_does_not_expect_fails_naming_the_player_and_the_refusal(key) -> None:
    outcome = _refused(key, {"dead": []})  # what happens is right; only the refusal is unsaid
    assert not outcome.passed
    (failure,) = outcome.failures
    assert "Anna" in failure and REFUSAL[key] in failure and "rejected" in failure, failure
    assert "Dario" not in failure  # his act went through


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_a_refusal_named_in_rejected_passes(key) -> None:
    outcome = _refused(key, {"dead": [], "rejected": ["Anna"]})
    assert outcome.passed, outcome.failures


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_rejected_naming_a_player_who_was_not_refused_fails(key) -> None:
    outcome = _refused(key, {"dead": [], "rejected": ["Anna", "Bruno"]})
    assert not outcome.passed and "rejected" in outcome.summary() and "Bruno" in outcome.summary()
    outcome = _refused(key, {"dead": [], "rejected": []})
    assert not outcome.passed and "Anna" in outcome.summary()


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_a_refusal_said_by_the_alternative_that_held_passes(key) -> None:
    said = _refused(key, {"one_of": [{"dead": ["Bruno"]}, {"dead": [], "rejected": ["Anna"]}]})
    assert said.passed, said.failures
    unsaid = _refused(key, {"one_of": [{"dead": ["Bruno"]}, {"dead": []}]})
    assert not unsaid.passed and REFUSAL[key] in unsaid.summary()


def test_a_step_with_no_refusal_needs_no_rejected() -> None:
    data = yaml.safe_load(REFUSED["lupus-live-12"].replace("EXPECT", "{dead: []}"))
    del data["steps"][0]["act"]["Anna"]
    assert run_scenario(data).passed


def test_cli_fails_a_silent_refusal_and_says_whose(tmp_path, capsys) -> None:
    path = tmp_path / "silent.yaml"
    path.write_text(REFUSED["tempo-reale-7"].replace("EXPECT", "{dead: []}"))
    assert main(["scenario", "run", str(path)]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith(f"FAIL {path}: ") and "Anna" in line and "first_night_kill" in line


COMPLOTS = {
    "ruleset": "complots",
    "players": {"Anna": ["Capitano", "Duchessa"], "Bruno": ["Contessa", "Assassino"],
                "Carla": ["Ambasciatore", "Duchessa"]},
    "steps": [{"turn": "Anna", "action": {"steal": "Bruno"}, "challenge": "Bruno",
               "lose": {"Bruno": "Duchessa"},  # not in Bruno's hand: refused
               "expect": {"coins": {"Anna": 2, "Bruno": 2}, "next": "Anna"}}],
}


def _complots(expect: dict, step: dict | None = None):
    data = copy.deepcopy(COMPLOTS)
    data["steps"][0].update(step or {})
    data["steps"][0]["expect"].update(expect)
    return run_scenario(data)


def test_complots_a_refused_answer_without_rejected_fails_naming_the_player_and_the_refusal():
    outcome = _complots({})
    assert not outcome.passed
    (failure,) = outcome.failures
    assert "Bruno" in failure and "not_in_hand" in failure and "rejected: true" in failure, failure


def test_complots_a_refused_turn_names_its_actor():
    outcome = _complots({}, {"action": {"coup": "Bruno"}, "challenge": None, "lose": None})
    assert not outcome.passed and "Anna" in outcome.summary() and "not_enough_coins" in outcome.summary()


def test_complots_rejected_true_says_it():
    assert _complots({"rejected": True}).passed
    outcome = _complots({"rejected": False})
    assert not outcome.passed and "rejected" in outcome.summary()


def test_complots_rejected_true_when_nothing_was_refused_fails():
    outcome = _complots({"rejected": True, "coins": {"Anna": 4, "Bruno": 0}, "next": "Bruno"},
                        {"lose": {"Bruno": "Contessa"}})
    assert not outcome.passed and "rejected" in outcome.summary()


def test_an_act_with_a_refused_action_keeps_its_other_actions_as_a_mail_would() -> None:
    """A scenario's act is what a player sends in a phase, read as a mail is: each command
    on its own (a seer who also writes VOTO at night still sees). The refusal is not
    silent: the file must name the player in ``rejected``."""
    data = yaml.safe_load(BASE.replace("ANSWER", "yes"))
    step = data["steps"][0]
    step["act"]["Dario"] = {"target": "Anna", "vote": "Bruno"}  # no vote at night
    assert not run_scenario(data).passed  # the refused vote is not silent
    step["expect"]["rejected"] = ["Dario"]
    step["expect"]["results"] = {"Dario": []}
    outcome = run_scenario(data)
    assert not outcome.passed and "results.Dario" in outcome.summary()  # the seer did see
    step["expect"]["results"] = {"Dario": [{"answer": "yes"}]}
    assert run_scenario(data).passed
