"""Reminders before a deadline, to living players who have not acted yet."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import GameState
from engine.registry import get_ruleset

from .. import render
from ..mail import outbound as mailer
from ..models import ActionRow, Game, PhaseRow, running_phases
from ..seating import load_seats
from .base import reader_tz
from .timing import moments

def who_must_act(state: GameState, ruleset_key: str, player: str) -> set[str]:
    """The kinds of action this player is expected to send this moment (the
    ruleset leaves out the optional ones: anyone may send them, nobody must)."""
    return set(get_ruleset(ruleset_key).required_kinds(state, player))


def send_due(session: Session, config: dict[str, Any], now: datetime) -> int:
    """Mail each living player who has not acted, once per phase, when the
    deadline is within REMINDER_BEFORE_MINUTES; players can turn this off.
    A narrator's moment has no deadline (timing.NO_DEADLINE), so it is never due."""
    before = timedelta(minutes=int(config["REMINDER_BEFORE_MINUTES"]))
    # Locked, and read as they are now: a second worker sending reminders at
    # the same moment waits, then sees who was reminded instead of mailing them again.
    phases = session.scalars(running_phases(PhaseRow).where(PhaseRow.ends_at > now, PhaseRow.ends_at <= now + before)
                             .with_for_update(of=PhaseRow).execution_options(populate_existing=True)).all()
    sent = 0
    messages = []
    for phase in phases:
        game = session.get(Game, phase.game_id)
        state = GameState.from_dict(phase.state_before)
        if not moments(game, state).reminder_due(phase, before):
            continue
        acted = {(seat_id, kind) for seat_id, kind in session.execute(
            select(ActionRow.seat_id, ActionRow.kind).where(ActionRow.phase_id == phase.id))}
        reminded = set(phase.reminded or [])
        # Every seat's user is read (its address, language, whether it wants reminders):
        # in one query, not one a seat, since every game's deadline falls at once.
        for seat in load_seats(session, game):
            if seat.id in reminded or seat.disqualified or not seat.mailable or not seat.user.reminders:
                continue
            p = state.player(seat.name)
            if not p.alive:
                continue
            missing = {k for k in who_must_act(state, game.ruleset, seat.name) if (seat.id, k) not in acted}
            if not missing:
                continue
            lang, tz = seat.user.lang, reader_tz(game, seat.user)
            rules = get_ruleset(game.ruleset)
            messages.append(mailer.compose(
                config, to=seat.user.email, template="reminder", lang=lang, now=now,
                game=game, seat=seat, phase_id=phase.id, context={
                    "phase_label": render.phase_label(phase, lang, tz),
                    "deadline": render.deadline_text(phase.ends_at, lang, tz),
                    "missing": [rules.describe_action(k, lang) for k in sorted(missing)]}))
            reminded.add(seat.id)
            sent += 1
        phase.reminded = sorted(reminded)
    # One INSERT for them all: every game's deadline falls at once.
    mailer.queue_all(session, messages)
    return sent
