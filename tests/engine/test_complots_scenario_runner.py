"""The Complots scenario runner: file errors, failing expectations, every expect key."""
from __future__ import annotations

import copy

import pytest

from engine.scenario import run_scenario

BASE = {
    "ruleset": "complots",
    "players": {"Anna": ["Capitano", "Duchessa"], "Bruno": ["Contessa", "Assassino"],
                "Carla": ["Ambasciatore", "Duchessa"]},
    "setup": {"court": ["Capitano", "Contessa"]},
    "steps": [{"turn": "Anna", "action": {"steal": "Bruno"}, "challenge": "Bruno",
               "lose": {"Bruno": "Contessa"},
               "expect": {"coins": {"Anna": 4, "Bruno": 0}, "revealed": {"Bruno": ["Contessa"]},
                          "hand": {"Bruno": ["Assassino"]}, "influence": {"Bruno": 1},
                          "eliminated": [], "court": 9, "next": "Bruno", "winner": "none",
                          "rejected": False, "treasury": 48,
                          "results": {"Anna": [], "Bruno": []}}}],
}


def scenario(**changes):
    data = copy.deepcopy(BASE)
    step = data["steps"][0]
    for key, value in changes.items():
        if key.startswith("expect_"):
            step["expect"][key[7:]] = value
        elif key in ("players", "setup", "variant", "seed", "seeds", "bogus"):
            data[key] = value
        else:
            step[key] = value
    return data


def test_the_base_scenario_passes():
    outcome = run_scenario(scenario())
    assert outcome.passed, outcome.failures


@pytest.mark.parametrize("key,wrong", [
    ("coins", {"Anna": 3}), ("revealed", {"Bruno": ["Assassino"]}), ("hand", {"Bruno": ["Contessa"]}),
    ("influence", {"Bruno": 2}), ("eliminated", ["Bruno"]), ("court", 8), ("next", "Carla"),
    ("winner", "Anna"), ("rejected", True), ("treasury", 50),
    ("results", {"Anna": [{"saw": "Contessa"}]}),
])
def test_each_expect_key_can_fail(key, wrong):
    outcome = run_scenario(scenario(**{"expect_" + key: wrong}))
    assert not outcome.passed
    assert key in outcome.failures[0]


@pytest.mark.parametrize("changes,message", [
    ({"turn": "Bruno"}, "it is Anna's turn"),
    ({"expect_bogus": 1}, "unknown expect key"),
    ({"blocc": {"by": "Bruno"}}, "unknown step key"),
    ({"bogus": 1}, "unknown key"),
    ({"lose": {"Bruno": "Duke of Nothing"}}, "unknown card"),
    ({"challenge": "Zeno"}, "unknown player"),
    ({"action": "fly"}, "unknown action"),
    ({"players": {"Anna": ["Capitano"], "Bruno": ["Contessa", "Assassino"]}}, "two cards"),
    ({"players": {"Anna": ["Capitano", "Capitano"], "Bruno": ["Capitano", "Capitano"]}}, "setup"),
    ({"setup": {"court": ["Capitano"], "mayor": "Anna"}}, "unknown setup key"),
    ({"expect_results": {"Anna": [{"aura": "nera"}]}}, "unknown result item kind"),
])
def test_errors_of_the_file(changes, message):
    outcome = run_scenario(scenario(**changes))
    assert not outcome.passed
    assert "scenario error" in outcome.failures[0] and message in outcome.failures[0], outcome.failures


def test_a_refused_step_changes_nothing_and_the_turn_stays():
    data = scenario(lose={"Bruno": "Duchessa"},
                    expect={"rejected": True, "coins": {"Anna": 2, "Bruno": 2},
                            "revealed": {"Bruno": []}, "next": "Anna"})
    data["steps"].append({"turn": "Anna", "action": "income", "expect": {"coins": {"Anna": 3}}})
    outcome = run_scenario(data)
    assert outcome.passed, outcome.failures


def test_one_of_and_all_seen_over_seeds():
    data = scenario(lose=None, seeds=8,
                    expect={"one_of": [{"revealed": {"Bruno": ["Contessa"]}},
                                       {"revealed": {"Bruno": ["Assassino"]}}],
                            "all_seen": True})
    del data["steps"][0]["lose"]
    assert run_scenario(data).passed
    data["steps"][0]["expect"]["one_of"][1] = {"revealed": {"Bruno": ["Duchessa"]}}
    outcome = run_scenario(data)
    assert not outcome.passed and "one_of" in outcome.failures[0]
    data["steps"][0]["expect"]["one_of"] = [{"revealed": {"Bruno": ["Contessa"]}},
                                            {"revealed": {"Bruno": ["Assassino"]}},
                                            {"revealed": {"Bruno": ["Duchessa"]}}]
    outcome = run_scenario(data)
    assert not outcome.passed and "all_seen" in outcome.failures[0]


def test_scenario_steps_drive_the_same_windows_as_the_service():
    """The English card names and an unquoted `discard: yes` are read as the format allows."""
    data = {
        "ruleset": "complots", "variant": "inquisitore",
        "players": {"Anna": ["Inquisitor", "Captain"], "Bruno": ["Countess", "Assassin"],
                    "Carla": ["Duchess", "Captain"]},
        "steps": [{"turn": "Anna", "action": {"examine": "Bruno"}, "show": "Countess",
                   "discard": True,
                   "expect": {"results": {"Anna": [{"saw": "Contessa"}]}, "influence": {"Bruno": 2},
                              "next": "Bruno"}}],
    }
    assert run_scenario(data).passed


def test_every_pin_of_the_rulings_exists():
    """docs/rulings-complots.md names the files and tests that pin each ruling."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "rulings-complots.md").read_text(encoding="utf-8")
    files = set(re.findall(r"`([\w.-]+\.yaml)`", doc))
    tests = set(re.findall(r"`(test_\w+)`", doc))
    assert len(files) > 20 and len(tests) > 5
    for name in files:
        assert (root / "tests" / "scenarios" / "complots" / name).exists(), name
    sources = "".join(p.read_text(encoding="utf-8")
                      for p in (root / "tests" / "engine").glob("test_complots_*.py"))
    for name in tests:
        assert f"def {name}(" in sources, name
