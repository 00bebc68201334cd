"""The role cards a player reads (engine/cards.py), written with the game's own players.

One place asks the ruleset for them, so the role mail, the reserved page, the answer
to "what do I do?" and the game's rules page show the same card with the same names.
"""
from __future__ import annotations

from engine.cards import RoleCard
from engine.core import GameState
from engine.registry import get_ruleset

from .models import Game


def example_names(game: Game, reader: str | None = None, state: GameState | None = None) -> list[str]:
    """The players a card's examples name: the others first (a card never suggests
    using a power on oneself), in the order of the table; the living before the dead."""
    names = [p.name for p in state.players] if state is not None else [s.name for s in game.seats]
    alive = {p.name for p in state.players if p.alive} if state is not None else set(names)
    others = [n for n in names if n != reader]
    return sorted(others, key=lambda n: n not in alive) or names


def player_cards(game: Game, state: GameState | None, player: str, lang: str) -> list[RoleCard]:
    """The cards ``player`` reads now: their role's (Complots: the characters they hold)."""
    if state is None or not state.has_player(player):
        return []
    rules = get_ruleset(game.ruleset)
    names = example_names(game, player, state)
    return [card for role in rules.player_roles(state, player)
            if (card := rules.role_card(role, lang, names)) is not None]


def game_cards(game: Game, state: GameState | None, lang: str) -> list[RoleCard]:
    """Every card of the game's rules page, in the ruleset's order."""
    rules = get_ruleset(game.ruleset)
    names = example_names(game, None, state)
    return [card for role in rules.card_roles(state)
            if (card := rules.role_card(role, lang, names)) is not None]
