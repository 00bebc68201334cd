"""``BaseRuleset`` belongs to no game (issue 36): a game that overrides nothing of it
reads no Lupus word and splits no submission the Lupus way; what the three Lupus games
share they get from ``LupusRuleset``. And the one scenario runner plays a game's files
through its ``Scenarios`` ability only, never through a method found by name."""
from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.core import Action, GameState, Phase, Player
from engine.interface import BaseRuleset
from engine.lupus_common import texts as lupus_texts
from engine.lupus_common.ruleset import LupusRuleset
from engine.scenario import run_scenario
from engine.scenario_format import Mismatch, Played, Scenarios
from tests.support import guess_ruleset


def _state() -> GameState:
    return GameState("neutral", [Player("Ada", "Dealer", "Team", "x"), Player("Bea", "Dealer", "Team", "x")],
                     Phase("round", 1))


def test_a_game_that_overrides_nothing_reads_no_lupus_word():
    base, state = BaseRuleset(), _state()
    assert base.self_facts(state, "Ada", "it") == []  # no role, faction, aura
    assert base.self_status(state, "Ada", "it") == "Sei in gioco."
    state.player("Ada").alive = False
    assert "fantasma" not in base.self_status(state, "Ada", "it")
    for lang in ("it", "en"):
        welcome = base.welcome(lang)
        assert welcome and all(welcome.values())
        assert set(welcome.values()).isdisjoint(lupus_texts.WELCOME[key][lang] for key in lupus_texts.WELCOME)
    assert base.TEXT_LIMITS == {}
    assert base.describe_action("vote", "it") == "vote"  # no "voto per il rogo"
    for lupus_code in ("first_night_kill", "dead_cannot_vote", "shout_too_long"):
        assert lupus_code not in base.REJECTIONS
    for lupus_kind in ("pyre_tally", "mayor", "shout", "role_letter"):
        assert lupus_kind not in base.EVENTS


def test_a_game_that_overrides_nothing_splits_a_submission_by_its_keys():
    base = BaseRuleset()
    split = base.actions("Ada", {"ritual": "Omicidio", "target": "Bea"})
    assert [(a.kind, a.args) for a in split] == [("ritual", {"ritual": "Omicidio"}), ("target", {"target": "Bea"})]
    assert base.actions("Ada", {"kind": "turn", "action": "income"}) == [Action("Ada", "turn", {"action": "income"})]


def test_a_game_says_how_its_moments_end():
    with pytest.raises(NotImplementedError):
        BaseRuleset().timing(_state())


@pytest.mark.parametrize("key", ["lupus-live-12", "tempo-reale-7", "lupus-noctis"])
def test_the_lupus_games_keep_what_they_share(key):
    rules = registry.get_ruleset(key)
    assert isinstance(rules, LupusRuleset)
    split = rules.actions("Ada", {"ritual": "Omicidio", "target": "Bea", "with": ["Cy"]})
    assert [a.kind for a in split] == ["ritual"]  # a ritual's target is the ritual's
    assert set(rules.TEXT_LIMITS) >= {"question", "shout", "notes"}
    assert rules.welcome("it") == {k: lupus_texts.WELCOME[k]["it"] for k in lupus_texts.WELCOME}


def test_complots_is_no_lupus_game():
    assert not isinstance(registry.get_ruleset("complots"), LupusRuleset)


# ------------------------------------------------------------------ the one runner

class _Rounds(Scenarios):
    """A scenario format of the test's own: a step names who guesses whom."""

    says_rejected = "rejected: {name}"

    def start(self, ruleset: Any, data: dict[str, Any], seed: int) -> GameState:
        state, _ = ruleset.setup([(n, "") for n in data["players"]], random.Random(seed),
                                 {"narrator": True})
        state.data["secret"] = data["secret"]
        return state

    def label(self, step: Any, index: int) -> str:
        return f"round {index + 1}"

    def play(self, ruleset: Any, state: GameState, step: dict[str, Any], label: str, seed: int) -> Played:
        actions = [Action(n, "vote", {"vote": v}) for n, v in step["guesses"].items()]
        res = ruleset.resolve(state, actions, random.Random(seed))

        def check(expect: dict[str, Any]) -> list[Mismatch]:
            got = res.state.winner or "none"
            return [] if expect.get("winner", got) == got else [Mismatch(label, "winner", expect["winner"], got)]
        return Played(res.state, check)


class _GuessWithFiles(guess_ruleset.Guess):
    abilities = (_Rounds(),)


# What the registry imports for "test-guess-files": this module's RULESET.
RULESET = _GuessWithFiles()


@pytest.fixture
def registered():
    registry.register("test-guess-files", __name__)
    registry.register(guess_ruleset.KEY, guess_ruleset.__name__)
    yield
    registry._MODULES.pop("test-guess-files", None)
    registry._MODULES.pop(guess_ruleset.KEY, None)


def test_the_runner_plays_a_game_through_its_scenarios_ability(registered):
    data = {"ruleset": "test-guess-files", "players": ["Ada", "Bea"], "secret": "Bea",
            "steps": [{"guesses": {"Ada": "Ada", "Bea": "Ada"}, "expect": {"winner": "none"}},
                      {"guesses": {"Ada": "Bea"}, "expect": {"winner": "Ada"}}]}
    assert run_scenario(data).passed
    data["steps"][1]["expect"]["winner"] = "Bea"
    outcome = run_scenario(data)
    assert not outcome.passed and "round 2: winner" in outcome.summary()


def test_a_game_without_the_ability_has_no_scenario_files(registered):
    outcome = run_scenario({"ruleset": guess_ruleset.KEY, "players": {"Ada": "x", "Bea": "x"},
                            "steps": [{"phase": "day 1"}]})
    assert not outcome.passed and "has no scenario files" in outcome.summary()
