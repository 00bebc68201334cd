"""Complots (the Italian "Coup", rules/complots.md) as a ruleset: see ``ruleset.py``."""
from .ruleset import RULESET, Complots

__all__ = ["RULESET", "Complots"]
