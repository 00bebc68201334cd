"""Lupus LIVE! 12th edition ("La Mezzanotte dei Mannari", November 2022)."""
from .ruleset import RULESET, LupusLive12

__all__ = ["RULESET", "LupusLive12"]
