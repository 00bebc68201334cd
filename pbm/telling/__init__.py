"""The listeners that show and tell what the operations announced (pbm/hooks.py): the
mail each announcement makes, and later the piazza's posts. Each module owns the
context of its mails (one function per mail, as Warehouse's do); ``connect`` wires
them to the announcements, by the kind of timing each serves, once per process
(the application's factory calls it):

- ``start_mail``: the role letters when a game by mail starts;
- ``window_mail``: a game of answer windows' first mail, each window's, more time;
- ``results_mail``: a calendar phase's results (the digests' choices applied);
- ``masters_mail``: the Masters' report as the ruleset asks;
- ``copies``: a copy to the player of what a Master recorded in their name;
- ``deadlines``: a moved deadline, a pause and a resume told to the players;
- ``seat_mail``: a seat handed to a substitute (the newcomer, the others, who left);
- ``room_mail``: each post of a room noted for its readers who chose every post (the
  worker makes their mail), and the posts a published moment makes by the rules
  (anonymous, at dawn); ``room_digests`` the worker's digests of the rooms.

The modules import their siblings, never this package.
"""
from __future__ import annotations

from .. import hooks
from ..operations.timing import AT_THE_TABLE, IN_WINDOWS, ON_CALENDAR
from . import copies, deadlines, masters_mail, results_mail, room_mail, seat_mail, start_mail, window_mail

_connected = False


def connect() -> None:
    """Connect every listener (again: nothing; blinker keeps one connection per pair)."""
    global _connected
    if _connected:
        return
    for by_mail in (ON_CALENDAR, AT_THE_TABLE):
        hooks.listen(hooks.game_started, start_mail.role_letters, by_mail)
        # In this order: the players' results are queued before the Masters' report.
        hooks.listen(hooks.phase_published, results_mail.phase_results, by_mail)
        hooks.listen(hooks.phase_published, masters_mail.masters_report, by_mail)
    hooks.listen(hooks.game_started, window_mail.window_start, IN_WINDOWS)
    hooks.listen(hooks.phase_published, window_mail.window_results, IN_WINDOWS)
    hooks.listen(hooks.deadline_changed, window_mail.more_time, IN_WINDOWS)
    hooks.listen(hooks.submission_recorded, copies.on_behalf_copy)
    hooks.listen(hooks.deadline_changed, deadlines.deadline_moved)
    for told in (seat_mail.newcomer, seat_mail.announced, seat_mail.left):
        hooks.listen(hooks.seat_taken, told)
    hooks.listen(hooks.phase_published, room_mail.posts_by_the_rules)
    hooks.listen(hooks.post_made, room_mail.post_to_mail)
    _connected = True
