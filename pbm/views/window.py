"""What a game of answer windows shows one player (or the public), as its page and
its mail (pbm/telling/window_mail.py) both show it: the table, the open window and the
round so far.

Everything is worded by the ruleset (``public_table``, ``describe``, ``form_title``,
``describe_choice``, ``vocabulary``) and filtered by ``visible``: a player's mail and
page show their own hand and private events only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import GameState
from engine.interface import MORE_TIME, STANDING, Viewer
from engine.registry import get_ruleset

from .. import render, visibility
from ..mail.reading.wording import examples
from ..mail.reading.wording import lines_for_form as answer_lines
from ..models import EventRow, Game, PhaseRow, Seat
from .deadline_note import deadline_note
from ..operations.base import game_tz
from ..operations.timing import answer_window
from ..operations.windows import asked, extensions_allowed, standing_labels, waiting_for


def round_phases(session: Session, game: Game, upto: PhaseRow) -> list[PhaseRow]:
    """The phases of the round ``upto`` belongs to: back to the last that opened a round."""
    ruleset = get_ruleset(game.ruleset)
    rows = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                  PhaseRow.index <= upto.index)
                           .order_by(PhaseRow.index.desc()).limit(60)).all()
    out = []
    for row in rows:
        out.append(row)
        if ruleset.reports_to_all(GameState.from_dict(row.state_before)):
            break
    return list(reversed(out))


def lines_for(items: list[Any], ruleset: str, viewer: Viewer, lang: str) -> list[str]:
    """Events as this viewer may read them: the one filter (pbm/visibility.py)."""
    return visibility.lines(items, viewer, ruleset, lang)


def round_events(session: Session, phases: list[PhaseRow], published_only: bool = True) -> list[EventRow]:
    if not phases:
        return []
    order = {p.id: p.index for p in phases}
    query = select(EventRow).where(EventRow.phase_id.in_(list(order)))
    if published_only:
        query = query.where(EventRow.published.is_(True))
    rows = session.scalars(query).all()
    return sorted(rows, key=lambda r: (order[r.phase_id], r.seq))


@dataclass
class SharedWindow:
    """What every seat's view of one window shares, read once per window."""

    state: GameState | None
    open_state: GameState | None = None
    asked: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    round_rows: list[EventRow] = field(default_factory=list)


def shared_window(session: Session, game: Game, phase: PhaseRow | None, now: datetime) -> SharedWindow:
    shared = SharedWindow(GameState.from_dict(game.state) if game.state else None)
    if phase is None:
        return shared
    shared.round_rows = round_events(session, round_phases(session, game, phase))
    if phase.status == "open" and now < phase.ends_at:
        shared.open_state = GameState.from_dict(phase.state_before)
        shared.asked = asked(game, phase)
        shared.waiting = waiting_for(session, game, phase)
    return shared


def window_context(session: Session, game: Game, phase: PhaseRow | None, seat: Seat | None,
                   lang: str, now: datetime, shared: SharedWindow | None = None) -> dict[str, Any]:
    """The table, the open window and the round so far, as one seat may see them
    (``seat`` None: a reader of the public page)."""
    ruleset = get_ruleset(game.ruleset)
    viewer = Viewer(player=seat.name if seat else None)
    shared = shared or shared_window(session, game, phase, now)
    ctx: dict[str, Any] = {"table": [], "forms": [], "waiting": [], "asked": [], "deadline": None,
                           "round_lines": [], "window_title": None, "phase_id": None,
                           "answer_lines": [], "standing": [], "standing_words": [], "more_time": None, "ends_at": None,
                           "heading": None, "open_state": shared.open_state, "extended_by": None,
                           "extended": False, "deadline_note": None}
    if shared.state is not None:
        ctx["table"] = [(p.title, p.lines) for p in ruleset.public_table(shared.state, viewer, lang)]
        ctx["heading"] = ruleset.moment_heading(shared.state, lang)
    if phase is None:
        return ctx
    ctx["round_lines"] = lines_for(shared.round_rows, game.ruleset, viewer, lang)
    if shared.open_state is not None:
        ctx["asked"], ctx["waiting"] = shared.asked, shared.waiting
        # An answer window ends on the second: its deadline says the seconds too.
        ctx["deadline"] = render.deadline_text(phase.ends_at, lang, game_tz(game), seconds=True)
        ctx["deadline_note"] = deadline_note(session, game, phase, lang, game_tz(game))
        ctx["ends_at"] = phase.ends_at.isoformat()
        ctx["extended"] = phase.ends_at > phase.starts_at + answer_window(game)
        ctx["phase_id"] = phase.id
        if seat is not None:
            left = extensions_allowed(game) - (seat.extensions_used or 0)
            word = next((k for k in ruleset.vocabulary().keywords
                         if k.fixed.get("kind") == MORE_TIME), None)
            if left > 0 and word is not None:
                ctx["more_time"] = {"word": (word.en if lang == "en" else word.it)[0], "left": left}
            ctx["standing"] = standing_labels(game, list(seat.standing or []), lang)
            if ruleset.standing_answers():  # how to leave one by mail, in the game's words
                ctx["standing_words"] = examples(game.ruleset, lang, {STANDING})
            forms = ruleset.forms(shared.open_state, seat.name)
            ctx["forms"] = forms
            ctx["answer_lines"] = [line for f in forms for line in answer_lines(ruleset, f, lang)]
            ctx["window_title"] = next((ruleset.form_title(f, lang) for f in forms), None)
    return ctx
