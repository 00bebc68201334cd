"""Lupus Noctis (Massimiliano Ercole, v1.1): the table game, with the service as the
narrator's companion. Rulings: docs/rulings-lupus-noctis.md."""
from .ruleset import RULESET, LupusNoctis

__all__ = ["RULESET", "LupusNoctis"]
