"""Answer windows (WINDOW timing): who is asked, more time, standing answers, and
settling a window as soon as it is complete.

A window's deadline is the game's answer window from when it opens
(``timing.span``). A player among its answerers may have it extended by one more
window's length, a limited number of times per game (``extensions_allowed``). A
player may leave answers standing (the ruleset's ``standing_answers``); as each
window opens the service submits what they make, through ``submit`` with source
``standing``, so the log and the page show it like any answer.

Closing: ``timing.close_if_complete`` moves a complete window's deadline to now, in
the transaction of the answer that completed it. Whoever committed that answer (a
web request, the mail ingest) then calls ``boundary.settle``, which resolves the game's due
windows at once, each in its own transaction (``boundary.resolve_phase``), so the
next window opens within the request instead of at the worker's next tick (up to
ten seconds later). The worker still resolves whatever is due, so a crash between
the commit and ``settle`` loses nothing.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from engine.core import GameState, Rejected
from engine.registry import get_ruleset

from .. import calendar, hooks
from ..i18n import gettext_in
from ..mail import outbound as mailer
from ..models import Game, GameStatus, PhaseRow, PhaseStatus, Seat, User
from .timing import IN_WINDOWS, answer_window, moments, taking_answers
from .actions import latest_actions, submit
from .base import OperationError, current_phase, log

DEFAULT_EXTENSIONS = 2
MAX_EXTENSIONS = 10


def extensions_allowed(game: Game) -> int:
    """How many times each player may extend a window in this game (a setting)."""
    value = (game.schedule or {}).get(calendar.EXTENSIONS)
    return DEFAULT_EXTENSIONS if value is None else int(value)


def checked_extensions(value: int) -> int:
    if not 0 <= int(value) <= MAX_EXTENSIONS:
        raise OperationError("extensions", max=MAX_EXTENSIONS)
    return int(value)


def asked(game: Game, phase: PhaseRow) -> list[str]:
    """The seats this window asks an answer of (the ruleset's answerers with a form now)."""
    state = GameState.from_dict(phase.state_before)
    ruleset = get_ruleset(game.ruleset)
    return [n for n in ruleset.timing(state).answerers if ruleset.forms(state, n)]


def waiting_for(session: Session, game: Game, phase: PhaseRow) -> list[str]:
    """Who still has to answer the window (asked, and no answer recorded)."""
    answered = {r.seat.name for r in latest_actions(session, phase)}
    return [n for n in asked(game, phase) if n not in answered]


def extend(session: Session, config: dict[str, Any], game: Game, seat: Seat, now: datetime,
           expected_phase_id: int | None = None) -> PhaseRow:
    """One more window's length for the open window, asked by one of its answerers;
    announced (``hooks.deadline_changed``), so the others hear of the new deadline."""
    phase = current_phase(session, game)
    if not taking_answers(game, phase, now):
        raise Rejected("moment_passed")
    if expected_phase_id is not None and expected_phase_id != phase.id:
        raise Rejected("moment_passed")
    if seat.name not in asked(game, phase):
        raise Rejected("extension_not_asked")
    if seat.extensions_used >= extensions_allowed(game):
        raise Rejected("no_extensions_left", allowed=extensions_allowed(game))
    old = phase.ends_at
    phase.ends_at = old + answer_window(game)
    seat.extensions_used += 1
    log(session, game, None, "extend_window", now, player=seat.name, phase=phase.index,
        old=old.isoformat(), new=phase.ends_at.isoformat())
    hooks.announce(hooks.deadline_changed, IN_WINDOWS, hooks.DeadlineChanged(
        session, config, game, now, phase=phase, old=old, new=phase.ends_at, why=hooks.MORE_TIME,
        seats=[seat]))
    return phase


def set_standing(session: Session, config: dict[str, Any], game: Game, seat: Seat,
                 keys: list[str], now: datetime, by: User | None = None) -> list[str]:
    """Store the player's standing answers (keys the ruleset offers) and apply them
    to the window open now, if it asks this player and they have not answered.
    ``by``: a Master who set them for the player (a mail under "PER: Nome", the desk's
    form): the log names them, and the player is told, as for every move made in
    their name."""
    offered = [k for k, _label in get_ruleset(game.ruleset).standing_answers(_state(game))]
    if not offered:  # a game without answer windows has nothing to answer for anyone
        raise Rejected("not_now")
    # One the game no longer offers but the seat holds (set before it was refused) goes quietly.
    unknown = [k for k in keys if k not in offered and k not in (seat.standing or [])]
    if unknown:
        raise Rejected("unknown_standing", keys=unknown)
    seat.standing = [k for k in offered if k in keys]  # the ruleset's order
    log(session, game, by, "standing_answers", now, player=seat.name, standing=seat.standing,
        **({"by_master": True} if by is not None else {}))
    if by is not None:
        _tell_player(session, config, game, seat, by, now)
    phase = current_phase(session, game)
    if phase is not None and phase.status == PhaseStatus.OPEN and game.status == GameStatus.RUNNING:
        apply_standing(session, config, game, phase, now, only=seat)
    return seat.standing


def change_standing(session: Session, config: dict[str, Any], game: Game, seat: Seat,
                    command: dict[str, Any], now: datetime, by: User | None = None) -> list[str]:
    """A mail line about the player's standing answers (``engine.interface.STANDING``):
    ``standing`` on (added) or off (taken back); off without a key takes them all back;
    ``list`` changes nothing (the receipt says what stands).
    The result is stored and applied as ``set_standing`` does for the game page."""
    key, on = command.get("standing"), bool(command.get("on", True))
    current = list(seat.standing or [])
    if command.get("list"):  # "RISPOSTE PERMANENTI": what stands now, nothing changed
        return current
    if not key and on:  # "SEMPRE SFIDO" and nothing after it
        raise Rejected("standing_missing")
    if not key:
        keys: list[str] = []
    elif on:
        keys = current + [str(key)]
    else:
        keys = [k for k in current if k != key]
    return set_standing(session, config, game, seat, keys, now, by=by)


def _tell_player(session: Session, config: dict[str, Any], game: Game, seat: Seat, by: User,
                 now: datetime) -> None:
    """The copy a player gets of standing answers a Master set in their name."""
    if not seat.mailable:
        return
    lang = seat.user.lang
    answers = "; ".join(standing_labels(game, list(seat.standing), lang)) or gettext_in(lang, "none")
    mailer.queue(session, config, to=seat.user.email, template="on_behalf_copy", lang=lang, now=now,
                 game=game, seat=seat, kind="on_behalf_copy", context={
                     "master": by.name, "source": "", "phase_label": None, "deadline": None,
                     "lines": [gettext_in(lang, "Standing answers: %(answers)s.", answers=answers)]})


def _state(game: Game) -> GameState | None:
    """The game's state, for what its set-up allows (a Complots variant's characters)."""
    return GameState.from_dict(game.state) if game.state else None


def standing_labels(game: Game, keys: list[str], lang: str) -> list[str]:
    """The standing answers as the player reads them (the ruleset's labels)."""
    labels = dict(get_ruleset(game.ruleset).standing_answers(_state(game)))
    return [(labels.get(k) or {}).get(lang) or (labels.get(k) or {}).get("it") or k for k in keys]


def apply_standing(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                   now: datetime, only: Seat | None = None) -> list[str]:
    """Submit, for each asked player without an answer yet, what their standing
    answers make in this window. Returns the names answered for."""
    state = GameState.from_dict(phase.state_before)
    if not moments(game, state).takes_standing_answers or not taking_answers(game, phase, now):
        return []
    ruleset = get_ruleset(game.ruleset)
    answered = {r.seat_id for r in latest_actions(session, phase)}
    done = []
    for seat in game.seats:
        if (only is not None and seat is not only) or not seat.standing or seat.disqualified:
            continue
        if seat.id in answered:
            continue
        submission = ruleset.standing_answer(state, seat.name, list(seat.standing))
        if not submission:
            continue
        try:
            with session.begin_nested():
                submit(session, config, game, seat, submission, source="standing", now=now,
                       expected_phase_id=phase.id)
            done.append(seat.name)
        except Rejected:
            continue  # the window took a turn the ruleset did not foresee: the player answers
    return done
