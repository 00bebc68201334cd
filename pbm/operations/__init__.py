"""Everything that changes a game: the only package that writes one, asking its
ruleset (engine/interface.py) for every rule.

- ``games``: create a game, seat its players and its other Masters, draw and deal
  the roles, open phases;
- ``actions``: every way in (web form, mail, a Master on a player's behalf) ends
  in ``submit``;
- ``boundary``: every deadline ends in ``resolve_phase``, then ``publish``;
- ``timing``: when a moment ends (calendar, answer window, narrator), and the one
  answer to whether a moment is an answer window (``timing.windowed``);
- ``desk``: what the Masters do beyond that (answers, close now, pause, preview,
  roll back, interventions);
- ``table``: a game at the table run from the narrator's phone (players without
  accounts, the night script's taps, final votes; callers import the module);
  ``table_sync``: the taps the narrator's phone made without a network, replayed
  through ``table`` in order, each checked by the book's hash (callers import the module).
- ``seats``: the people behind the seats (substitutes, volunteers, absences).
- ``signups``: a game in set-up open to whoever has its link (callers import the module);
- ``reminders``: the mail before a deadline, and the phase's list of who was reminded
  (the worker imports the module);
- ``windows`` and ``window_mail``: answer windows (more time, standing answers) and
  their mail; ``masters_mail``: what the Masters are mailed as moments are published
  (the ruleset's ``masters_report``);
- ``base``: what they all share (the service's refusal, the Masters' log, the game's
  zone, the context of a mail about a phase).

Functions take a session and the current time from their caller and never
commit, except those given a session factory, which are their own units of work
(each phase resolved all or nothing): ``resolve_phase``, ``resolve_phases``,
``resolve_due`` and ``settle`` (boundary), ``close_now`` (desk),
``table.close_moment``, and ``table_sync.sync``, which commits each tap it replays
(a tap is all or nothing, and the taps before a refused one stay recorded).

The modules import each other directly (``from .base import log``), never this
package; nothing this package imports imports it back (pbm_shape counts both).

The names below are the package's public face: callers write
``from pbm import operations; operations.submit(...)``.
"""
from __future__ import annotations

from engine.core import Rejected

from ..models import Game
from . import desk, seats, timing, windows
from .actions import (
    Opening, Submitted, choices_now, engine_actions, too_late, latest_actions, latest_actions_of, legal_choices, lock_game,
    open_phase_for, opening, submit,
)
from .base import (
    SUBMISSION_SOURCES, OperationError, current_phase, current_state, game_options, game_schedule, game_tz,
    log, reader_tz,
)
from .boundary import (
    LATE_AFTER, close_and_resolve, due_phase_ids, latest_due_deadline, publish, resolve_due, resolve_phase, settle,
)
from .desk import answer_pending, close_now
from .games import (
    add_co_master, add_player, create_game, draw_roles, edit_prepared, ensure_user, prepare_game,
    slugify, start_game,
)

__all__ = [
    "LATE_AFTER", "SUBMISSION_SOURCES", "Game", "OperationError", "Opening", "Rejected", "Submitted",
    "add_co_master", "add_player", "answer_pending", "close_and_resolve", "close_now", "create_game",
    "current_phase", "current_state", "desk", "draw_roles", "due_phase_ids", "latest_due_deadline",
    "edit_prepared", "engine_actions", "ensure_user", "game_options", "game_schedule", "game_tz",
    "choices_now", "too_late", "latest_actions", "latest_actions_of", "legal_choices", "lock_game", "log",
    "open_phase_for", "opening", "prepare_game", "publish", "reader_tz", "resolve_due",
    "resolve_phase", "seats", "settle", "slugify", "start_game", "submit", "timing", "windows",
]
