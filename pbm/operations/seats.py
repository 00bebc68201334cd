"""The people behind the seats: substitutes, volunteers and absences.

A substitution hands a seat (its name in the game, its role, its history and its
submissions) to another person: the seat row keeps everything, only its user and
its reply token change, so the old player loses the reserved area and the mail
channel at once. ``SeatHolder`` rows keep who played which phases.

An absence is only ever declared: the Masters see it on the desk and decide
(pause, move a deadline); nothing here pauses or skips anything.
"""
from __future__ import annotations

import secrets
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session


from .. import hooks, render
from ..mail import outbound as mailer
from ..accounts import find_user
from ..models import (
    Absence, Game, GameStatus, PhaseRow, PhaseStatus, Seat, SeatHolder, User, Volunteer,
)
from .base import OperationError, check_typed_name, current_phase, log, reader_tz
from .games import ensure_user

# The longest extension of the current phase a substitution may give.
MAX_EXTENSION = timedelta(days=7)
# The longest absence one declaration covers, and the furthest ahead it may start.
MAX_ABSENCE = timedelta(days=60)


# --------------------------------------------------------------------------- volunteers

def volunteer(session: Session, game: Game, user: User, now: datetime) -> Volunteer:
    """Offer to take a seat of this game if one frees up."""
    if game.status == GameStatus.OVER:
        raise OperationError("game_over")
    if game.is_master(user):
        raise OperationError("master_plays")
    if any(s.user_id == user.id for s in game.seats):
        raise OperationError("already_playing")
    row = session.scalar(select(Volunteer).where(Volunteer.game_id == game.id,
                                                 Volunteer.user_id == user.id))
    if row is None:
        row = Volunteer(game_id=game.id, user_id=user.id, at=now)
        session.add(row)
        log(session, game, user, "volunteer", now, email=user.email)
        session.flush()
    return row


def withdraw_volunteer(session: Session, game: Game, user: User, now: datetime) -> None:
    row = session.scalar(select(Volunteer).where(Volunteer.game_id == game.id,
                                                 Volunteer.user_id == user.id))
    if row is not None:
        session.delete(row)
        log(session, game, user, "volunteer_withdrawn", now, email=user.email)


def volunteers(session: Session, game: Game) -> list[Volunteer]:
    return list(session.scalars(select(Volunteer).where(Volunteer.game_id == game.id)
                                .order_by(Volunteer.at, Volunteer.id)))


def decline(session: Session, game: Game, seat: Seat, now: datetime) -> None:
    """An invited player gives their seat back before the game starts (issue 31: they
    could not); the others keep their order, and a draw made with the seat is dropped,
    for the Masters to draw again. Once the game runs, a seat is handed over instead."""
    if game.status != GameStatus.SETUP:
        raise OperationError("game_started")
    log(session, game, seat.user, "declined", now, player=seat.name, email=seat.user.email if seat.user else "")
    game.seats.remove(seat)
    session.delete(seat)
    for position, other in enumerate(game.seats):
        other.position = position
    if game.prepared:
        game.prepared = None
    session.flush()


# --------------------------------------------------------------------------- substitutes

def substitute(session: Session, config: dict[str, Any], game: Game, seat: Seat, *, email: str,
               now: datetime, by: User, name: str = "", lang: str = "it",
               announced_as: str = "", extend_by: timedelta | None = None) -> SeatHolder:
    """Hand ``seat`` to the person with address ``email`` (an account is made if new).

    The seat keeps its name, role, history and submissions; the old player loses
    access at once (the seat's reply token changes too). Announced
    (``hooks.seat_taken``): the newcomer is mailed the role letter and every private
    result the seat has had, the old player that the seat is no longer theirs, the
    others who took it (pbm/telling/seat_mail.py). ``announced_as``:
    how the bulletin names the newcomer ("": only that a substitute came).
    ``extend_by`` moves the open phase's deadline that much later."""
    if game.status != GameStatus.RUNNING:
        raise OperationError("not_running")
    check_typed_name(name, announced_as)
    if extend_by is not None and not timedelta(0) <= extend_by <= MAX_EXTENSION:
        raise OperationError("extension_too_long")
    existing = find_user(session, email)
    newcomer, _created = (existing, False) if existing is not None else ensure_user(
        session, email=email, name=name or email.split("@")[0], lang=lang)
    if newcomer.id == seat.user_id or any(s.user_id == newcomer.id for s in game.seats):
        raise OperationError("email_taken", email=newcomer.email)
    if game.is_master(newcomer):
        raise OperationError("master_plays")
    phase = current_phase(session, game)
    index = phase.index if phase is not None else 0
    old = seat.user
    history = list(session.scalars(select(SeatHolder).where(SeatHolder.seat_id == seat.id)
                                   .order_by(SeatHolder.id)))
    if not history:  # the first holder played from the start
        session.add(SeatHolder(seat_id=seat.id, user_id=old.id, from_phase=0, to_phase=index - 1,
                               since=game.created_at, announced_as=""))
    else:
        history[-1].to_phase = index - 1
    holder = SeatHolder(seat_id=seat.id, user_id=newcomer.id, from_phase=index, to_phase=None,
                        since=now, announced_as=" ".join(announced_as.split())[:120])
    session.add(holder)
    seat.user_id = newcomer.id
    seat.user = newcomer
    seat.token = secrets.token_urlsafe(12)  # the old player's replies no longer count
    session.execute(Volunteer.__table__.delete().where(Volunteer.game_id == game.id,
                                                       Volunteer.user_id == newcomer.id))
    log(session, game, by, "substitute", now, player=seat.name, old=old.email, new=newcomer.email,
        phase=index, announced_as=holder.announced_as)
    if extend_by and phase is not None and phase.status == PhaseStatus.OPEN:
        old_end = phase.ends_at
        phase.ends_at = max(phase.ends_at, now) + extend_by
        log(session, game, by, "extend", now, phase=phase.index, old=old_end.isoformat(),
            new=phase.ends_at.isoformat())
    session.flush()
    hooks.announce(hooks.seat_taken, game, hooks.SeatTaken(session, config, game, now, seat=seat, holder=holder,
                                                           newcomer=newcomer, left=old, phase=phase))
    return holder


# --------------------------------------------------------------------------- absences

def declare_absence(session: Session, config: dict[str, Any], game: Game, seat: Seat, *,
                    first_day: date, last_day: date, note: str, now: datetime) -> Absence:
    """Record that the seat's player will be away and tell the Masters, who decide
    what follows."""
    if game.status == GameStatus.OVER:
        raise OperationError("game_over")
    if last_day < first_day:
        raise OperationError("absence_order")
    if last_day < now.date():
        raise OperationError("absence_past")
    if (last_day - first_day) > MAX_ABSENCE or (first_day - now.date()) > MAX_ABSENCE * 3:
        raise OperationError("absence_too_long")
    row = Absence(game_id=game.id, seat_id=seat.id, user_id=seat.user_id, first_day=first_day,
                  last_day=last_day, note=" ".join(note.split())[:1000], at=now)
    session.add(row)
    log(session, game, seat.user, "absence", now, player=seat.name, first_day=first_day.isoformat(),
        last_day=last_day.isoformat(), note=row.note)
    session.flush()
    phase = current_phase(session, game)
    for m in game.masters:
        lang, tz = m.user.lang, reader_tz(game, m.user)
        during = (phase is not None and phase.status == PhaseStatus.OPEN
                  and covers_deadline(row, phase, tz))
        mailer.queue(session, config, to=m.user.email, template="absence_declared", lang=lang, now=now,
                     game=game, context={
                         "player": seat.name, "first_day": render.day_text(first_day, lang),
                         "last_day": render.day_text(last_day, lang), "note": row.note, "during": during,
                         "phase_label": render.phase_label(phase, lang, tz) if phase else "",
                         "deadline": render.deadline_text(phase.ends_at, lang, tz) if phase else ""})
    return row


def covers_deadline(absence: Absence, phase: PhaseRow, tz: str) -> bool:
    """Whether the player is away on the day (in the game's zone) the phase ends."""
    from zoneinfo import ZoneInfo
    day = phase.ends_at.astimezone(ZoneInfo(tz)).date()
    return absence.first_day <= day <= absence.last_day


def withdraw_absence(session: Session, game: Game, seat: Seat, absence_id: int, now: datetime) -> None:
    row = session.get(Absence, absence_id)
    if row is None or row.game_id != game.id or row.seat_id != seat.id:
        raise OperationError("unknown_absence")
    log(session, game, seat.user, "absence_withdrawn", now, player=seat.name,
        first_day=row.first_day.isoformat(), last_day=row.last_day.isoformat())
    session.delete(row)


def absences(session: Session, game: Game, today: date, seat: Seat | None = None) -> list[Absence]:
    """The absences not yet over (of one seat, or of the whole game), soonest first."""
    if seat is not None:
        return list(session.scalars(_SEATS_ABSENCES, {"game_id": game.id, "today": today, "seat_id": seat.id}))
    return list(session.scalars(_ABSENCES, {"game_id": game.id, "today": today}))


# Built once (bound per call): every reserved page asks its seat's.
_ABSENCES = (select(Absence).where(Absence.game_id == bindparam("game_id"), Absence.last_day >= bindparam("today"))
             .order_by(Absence.first_day, Absence.id))
_SEATS_ABSENCES = _ABSENCES.where(Absence.seat_id == bindparam("seat_id"))
