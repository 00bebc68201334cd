"""Role cards: how a player learns to play a role, written from the rulebook.

A card says what the role does, when, what its form on the reserved page and a mail
line for it look like (with real names of the game), and what the player knows from
the start. Each ruleset keeps its cards as data (``CardText``: ``{"it", "en"}`` per
part, ``{name}``, ``{other}`` and ``{third}`` standing for players of the game) and answers
``BaseRuleset.role_card(role, lang, example_names)`` with a ``RoleCard``, worded in
one language, which the service prints in the role mail, on the reserved page, in the
answer to "what do I do?" and on the game's rules page. The service adds only its own
labels ("What it does", "When"...).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

Words = dict[str, str]  # {"it": ..., "en": ...}

# Names a card is written with when the caller has none (a ruleset's page before any
# game): the examples the rulebooks' own readers know.
SAMPLE_NAMES = ("Carla", "Dario", "Elena")


@dataclass(frozen=True)
class RoleCard:
    """One role as its player reads it, in one language.

    ``name``: the role as the reader's language calls it (the rulebook's Italian name
    beside an English one); ``side``: whom it plays for and what the rules say of it at
    a glance (its aura); ``does``: what it does; ``when``: when it may; ``form``: the
    reserved page's form for it; ``mail``: lines a mail may carry for it, with players
    of this game; ``knows``: what its player knows from the start."""

    role: str
    name: str
    side: str
    does: str
    when: str
    form: str
    mail: tuple[str, ...]
    knows: str


@dataclass(frozen=True)
class CardText:
    """A card as a ruleset writes it, in both languages. ``mail``: each line a
    ``Words`` with ``{name}`` (a player), ``{other}`` and ``{third}`` (others)."""

    does: Words
    when: Words
    form: Words
    knows: Words
    mail: tuple[Words, ...] = field(default_factory=tuple)


def pick(words: Words, lang: str) -> str:
    return words.get(lang) or words.get("it") or ""


def examples(example_names: Sequence[str]) -> dict[str, str]:
    """Three players to write a card's examples with (``name``, ``other``, ``third``):
    the game's own when given, repeated when it has fewer."""
    names = list(dict.fromkeys(n for n in example_names if n)) or list(SAMPLE_NAMES)
    return {key: names[i % len(names)] for i, key in enumerate(("name", "other", "third"))}


def written(role: str, text: CardText, lang: str, example_names: Sequence[str], *,
            name: str, side: str) -> RoleCard:
    """``text`` in ``lang``, its examples written with players of the game."""
    fill = examples(example_names)
    return RoleCard(role=role, name=name, side=side,
                    does=pick(text.does, lang).format(**fill),
                    when=pick(text.when, lang).format(**fill),
                    form=pick(text.form, lang).format(**fill),
                    mail=tuple(pick(line, lang).format(**fill) for line in text.mail),
                    knows=pick(text.knows, lang).format(**fill))
