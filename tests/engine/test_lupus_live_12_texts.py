"""Every rejection code the engine can raise is worded in Italian and English."""
from __future__ import annotations

import re
from pathlib import Path

from engine.lupus_live_12 import RULESET

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "lupus_live_12"


def _codes() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    codes = set(re.findall(r'Rejected\(\s*"([a-z_]+)"', text))
    codes |= set(re.findall(r'"(ritual_target_not_(?:alive|dead))"', text))
    return codes


def test_every_rejection_code_is_worded_in_both_languages() -> None:
    codes = _codes()
    assert len(codes) > 20
    for code in codes:
        for lang in ("it", "en"):
            worded = RULESET.describe_rejection(code, {"target": "X", "ritual": "R", "role": "R",
                                                       "day": 2}, lang)
            assert worded and worded != code and "{" not in worded, (code, lang)


def test_result_events_are_worded() -> None:
    for kind in ("answer", "visited_by", "ritual", "failed", "corrupted", "became"):
        entry = RULESET.EVENTS.get(kind)
        assert entry and entry["it"] and entry["en"], kind
