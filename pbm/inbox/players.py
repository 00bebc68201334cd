"""A seat's commands by mail: a player's own reply (or a Master's forward for them,
masters.py), carried out for the phase it answers (operations/carry_out.py, the desk's
path too) and answered with a receipt."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import operations
from ..mail.reading.parse import ParsedMessage
from ..mail.reading.wording import describe_error
from ..models import Game, InboundRow, OutboxRow, PhaseRow, Seat, User
from ..operations.carry_out import Origin, carry_out
from .outcome import Outcome
from .receipts import commands_receipt, newest_mail_hint


def _aimed_phase(session: Session, parsed: ParsedMessage, game: Game) -> PhaseRow | None:
    """The phase the message answers: the one the mail it replies to invited."""
    # Which game and phase a mail was sent for never changes, and a batch holds
    # forty replies to the same few bulletins: each asked once a batch.
    sent_for = session.info.setdefault("sent_for", {})
    for ref in [parsed.in_reply_to, *reversed(parsed.references or [])]:
        if not ref:
            continue
        if ref not in sent_for:
            sent_for[ref] = session.execute(select(OutboxRow.game_id, OutboxRow.phase_id)
                                            .where(OutboxRow.message_id == ref).limit(1)).first()
        sent = sent_for[ref]
        if sent is not None and sent.game_id == game.id and sent.phase_id is not None:
            return session.get(PhaseRow, sent.phase_id)
    return None


def carry_out_for(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                  game: Game, seat: Seat, now: datetime, by: User | None,
                  reply_to_addr: str | None = None, reply_lang: str | None = None) -> Outcome:
    lang = reply_lang or seat.user.lang
    outcome = Outcome("processed")
    # Whether the phase still takes actions is checked under its lock by ``submit``.
    phase = operations.current_phase(session, game, reuse=True)
    for error in parsed.errors:
        key = error.get("command")
        if error.get("code") == "unknown_name" and key in ("vote", "target", "appoint", "elect"):
            # The parser knows every name; the reply lists only those valid now.
            valid = operations.legal_choices(game, phase, seat, key)
            if valid is not None:
                error = {**error, "candidates": valid}
        if error.get("code") == "question" and operations.legal_choices(game, phase, seat, key) == []:
            # "Voto Carla?" at night: no confirmation invited for what cannot be done now.
            error = {**error, "code": "question_not_now"}
        outcome.errors.append(describe_error(error, lang, game.ruleset))
    aimed = _aimed_phase(session, parsed, game)
    stale = aimed is not None and phase is not None and aimed.id != phase.id
    # An answer window's answer counts only for its own window (a stale "pass" must not
    # answer the next challenge); a calendar game's reply to any of its mails counts for
    # the phase open when it arrived, if its commands fit that phase (issue 22), never for
    # a phase that opened after it arrived (a mail read late).
    windowed = stale and not operations.timing.moments(game).replies_carry_over
    arrived_before = (stale and row.received_at is not None
                      and _aware(row.received_at) < _aware(phase.starts_at))
    done = carry_out(session, config, game, seat, parsed.commands, lang=lang, now=now, phase=phase,
                     too_late=windowed or arrived_before, origin=Origin(
                         by=by, source="master" if by else "mail",
                         detail=(parsed.source or "email") if by else "",
                         inbound_id=row.id, arrived_at=row.received_at))
    outcome.applied += done.applied
    outcome.errors += done.errors
    tz = operations.game_tz(game)
    late = windowed or arrived_before
    if stale and not late and done.errors:
        outcome.errors.append(newest_mail_hint(config, game, phase, lang, tz))
    commands_receipt(session, config, row, parsed, to=reply_to_addr or seat.user.email, lang=lang, now=now,
                     game=game, seat=seat, by=by, phase=phase, shown=aimed if late else phase, late=late,
                     tz=tz, applied=outcome.applied, errors=outcome.errors)
    return outcome


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)
