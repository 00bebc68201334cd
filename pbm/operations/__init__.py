"""Everything that changes a game: the only package that writes one, asking its
ruleset (engine/interface.py) for every rule.

- ``games``: create a game, seat its players, draw and deal the roles, open phases;
- ``actions``: every way in (web form, mail, a Master on a player's behalf) ends
  in ``submit``;
- ``boundary``: every deadline ends in ``resolve_phase``, then ``publish``;
- ``timing``: when a moment ends (calendar, answer window, narrator);
- ``desk``: what the Masters do beyond that (answers, close now, pause, preview,
  roll back, interventions);
- ``table``: a game at the table run from the narrator's phone (players without
  accounts, the night script's taps, final votes; callers import the module).
- ``seats``: the people behind the seats (substitutes, volunteers, absences).
- ``windows`` and ``window_mail``: answer windows (more time, standing answers) and
  their mail; ``masters_mail``: what the Masters are mailed as moments are published
  (the ruleset's ``masters_report``).

Functions take a session and the current time from their caller and never
commit, except ``resolve_phase``, ``close_now`` and ``table.close_moment``, which
are their own unit of work.

The names below are the package's public face: callers write
``from pbm import operations; operations.submit(...)``.
"""
from __future__ import annotations

from engine.core import Rejected

from ..models import Game
from . import desk, seats, timing, windows
from .actions import (
    Opening, Submitted, describe_submission, engine_actions, latest_actions, latest_actions_of,
    legal_choices, lock_game, open_phase_for, opening, submit,
)
from .base import (
    MAIL_SOURCES, OperationError, _mail_context, _store_events, current_phase, current_state,
    game_options, game_schedule, game_tz, load_seats, log, reader_tz,
)
from .boundary import (
    LATE_AFTER, _needs_masters, _resolve_into, due_phase_ids, publish, resolve_due, resolve_phase,
    settle,
)
from .desk import answer_pending, close_now
from .games import (
    _open_phase, add_player, create_game, draw_roles, edit_prepared, ensure_user, prepare_game,
    slugify, start_game,
)

__all__ = [
    "LATE_AFTER", "MAIL_SOURCES", "Game", "OperationError", "Rejected",
    "Submitted", "add_player", "answer_pending", "close_now", "create_game", "current_phase",
    "current_state", "describe_submission", "desk", "draw_roles", "due_phase_ids", "edit_prepared",
    "engine_actions", "ensure_user", "Opening", "opening", "latest_actions_of", "game_options", "game_schedule", "game_tz", "latest_actions",
    "legal_choices", "load_seats", "lock_game", "log", "open_phase_for", "reader_tz", "prepare_game",
    "publish", "resolve_due", "resolve_phase", "seats", "settle", "slugify", "start_game",
    "submit", "timing", "windows",
]
