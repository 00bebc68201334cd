"""The first mail of a game, once its roles are dealt (``hooks.game_started``): each
player's role letter (their own lines of the deal, through the one filter) for a game
by mail; a game of answer windows has its own first mail (window_mail.py), and a table
player learns the role from a paper card."""
from __future__ import annotations

from engine.core import GameState
from engine.interface import Viewer

from .. import hooks, visibility
from ..mail import outbound as mailer
from ..operations.base import mail_context
from ..role_cards import player_cards


def role_letters(_moments: object, news: hooks.GameStarted) -> None:
    game, phase = news.game, news.phase
    for seat in game.seats:
        if not seat.mailable:
            continue
        lang = seat.user.lang
        mailer.queue(news.session, news.config, to=seat.user.email, template="role_letter",
                     lang=lang, now=news.now, game=game, seat=seat, phase_id=phase.id,
                     context=mail_context(game, phase, lang, {
                         "lines": visibility.lines(news.events, Viewer(player=seat.name), game.ruleset, lang),
                         # How the role is played (engine/cards.py), written with the game's players.
                         "cards": player_cards(game, GameState.from_dict(phase.state_before), seat.name, lang),
                     }, reader=seat.user))
