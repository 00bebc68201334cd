"""What every operation shares: the service's refusal, the Masters' log, the
game's calendar and the context every mail about a phase starts from."""
from __future__ import annotations

import re
import unicodedata

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.orm import Session

from engine.core import Event, GameState

from .. import calendar, render, typed_text
from ..models import EventRow, Game, MasterLog, PhaseRow, User

# Where a submission comes from: a page, a mail, a Master on the player's behalf, or
# the player's standing answers applied by the service as a window opens.
SUBMISSION_SOURCES = ("web", "mail", "master", "standing")


def slugify(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:50] or "game"


class OperationError(Exception):
    """A request the service refuses (not a rule of the game): code + params."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


def check_typed_name(*names: str | None) -> None:
    """Refuse a name someone typed that holds a hidden character (typed_text.py):
    a line break in a game's name broke every mail of the game."""
    for name in names:
        if typed_text.name_problem(name) is not None:
            raise OperationError("name_control")  # typed_text.NAME_CONTROL


def game_schedule(game: Game) -> calendar.Schedule:
    return calendar.game_schedule(game.ruleset, game.schedule or None)


def game_options(game: Game) -> dict[str, Any]:
    """The game's options as the ruleset reads them (``BaseRuleset.holds``)."""
    return {"review_contradictions": bool(game.review_contradictions)}


def game_tz(game: Game) -> str:
    return game_schedule(game).tz


def log(session: Session, game: Game, user: User | None, action: str, now: datetime,
        **details: Any) -> None:
    session.add(MasterLog(game_id=game.id, user_id=user.id if user else None, at=now,
                          action=action, details=details))


def current_phase(session: Session, game: Game, *, lock: bool = False, reuse: bool = False) -> PhaseRow | None:
    """The game's latest phase, asked afresh (one may open between two calls).

    ``reuse``: only its id is asked, and the row itself taken from those the session
    holds when it holds it (a mail batch keeps what it loads): a query for the full row
    would build it, states and all, only for the session to hand back the object it
    already has. ``lock``: held (FOR UPDATE) until the transaction ends
    and read afresh even if the session already holds the row (it keeps objects across
    commits). On PostgreSQL a resolver holding the row makes this wait, then see the
    phase resolved; SQLite ignores FOR UPDATE, but this read (or an earlier one) fixes
    the transaction's snapshot, and a resolver committing after it makes this
    transaction's first write fail instead."""
    if reuse and not lock:
        phase_id = session.scalar(_CURRENT_PHASE_ID, {"game_id": game.id})
        return None if phase_id is None else session.get(PhaseRow, phase_id)
    if lock:
        return session.scalar(_CURRENT_PHASE.with_for_update().execution_options(populate_existing=True),
                              {"game_id": game.id})
    return session.scalar(_CURRENT_PHASE, {"game_id": game.id})


# Built once: every page of a game asks it, and building a statement costs more
# Python than running it.
_CURRENT_PHASE = (select(PhaseRow).where(PhaseRow.game_id == bindparam("game_id"))
                  .order_by(PhaseRow.index.desc()).limit(1))
_CURRENT_PHASE_ID = (select(PhaseRow.id).where(PhaseRow.game_id == bindparam("game_id"))
                     .order_by(PhaseRow.index.desc()).limit(1))


def current_state(game: Game) -> GameState | None:
    return GameState.from_dict(game.state) if game.state else None


def reader_tz(game: Game, reader: User | None) -> str:
    """The zone a reader's mail shows times in: theirs if they chose one, else the game's."""
    return (reader.tz if reader is not None and reader.tz else None) or game_tz(game)


def mail_context(game: Game, phase: PhaseRow, lang: str, extra: dict[str, Any],
                  reader: User | None = None) -> dict[str, Any]:
    tz = reader_tz(game, reader)
    return {"phase": phase, "phase_label": render.phase_label(phase, lang, tz),
            "deadline": render.deadline_text(phase.ends_at, lang, tz), **extra}


def store_events(session: Session, game: Game, phase: PhaseRow | None, events: list[Event],
                  published: bool) -> None:
    if not events:
        return
    # One INSERT for them all (a night of forty players has dozens).
    session.execute(insert(EventRow.__table__), [
        {"game_id": game.id, "phase_id": phase.id if phase else None, "seq": seq, "kind": e.kind,
         "data": e.data, "visibility": e.visibility, "recipients": list(e.to), "published": published}
        for seq, e in enumerate(events)])
