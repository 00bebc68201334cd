"""A seat's parsed commands carried out, whoever brought them: a mail (the player's own
or a Master's forward) or the Masters' on-behalf box on the desk. Every kind of command
(a submission, a request for more time, a standing answer) is handled and worded the
same way whichever door it came through, so a Master pasting a player's SMS gets what
the player would have got by mail."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from engine.core import Rejected
from engine.interface import MORE_TIME, STANDING

from .. import render
from ..i18n import gettext_in
from ..mail.reading.wording import examples
from ..models import Game, PhaseRow, Seat, User
from . import windows
from .actions import Opening, choices_now, opening, submit
from .base import current_phase, game_tz
from .timing import moments


@dataclass
class Carried:
    """What was done and what was refused, in the reader's language."""
    applied: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class Origin:
    """Where the commands came from, as the game's log records it."""
    by: User | None = None           # a Master acting for the seat, or None: the player
    source: str = "mail"             # mail, web, master
    detail: str = ""                 # for a Master: email, sms, phone...
    inbound_id: int | None = None
    arrived_at: datetime | None = None


def carry_out(session: Session, config: dict[str, Any], game: Game, seat: Seat,
              commands: list[dict[str, Any]], *, lang: str, now: datetime, origin: Origin,
              phase: PhaseRow | None = None, too_late: bool = False) -> Carried:
    """Each command in its own savepoint, so one refusal loses none of the others.
    ``too_late``: the commands answer a moment that has passed (a reply to an old mail);
    only standing answers, which belong to the seat and not to a moment, still count."""
    done = Carried()
    if phase is None:
        phase = current_phase(session, game)
    opened: Opening | None = None  # read at the first submission, for them all
    standing = None  # the seat's standing answers once these commands are kept
    for command in commands:
        kind = command.get("kind")
        if kind == STANDING:
            kept = _standing(session, config, game, seat, command, lang, now, done, by=origin.by)
            standing = standing if kept is None else kept
            continue
        what = "; ".join(render.describe_submission(abridged(command), lang, game.ruleset))
        if too_late:
            done.errors.append(f"{what}: " + render.rejection(
                moments(game).late, {}, game.ruleset, lang))
            continue
        if kind == MORE_TIME:
            _more_time(session, config, game, seat, phase, lang, now, done)
            continue
        if opened is None:
            opened = _opening(session, game, phase, now, origin)
        try:
            with session.begin_nested():
                submit(session, config, game, seat, command, source=origin.source, now=now,
                                  by_user=origin.by, source_detail=origin.detail,
                                  inbound_id=origin.inbound_id, arrived_at=origin.arrived_at,
                                  opened=opened)
            done.applied.append(what)
        except Rejected as exc:
            done.errors.append(f"{what}: " + render.rejection(exc.code, exc.params, game.ruleset, lang)
                               + valid_hint(game, phase, seat, command, lang))
    if standing is not None:  # one line for all of them: what stands now
        done.applied.append(gettext_in(
            lang, "Standing answers: %(answers)s.",
            answers="; ".join(windows.standing_labels(game, standing, lang))
            or gettext_in(lang, "none")))
    return done


def _opening(session: Session, game: Game, phase: PhaseRow | None, now: datetime,
             origin: Origin) -> Opening | None:
    """The phase taking a player's own commands and its state, read once for all of them
    from the phase just looked up, which ``opening`` locks and checks is still open. None for a Master's (``submit`` looks for a draft too) and when no phase takes
    them now: ``submit`` then looks again and refuses in its own words."""
    if origin.by is not None or phase is None:
        return None
    try:
        return opening(session, game, now, arrived_at=origin.arrived_at, current=phase)
    except Rejected:
        return None


def _more_time(session: Session, config: dict[str, Any], game: Game, seat: Seat,
               phase: PhaseRow | None, lang: str, now: datetime, done: Carried) -> None:
    try:
        with session.begin_nested():
            extended = windows.extend(session, config, game, seat, now,
                                                 expected_phase_id=phase.id if phase else None)
        done.applied.append(gettext_in(
            lang, "More time: you may answer until %(deadline)s",
            deadline=render.deadline_text(extended.ends_at, lang, game_tz(game))))
    except Rejected as exc:
        done.errors.append(render.rejection(exc.code, exc.params, game.ruleset, lang))


def _standing(session: Session, config: dict[str, Any], game: Game, seat: Seat,
              command: dict[str, Any], lang: str, now: datetime, done: Carried,
              by: User | None = None) -> list[str] | None:
    """A line about the player's standing answers, kept as the game page keeps them:
    the standing answers now, or None (refused, and the answer says why). ``by``: the
    Master who set them for the player (named in the log; the player is told)."""
    try:
        with session.begin_nested():
            return windows.change_standing(session, config, game, seat, command, now, by=by)
    except Rejected as exc:
        done.errors.append(render.rejection(exc.code, exc.params, game.ruleset, lang) + " " + gettext_in(
            lang, "For example: %(examples)s.",
            examples=", ".join(examples(game.ruleset, lang, {STANDING}))))
        return None


def valid_hint(game: Game, phase: PhaseRow | None, seat: Seat, command: dict[str, Any],
               lang: str) -> str:
    """What the player can write now instead of a refused command, in the game's words
    (``operations.choices_now``); nothing when nothing is open to them: the refusal
    itself says why."""
    found = choices_now(game, phase, seat, command, lang)
    if not found or not found[1]:
        return ""
    mode, valid = found
    if mode == "lines":
        return " " + gettext_in(lang, "You can write now: %(lines)s.", lines=" · ".join(valid))
    return " " + gettext_in(lang, "Valid choices: %(choices)s.", choices=", ".join(valid))


def abridge(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def abridged(command: dict[str, Any]) -> dict[str, Any]:
    """The command as an answer quotes it: a 200 KB line of free text is refused, not sent back."""
    return {k: abridge(v) if isinstance(v, str) else v for k, v in command.items()}
