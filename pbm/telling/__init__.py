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
- ``room_mail``: each post of a room to its readers who chose every post, and the posts
  a published moment makes by the rules (anonymous, at dawn); ``room_digests`` the
  worker's digests of the rooms.

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
        hooks.game_started.connect(start_mail.role_letters, sender=by_mail)
        # In this order: the players' results are queued before the Masters' report.
        hooks.phase_published.connect(results_mail.phase_results, sender=by_mail)
        hooks.phase_published.connect(masters_mail.masters_report, sender=by_mail)
    hooks.game_started.connect(window_mail.window_start, sender=IN_WINDOWS)
    hooks.phase_published.connect(window_mail.window_results, sender=IN_WINDOWS)
    hooks.deadline_changed.connect(window_mail.more_time, sender=IN_WINDOWS)
    hooks.submission_recorded.connect(copies.on_behalf_copy)
    hooks.deadline_changed.connect(deadlines.deadline_moved)
    for told in (seat_mail.newcomer, seat_mail.announced, seat_mail.left):
        hooks.seat_taken.connect(told)
    hooks.phase_published.connect(room_mail.posts_by_the_rules)
    hooks.post_made.connect(room_mail.post_by_mail)
    _connected = True
