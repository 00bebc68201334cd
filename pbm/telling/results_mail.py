"""The results of a calendar phase (or a table's moment), mailed to every player
who reads them by mail: the bulletin, the vote, and each seat's private lines, worked
out once for each language and time zone and once for each seat (``SharedResults``).
A listener of ``hooks.phase_published`` for the moments that are not answer windows
(those have their own, window_mail.py); each reader's choice of every mail, a digest
or the web only is the digests' (pbm/mail/outbound/digests.py)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import Event
from engine.interface import Viewer

from .. import archive, hooks, render, visibility
from ..mail import outbound as mailer
from ..mail.outbound import digests
from ..models import EventRow, Game, PhaseRow
from ..operations.base import reader_tz


def resolution_events(news: hooks.PhasePublished) -> Sequence[EventRow | Event]:
    """The published phase's own events (the Masters' interventions were told when
    made), as the publisher had them or read back."""
    if news.events is not None:
        return news.events
    return news.session.scalars(select(EventRow).where(EventRow.phase_id == news.phase.id, EventRow.seq >= 0)
                                .order_by(EventRow.seq)).all()


def phase_results(_moments: object, news: hooks.PhasePublished) -> None:
    """Each mail-reading player's results of the phase just published."""
    session, config, game, phase, next_phase, now = (news.session, news.config, news.game, news.phase,
                                                     news.next_phase, news.now)
    rows = resolution_events(news)
    reading = visibility.Reading(rows, game.ruleset)
    shared = SharedResults(session, config, game, phase, next_phase, reading, now)
    messages = []
    for seat in game.seats:
        if not seat.mailable:  # a table player hears the results from the narrator
            continue
        lang = seat.user.lang
        private_lines = [s.text for s in reading.private(Viewer(player=seat.name), lang) if s.text]
        delivery = digests.delivery(seat.user, bool(private_lines))  # the reader's choice for bulletins
        if delivery == digests.WEB_ONLY:
            continue
        common = shared.for_reader(lang, reader_tz(game, seat.user))
        messages.append(digests.mark(delivery, mailer.compose(
            config, to=seat.user.email, template="phase_results", lang=lang, now=now, game=game, seat=seat,
            phase_id=next_phase.id if next_phase else None, subject=common["subject"],
            html_part_id=common["html_part_id"], private=bool(private_lines),
            context={**common, "private_lines": private_lines})))
    mailer.queue_all(session, messages)




class SharedResults:
    """What the results mail of a boundary says alike to every player reading it in
    one language and time zone (its subject, the bulletin, the vote, the footer):
    worked out and rendered once for the whole game, not once a seat; each seat's
    message adds only its greeting and its private lines. The HTML alternative's
    shared end is stored once too (an OutboxPart), after each message's own start."""

    def __init__(self, session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                 next_phase: PhaseRow | None, reading: visibility.Reading, now: datetime) -> None:
        self.session, self.game, self.phase, self.next_phase, self.now = session, game, phase, next_phase, now
        self.reading, self.base_url = reading, config["BASE_URL"]
        self.phase_url = f"{config['BASE_URL'].rstrip('/')}/g/{game.slug}/phases/{archive.number_of(phase)}"
        self.correction = bool((phase.gm_input or {}).get("correction"))
        self._by_lang: dict[str, dict[str, Any]] = {}
        self._by_reader: dict[tuple[str, str], dict[str, Any]] = {}
        self._arrivals: list[Any] | None = None
        self._substitutes: dict[str, list[str]] = {}

    def _language(self, lang: str) -> dict[str, Any]:
        if lang not in self._by_lang:
            # The vote as the public sees it, for the HTML alternative's table of bars
            # (Italian's for a language the templates do not have).
            tally_lang = lang if lang in ("it", "en") else "it"
            t = archive.tally_in(self.reading.seen(archive.PUBLIC, tally_lang), self.game.ruleset, tally_lang)
            bars = archive.bars(t, tally_lang) if t else []
            self._by_lang[lang] = {
                "public_lines": [s.text for s in self.reading.public(lang) if s.text] + self.substitutes(lang),
                "tally_html": mailer.render_part("phase_results/tally", lang, tally=t, bars=bars),
                "votes_text": mailer.render_text_part("phase_results/votes", lang,
                                                      vote_lines=archive.vote_lines(t)),
            }
        return self._by_lang[lang]

    def for_reader(self, lang: str, tz: str) -> dict[str, Any]:
        """The context, subject and bulletin every seat reading in ``lang`` and ``tz`` shares."""
        key = (lang, tz)
        if key not in self._by_reader:
            nxt = self.next_phase
            ctx = {
                "game": self.game, "base_url": self.base_url,
                "phase": self.phase, "phase_label": render.phase_label(self.phase, lang, tz),
                "deadline": render.deadline_text(self.phase.ends_at, lang, tz),
                "correction": self.correction, **self._language(lang), "phase_url": self.phase_url,
                "next_phase": nxt,
                "next_label": render.phase_label(nxt, lang, tz) if nxt else None,
                "next_deadline": render.deadline_text(nxt.ends_at, lang, tz) if nxt else None,
            }
            ctx["subject"] = mailer.render_subject("phase_results", lang, **ctx)
            ctx["bulletin_text"] = mailer.render_text_part("phase_results/bulletin", lang, **ctx)
            ctx["html_part_id"] = mailer.store_part(self.session, self.now, mailer.render_part(
                "phase_results/bulletin", lang, **ctx))
            self._by_reader[key] = ctx
        return self._by_reader[key]

    def substitutes(self, lang: str) -> list[str]:
        """The bulletin's lines for the substitutes who arrived in this phase."""
        if lang not in self._substitutes:
            if self._arrivals is None:
                self._arrivals = archive.substitutes_of(self.session, self.game, self.phase)
            self._substitutes[lang] = [archive.substitute_line(h, lang) for h in self._arrivals]
        return self._substitutes[lang]
