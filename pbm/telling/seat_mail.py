"""A seat handed to a substitute, told (a listener of ``hooks.seat_taken``): the
newcomer's welcome with everything the seat was told, every player's notice, and the
player who left told that the seat is no longer theirs."""
from __future__ import annotations

from .. import hooks, render
from ..accounts import password_link, tokens
from ..mail import outbound as mailer
from ..models import PhaseStatus
from ..operations.base import mail_context, reader_tz
from ..views.seat_history import seat_history


def newcomer(_game: object, news: hooks.SeatTaken) -> None:
    """The newcomer's welcome: how to log in, the seat's role letter and every private
    result it has had."""
    session, config, game, seat, user, phase, now = (news.session, news.config, news.game, news.seat,
                                                     news.newcomer, news.phase, news.now)
    lang = user.lang
    history = seat_history(session, game, seat, lang)
    link = None if user.password_hash else password_link(config, user, now, "set")
    extra = {"user": user, "password_link": link, "days": tokens.MAX_AGE["set"] // 86400,
             "letter": history["letter"], "results": history["results"]}
    context = mail_context(game, phase, lang, extra, reader=user) if phase is not None else {
        "phase_label": "", "deadline": "", **extra}
    mailer.queue(session, config, to=user.email, template="substitute_welcome", lang=lang, now=now,
                 game=game, seat=seat,
                 phase_id=phase.id if phase is not None and phase.status == PhaseStatus.OPEN else None,
                 context=context)


def announced(_game: object, news: hooks.SeatTaken) -> None:
    """Every player of the game, the newcomer included, told who took the seat."""
    session, config, game, seat, holder, phase, now = (news.session, news.config, news.game, news.seat,
                                                       news.holder, news.phase, news.now)
    for other in game.seats:
        if not other.mailable:
            continue
        lang = other.user.lang
        mailer.queue(session, config, to=other.user.email, template="substitute_announced", lang=lang,
                     now=now, game=game, seat=other,
                     phase_id=phase.id if phase is not None and phase.status == PhaseStatus.OPEN else None,
                     context={"player": seat.name, "announced_as": holder.announced_as,
                              "phase_label": render.phase_label(phase, lang, reader_tz(game, other.user))
                              if phase is not None else "",
                              "deadline": render.deadline_text(phase.ends_at, lang,
                                                               reader_tz(game, other.user))
                              if phase is not None else ""})


def left(_game: object, news: hooks.SeatTaken) -> None:
    """The player who left told that the seat is no longer theirs (they may still read
    the game's public pages), so nothing of it reaches them unexplained."""
    session, config, game, seat, user, phase, now = (news.session, news.config, news.game, news.seat,
                                                     news.left, news.phase, news.now)
    if user is None:
        return
    lang, tz = user.lang, reader_tz(game, user)
    mailer.queue(session, config, to=user.email, template="seat_left", lang=lang, now=now, game=game,
                 context={"user": user, "player": seat.name,
                          "phase_label": render.phase_label(phase, lang, tz) if phase is not None else ""})
