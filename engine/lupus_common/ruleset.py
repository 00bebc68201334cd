"""The defaults the three Lupus games share, so ``BaseRuleset`` belongs to no game.

A Lupus player has a role, a faction and an aura, and submits a vote, a power, a ritual,
a question, a shout or notes (``actions.py``); their wording and forms are in
``texts.py``. By default a moment ends on the calendar, at the end of the night or day
it is (Lupus by mail); Lupus Noctis, at a table, overrides ``timing``.
"""
from __future__ import annotations

from typing import Any

from ..core import Action, GameState
from ..interface import CALENDAR, BaseRuleset, Fact, Timing
from . import texts
from .actions import APPOINT, NOTES, QUESTION, RITUAL_KEYS, SHOUT, actions_from_submission


class LupusRuleset(BaseRuleset):
    REJECTIONS = texts.REJECTIONS
    EVENTS = texts.EVENTS
    ACTIONS = texts.ACTIONS
    KEYS = texts.KEYS
    WELCOME = texts.WELCOME
    # The submission keys that belong to a ritual action (a game adds its own).
    RITUAL_KEYS: tuple[str, ...] = RITUAL_KEYS
    # What a player writes in words: the Profeta's question, the night's shout, notes.
    TEXT_LIMITS: dict[str, int] = {QUESTION: 500, SHOUT: 280, NOTES: 2000}
    # Anyone may shout, write notes or name a deputy; nobody must.
    OPTIONAL_KINDS = frozenset({SHOUT, NOTES, APPOINT})

    def timing(self, state: GameState) -> Timing:
        return Timing(CALENDAR, phase=state.phase.kind)

    def actions(self, player: str, submission: dict[str, Any]) -> list[Action]:
        """A submission in the vocabulary of docs/scenarios.md ({vote: X, shout: ...}): a
        ritual and its keys, a power and its targets, one action for every other key."""
        return actions_from_submission(player, submission, self.RITUAL_KEYS)

    def self_facts(self, state: GameState, player: str, lang: str) -> list[Fact]:
        """The player's role, faction and aura."""
        p = state.player(player)
        card = self.role_card(p.role, lang)
        # Each value in the reader's language ("Aura: white", not "bianca": issue 31); the
        # role as its card names it ("Seer (Veggente)"), the faction without its article.
        values = (("role", card.name if card is not None else p.role),
                  ("faction", texts.faction_name(p.faction, lang)), ("aura", texts.aura(p.aura, lang)))
        return [Fact(texts.word(texts.SELF, key, lang) or key, str(value)) for key, value in values]

    def self_status(self, state: GameState, player: str, lang: str) -> str:
        """Alive, or dead and playing on as a ghost."""
        return texts.word(texts.SELF, "alive" if state.player(player).alive else "dead", lang) or ""
