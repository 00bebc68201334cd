"""Which rulesets exist, by the key used in scenario files and in the database."""
from __future__ import annotations

import importlib
from types import ModuleType

from .interface import BaseRuleset

_MODULES = {
    "lupus-live-12": "engine.lupus_live_12",
    "lupus-noctis": "engine.lupus_noctis",
    "tempo-reale-7": "engine.tempo_reale_7",
    "complots": "engine.complots",
}

# The game `pbm run` seeds on an empty database (pbm/demo.py), and the roles it deals.
DEMO = "lupus-live-12"
DEMO_COMPOSITION = {"Lupo Mannaro": 2, "Veggente": 1, "Guardia del corpo": 1, "Contadino": 3}


def available() -> list[str]:
    return list(_MODULES)


def register(key: str, module: str) -> None:
    _MODULES[key] = module


def ruleset_module(key: str) -> ModuleType:
    """The ruleset's package, for its optional extras (the Masters' remedies)."""
    try:
        return importlib.import_module(_MODULES[key])
    except KeyError:
        raise KeyError(f"unknown ruleset {key!r}; known: {', '.join(_MODULES)}") from None


def get_ruleset(key: str) -> BaseRuleset:
    """The game's rules, as the service asks them: through engine/interface.py."""
    return ruleset_module(key).RULESET
