"""What a game of answer windows mails its players (pbm/views/window.py says what
each may see).

Mail volume (docs/service.md, "Answer windows by mail"): after each resolved window,
one mail to each player the new window asks something of (their hand, the table,
who still has to answer, what they may answer and until when, the round so far);
when a round ends (``BaseRuleset.reports_to_all``: e.g. a whole turn of every player) everyone
gets the round's log, the asked ones in the same mail. A window that asks nobody new
sends nothing. Listeners of the windows' moments (``timing.IN_WINDOWS``) only.
"""
from __future__ import annotations

from engine.core import GameState
from engine.interface import Viewer
from engine.registry import get_ruleset

from .. import hooks
from ..mail import outbound as mailer
from ..role_cards import player_cards
from ..views.window import lines_for, round_events, round_phases, shared_window, window_context


def window_results(_moments: object, news: hooks.PhasePublished) -> None:
    """After a window was published: the round's log to everyone when a round ended,
    and to each player the next window asks something of, what they may answer (those
    a standing answer answered for, or a window already complete, ask nobody)."""
    session, game, phase, next_phase, now = news.session, news.game, news.phase, news.next_phase, news.now
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(phase.state_after)
    everyone = ruleset.reports_to_all(state)
    shared = shared_window(session, game, next_phase, now)
    asked_now = set(shared.waiting)
    rounds = round_phases(session, game, phase) if everyone else []
    ended = round_events(session, rounds) if everyone else []
    # Who was already out when the round began: told the round they went out in, and the
    # end of the game, nothing in between (issue 31: they got every turn's mail).
    out_before = _out(GameState.from_dict(rounds[0].state_before)) if rounds else set()
    for seat in game.seats:
        if not everyone and seat.name not in asked_now:
            continue
        if seat.name in out_before and not state.over:
            continue
        lang = seat.user.lang
        ctx = window_context(session, game, next_phase, seat, lang, now, shared)
        if everyone:  # the round that just ended, not the one the next window opens
            ctx["round_lines"] = lines_for(ended, game.ruleset, Viewer(player=seat.name), lang)
        mailer.queue(session, news.config, to=seat.user.email, template="window", lang=lang, now=now,
                     game=game, seat=seat, phase_id=next_phase.id if next_phase else None,
                     context={**ctx, "summary": everyone, "is_asked": seat.name in asked_now,
                              "winner": state.winner if state.over else None,
                              "out_now": seat.name in _out(state) and not state.over})


def _out(state: GameState) -> set[str]:
    return {p.name for p in state.players if not p.alive}


def window_start(_moments: object, news: hooks.GameStarted) -> None:
    """The first mail of a game of windows: each player's deal (their own hand), the
    table, and the first window to those it asks."""
    session, game, phase, now = news.session, news.game, news.phase, news.now
    shared = shared_window(session, game, phase, now)
    asked_now = set(shared.waiting)
    for seat in game.seats:
        lang = seat.user.lang
        ctx = window_context(session, game, phase, seat, lang, now, shared)
        dealt = lines_for(news.events, game.ruleset, Viewer(player=seat.name), lang)
        mailer.queue(session, news.config, to=seat.user.email, template="window", lang=lang, now=now,
                     game=game, seat=seat, phase_id=phase.id,
                     context={**ctx, "round_lines": [x for x in dealt if x], "summary": True,
                              "is_asked": seat.name in asked_now, "winner": None,
                              "cards": player_cards(game, shared.state, seat.name, lang)})


def more_time(_moments: object, news: hooks.DeadlineChanged) -> None:
    """A player had the open window extended: every other player still in the game is
    told the new deadline (with the table and, to those asked, what they may answer),
    so nobody answers against the old one. The mail answers that window (``phase_id``)."""
    if news.why != hooks.MORE_TIME:
        return
    session, game, phase, now = news.session, news.game, news.phase, news.now
    shared = shared_window(session, game, phase, now)
    if shared.open_state is None:
        return
    state = shared.state
    asking = news.seats[0] if news.seats else None
    for seat in game.seats:
        if seat is asking or not seat.mailable or seat.disqualified:
            continue
        if state is not None and state.has_player(seat.name) and not state.player(seat.name).alive:
            continue
        lang = seat.user.lang
        ctx = window_context(session, game, phase, seat, lang, now, shared)
        mailer.queue(session, news.config, to=seat.user.email, template="window", lang=lang, now=now,
                     game=game, seat=seat, phase_id=phase.id,
                     context={**ctx, "extended_by": asking.name if asking else None, "summary": False,
                              "is_asked": seat.name in shared.waiting, "winner": None})
