"""What the three Lupus games (lupus-live-12, tempo-reale-7, lupus-noctis) share and no
other game has: their scenario files' phases and result items, and (``ruleset``) the
defaults of a Lupus ruleset. ``engine.interface.BaseRuleset`` stays neutral of any game."""
