"""What one reader may see of a game, as its pages and its mail both show it, built
from the database and never changing it: ``window`` (a game of answer windows: the
table, the open window, the round so far), ``seat_history`` (what a seat has been told).
Above operations (they ask its read helpers), below the doors and the listeners that
show them (pbm/web, pbm/telling); modules import their siblings, never this package."""
