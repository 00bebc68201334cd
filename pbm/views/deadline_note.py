"""What a page says beside a deadline the Masters changed (issue 31: "every change of a
deadline reaches every player it concerns, by mail and on the pages"): that the game is
paused and no deadline runs, or that the deadline was moved, and what it was. Read from
the desk's log, the operations' own record of each change, so the page says what the
mail of ``pbm/telling/deadlines.py`` told."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import render
from ..i18n import gettext_in
from ..models import Game, MasterLog, PhaseRow, PhaseStatus

# The desk's log actions that change the open phase's deadline (pbm/operations/desk.py).
MOVED, PAUSED, RESUMED = "extend", "pause", "resume"


def deadline_note(session: Session, game: Game, phase: PhaseRow | None, lang: str, tz: str) -> str | None:
    """The sentence for ``phase``'s deadline, or None when nobody changed it."""
    if phase is None or phase.status != PhaseStatus.OPEN or not phase.has_deadline:
        return None
    if game.paused_at is not None:
        return gettext_in(lang, "The game is paused since %(when)s: no deadline runs until the Masters "
                                "resume it.", when=render.deadline_text(game.paused_at, lang, tz))
    last = session.scalars(
        select(MasterLog).where(MasterLog.game_id == game.id, MasterLog.action.in_((MOVED, RESUMED)),
                                MasterLog.at >= phase.starts_at)
        .order_by(MasterLog.at.desc(), MasterLog.id.desc()).limit(1)).first()
    if last is None:
        return None
    if last.action == RESUMED:
        return gettext_in(lang, "The game was paused and has resumed: this phase kept the time it had left.")
    old = last.details.get("old")
    if last.details.get("phase") != phase.index or not old:
        return None
    was = render.deadline_text(datetime.fromisoformat(old), lang, tz)
    return gettext_in(lang, "The Masters moved this deadline: it was %(old)s.", old=was)
