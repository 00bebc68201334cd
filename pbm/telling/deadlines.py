"""A moved deadline told to everyone it concerns (``hooks.deadline_changed``): a Master
moved it earlier or later, paused the game or resumed it. Every mail-reading player
of the game gets the new time (or that the clock is stopped), since their last
mail still says the old one; a deadline moved earlier is urgent (it may come before
a player would have acted), the others wait with the bulk. More time asked by a
player in an answer window is window_mail.py's."""
from __future__ import annotations

from .. import hooks, render
from ..mail import outbound as mailer
from ..operations.base import reader_tz

def deadline_moved(_moments: object, news: hooks.DeadlineChanged) -> None:
    if news.why == hooks.MORE_TIME:
        return
    game, phase = news.game, news.phase
    earlier = news.old is not None and news.new is not None and news.new < news.old
    messages = []
    for seat in game.seats:
        # The dead too: the ghosts of some games still act, and every reader of the
        # bulletin plans around its time.
        if not seat.mailable or seat.disqualified:
            continue
        lang, tz = seat.user.lang, reader_tz(game, seat.user)
        messages.append(mailer.compose(
            news.config, to=seat.user.email, template="deadline_changed",
            kind="deadline_earlier" if earlier else "deadline_changed",
            lang=lang, now=news.now, game=game, seat=seat, phase_id=phase.id, context={
                "why": news.why, "earlier": earlier, "master": news.by.name if news.by else None,
                "phase_label": render.phase_label(phase, lang, tz),
                "old_deadline": render.deadline_text(news.old, lang, tz) if news.old else None,
                "deadline": render.deadline_text(news.new, lang, tz) if news.new else None}))
    mailer.queue_all(news.session, messages)

