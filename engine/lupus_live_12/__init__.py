"""Lupus LIVE! 12th edition ("La Mezzanotte dei Mannari", November 2022)."""
from .ruleset import RULESET, LupusLive12, gm_declare_draw, gm_kill, gm_resurrect

__all__ = ["RULESET", "LupusLive12", "gm_kill", "gm_resurrect", "gm_declare_draw"]
