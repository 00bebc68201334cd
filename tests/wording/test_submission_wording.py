"""A submission as people read it (receipts, the desk, the page's "your answer"), for
every game: each is worded by its ruleset (``describe_submission``), never shown as
the engine's keys and codes ("answer: pass", "action: Furto", "card: Assassino")."""
from __future__ import annotations

import pytest

from engine.registry import available, get_ruleset
from pbm.render import describe_submission

from tests.wording.test_vocabulary_drift import LANGS, played


@pytest.mark.parametrize("key", available())
def test_every_legal_submission_is_worded_without_engine_keys(key):
    rules = get_ruleset(key)
    checked = 0
    for state, _player, _form, submission in played(key, seeds=range(2), phases=10):
        if not submission:  # nothing filled in: nothing to word
            continue
        for lang in LANGS:
            for given in (state, None):
                lines = describe_submission(submission, lang, key, given)
                assert lines and all(line.strip() for line in lines), submission
                text = " ".join(lines)
                for arg in submission:
                    if arg in ("kind", "moment"):
                        continue
                    assert not any(line.startswith(f"{arg}:") for line in lines), (key, lang, lines)
                assert "None" not in text, (key, submission, text)
                checked += 1
    assert checked, f"{key}: no submission was worded"
    assert rules.describe_submission({}, "it") == []


def test_the_complots_receipt_lines_of_the_issue():
    """The lines people saw: "action: Furto (Capitano)", "answer: Blocco; as: Ambasciatore",
    "card: Assassino", "answer: pass"."""
    assert describe_submission({"kind": "turn", "action": "steal", "target": "Carla"}, "it", "complots") == \
        ["Furto a Carla (Capitano)"]
    assert describe_submission({"answer": "block", "as": "Ambasciatore"}, "it", "complots") == \
        ["Blocco con l'Ambasciatore"]
    assert describe_submission({"kind": "lose", "card": "Assassino"}, "it", "complots") == \
        ["Scopro l'Assassino"]
    assert describe_submission({"answer": "pass"}, "en", "complots") == ["Pass"]


def test_a_field_left_empty_is_not_printed_as_none():
    """A Lupus LIVE! 12 ritual sent from the page with no target: its receipt and the
    reveal once read "Bersaglio: None" (found playing a whole game, issue 21)."""
    ritual = {"kind": "ritual", "ritual": "\\end{story}", "with": ["Giulia", "Dario"], "target": None, "n": 1}
    for lang in LANGS:
        text = " ".join(describe_submission(ritual, lang, "lupus-live-12"))
        assert "None" not in text and "Giulia" in text, text
        assert not any(line.endswith(": ") for line in describe_submission(ritual, lang, "lupus-live-12"))
