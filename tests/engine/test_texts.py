"""Every code a ruleset can refuse a set-up with is worded by that ruleset, in both
languages (the desk shows it after "the rules refuse this set-up:")."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.registry import available, get_ruleset, ruleset_module

PARAMS = {"name": "Zeno", "role": "Lupo Ululante", "missing": ["Negromanti"], "reason": "r",
          "player": "Zeno", "players": 5, "roles": 6, "count": 9, "minimum": 2, "card": "Duchessa",
          "variant": "x"}


@pytest.mark.parametrize("key", available())
def test_every_setup_code_is_worded(key: str) -> None:
    folder = Path(ruleset_module(key).__file__).parent
    text = "\n".join(p.read_text(encoding="utf-8") for p in folder.glob("*.py"))
    codes = set(re.findall(r'SetupError\(\s*"([a-z_]+)"', text))
    if "UnknownRole(" in text:
        codes.add("unknown_role")
    assert codes, key  # the search found the set-up checks
    rules = get_ruleset(key)
    for code in codes:
        for lang in ("it", "en"):
            worded = rules.describe_rejection(code, PARAMS, lang)
            assert worded and "{" not in worded and code not in worded, (key, code, lang)
