"""What the Masters are mailed as a moment is published, as the ruleset asks
(``masters_report``): the full report of the moment (a Lupus phase by mail, read on
the morning it is published), the whole game so far (a narrator at a table, who needs
no mail while playing, gets the record once the game is over), or nothing. A listener
of ``hooks.phase_published`` for the moments that are not answer windows (the Masters
follow a game of minutes-long windows on the desk)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import PRIVATE, PUBLIC, Event, GameState
from engine.texts import names as names_text
from engine.interface import REPORT_GAME, REPORT_MOMENT, Viewer
from engine.registry import get_ruleset

from .. import archive, hooks, visibility
from ..i18n import gettext_in
from ..mail import outbound as mailer
from ..models import EventRow, Game, PhaseRow
from ..operations.base import mail_context, reader_tz
from ..operations.timing import moments
from .results_mail import resolution_events

MASTERS = Viewer(master=True)


def report_lines(rows: Sequence[EventRow | Event], ruleset: str, lang: str) -> list[str]:
    """Every event as the Masters see it, in their language, saying whom it was for: the
    bulletin's lines, what a player was told quoted as told to them (their "you" stays
    inside the quotes), the Masters' own (worded for them in the third person)."""
    out = []
    for s in visibility.seen(rows, MASTERS, ruleset, lang):
        text = s.text or s.event.kind
        if s.visibility == PUBLIC:
            out.append(gettext_in(lang, "For everyone: %(text)s", text=text))
        elif s.visibility == PRIVATE and s.event.to:
            out.append(gettext_in(lang, "To %(names)s: “%(text)s”", text=text,
                                  names=names_text(list(s.event.to), lang)))
        else:
            out.append(gettext_in(lang, "Masters only: %(text)s", text=text))
    return out


def masters_report(_moments: object, news: hooks.PhasePublished) -> None:
    """After a phase was published, the Masters' report the ruleset asks for."""
    session, config, game, phase, now = news.session, news.config, news.game, news.phase, news.now
    wanted = get_ruleset(game.ruleset).masters_report(news.state)
    if wanted == REPORT_MOMENT:
        for m in game.masters:
            lang = m.user.lang
            mailer.queue(session, config, to=m.user.email, template="master_report", lang=lang,
                         now=now, game=game, context=mail_context(game, phase, lang, {
                             "lines": report_lines(resolution_events(news), game.ruleset, lang)},
                             reader=m.user))
    elif wanted == REPORT_GAME:
        _mail_game(session, config, game, phase, now)


def _mail_game(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
               now: datetime) -> None:
    phases = archive.published_phases(session, game)
    rows: dict[int | None, list[EventRow]] = {None: []}
    for row in session.scalars(select(EventRow).where(EventRow.game_id == game.id)
                               .order_by(EventRow.phase_id, EventRow.seq)):
        rows.setdefault(row.phase_id, []).append(row)
    for m in game.masters:
        lang, tz = m.user.lang, reader_tz(game, m.user)
        told = [{"label": _label(game, p, lang, tz),
                 "lines": report_lines(rows.get(p.id, []), game.ruleset, lang)} for p in phases]
        mailer.queue(session, config, to=m.user.email, template="master_game_report", lang=lang,
                     now=now, game=game, context=mail_context(game, phase, lang, {
                         "setup_lines": report_lines(rows[None], game.ruleset, lang),
                         "moments": told, "over": game.state is not None
                         and GameState.from_dict(game.state).over}, reader=m.user))


def _label(game: Game, phase: PhaseRow, lang: str, tz: str) -> str:
    return moments(game, GameState.from_dict(phase.state_before)).record_label(game, phase, lang, tz)
