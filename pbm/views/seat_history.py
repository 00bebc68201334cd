"""What a seat has been told, as its player reads it: the role letter's lines and each
published phase's private results, through the one filter (a substitute's first mail
carries it)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.interface import Viewer

from .. import render, visibility
from ..models import EventRow, Game, PhaseRow, Seat
from ..operations.base import reader_tz


def seat_history(session: Session, game: Game, seat: Seat, lang: str) -> dict[str, Any]:
    """What the seat has been told, as its player reads it: the role letter's lines
    (the set-up) and each published phase's private results, through the one filter."""
    viewer = Viewer(player=seat.name)
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game.id,
                                                  EventRow.visibility == "private",
                                                  EventRow.published.is_(True))
                           .order_by(EventRow.phase_id, EventRow.seq)).all()
    mine = [r for r in rows if seat.name in (r.recipients or [])]
    phases = {p.id: p for p in session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id))}
    tz = reader_tz(game, seat.user)
    letter: list[str] = []
    results: list[tuple[str, list[str]]] = []
    for seen in visibility.seen(mine, viewer, game.ruleset, lang):
        text = seen.text
        if not text:
            continue
        if seen.phase_id is None:
            letter.append(text)
            continue
        label = render.phase_label(phases[seen.phase_id], lang, tz)
        if results and results[-1][0] == label:
            results[-1][1].append(text)
        else:
            results.append((label, [text]))
    return {"letter": letter, "results": results}
