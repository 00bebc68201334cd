"""The statistics of finished games (issue 34): each game counted once as it ends
(``record``: the figures the ruleset counts from the game's public events, and who
acted when due, by which way), added to running totals per season, group and
account (``totals``), read by the pages (``pages``), drawn (``charts``) and exported
(``export``). Nothing of a game still running is ever counted.

``wiring.connect`` wires the counting to the operations' announcements
(pbm/hooks.py); the application's factory calls it.
"""
