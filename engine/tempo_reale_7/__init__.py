"""Lupus in tempo reale, 7th edition (Iraci, Mascellani, Paolini, Tolomeo, 2018)."""
from .ruleset import RULESET, TempoReale7

__all__ = ["RULESET", "TempoReale7"]
