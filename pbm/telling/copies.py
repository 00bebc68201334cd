"""A copy to the player of what a Master recorded in their name (a forwarded mail, an
SMS, a phone call), as the service promises every player: nobody moves for them
unseen. A listener of ``hooks.submission_recorded``, for every kind of timing."""
from __future__ import annotations

from .. import hooks
from ..mail import outbound as mailer
from ..operations.base import mail_context
from ..render import describe_submission, received_by


def on_behalf_copy(_moments: object, news: hooks.SubmissionRecorded) -> None:
    seat, by = news.seat, news.by
    if news.source != "master" or by is None or not news.tell_player or not seat.mailable:
        return
    lang = seat.user.lang
    mailer.queue(news.session, news.config, to=seat.user.email, template="on_behalf_copy",
                 lang=lang, now=news.now, game=news.game, seat=seat,
                 context=mail_context(news.game, news.phase, lang, {
                     # How it came, in words ("arrivato via SMS"), never the code "sms" (issue 31).
                     "master": by.name, "source": received_by(news.source_detail, lang),
                     "lines": describe_submission(news.submission, lang, news.game.ruleset),
                 }, reader=seat.user))
