"""The characters of Complots, the deck for each table size, and who blocks what.

Card names are the rulebook's Italian ones (the engine's canonical values); English
and other spellings are accepted everywhere a card is named (``canonical_card``).
"""
from __future__ import annotations

import unicodedata

DUCHESSA, ASSASSINO, CONTESSA, CAPITANO, AMBASCIATORE, INQUISITORE = (
    "Duchessa", "Assassino", "Contessa", "Capitano", "Ambasciatore", "Inquisitore",
)
CHARACTERS = (DUCHESSA, ASSASSINO, CONTESSA, CAPITANO, AMBASCIATORE, INQUISITORE)

# The fifth character is chosen by the variant (rulebook: "l'Ambasciatore o l'Inquisitore").
VARIANTS = {"ambasciatore": AMBASCIATORE, "inquisitore": INQUISITORE}
DEFAULT_VARIANT = "ambasciatore"

ENGLISH = {
    DUCHESSA: "Duchess", ASSASSINO: "Assassin", CONTESSA: "Countess",
    CAPITANO: "Captain", AMBASCIATORE: "Ambassador", INQUISITORE: "Inquisitor",
}
# Every spelling a player may type, folded (see ``fold``), to the canonical name.
ALIASES = {
    **{c.casefold(): c for c in CHARACTERS},
    **{e.casefold(): c for c, e in ENGLISH.items()},
    "duke": DUCHESSA, "duca": DUCHESSA, "ambassadore": AMBASCIATORE,
    # The plurals players write of two cards alike ("le due Duchesse", "both Dukes").
    "duchesse": DUCHESSA, "duchi": DUCHESSA, "assassini": ASSASSINO, "contesse": CONTESSA,
    "capitani": CAPITANO, "ambasciatori": AMBASCIATORE, "inquisitori": INQUISITORE,
    "duchesses": DUCHESSA, "dukes": DUCHESSA, "assassins": ASSASSINO, "countesses": CONTESSA,
    "captains": CAPITANO, "ambassadors": AMBASCIATORE, "inquisitors": INQUISITORE,
}

# The coins of the box: 24 silver and 6 gold worth 5 each (Materiali).
BOX_COINS = 24 + 6 * 5
START_COINS = 2
COUP_COST, ASSASSIN_COST, FORCED_COUP_AT = 7, 3, 10

# Actions (Action args["action"]) and the character each one claims (None: no claim).
INCOME, FOREIGN_AID, COUP, TAX, ASSASSINATE, STEAL, EXCHANGE, EXAMINE = (
    "income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine",
)
ACTIONS = (INCOME, FOREIGN_AID, COUP, TAX, ASSASSINATE, STEAL, EXCHANGE, EXAMINE)
TARGETED = frozenset({COUP, ASSASSINATE, STEAL, EXAMINE})


def claimed_character(action: str, variant: str) -> str | None:
    """The character an action claims; the exchange is the variant's fifth character."""
    return {
        TAX: DUCHESSA, ASSASSINATE: ASSASSINO, STEAL: CAPITANO,
        EXCHANGE: VARIANTS[variant], EXAMINE: INQUISITORE,
    }.get(action)


def blockers(action: str, variant: str) -> tuple[str, ...]:
    """The characters that may block an action (§C); empty when it cannot be blocked.

    The Inquisitore's examination is named among the targeted powers but no character
    is listed as blocking it, so it cannot be blocked (docs/rulings-complots.md)."""
    if action == FOREIGN_AID:
        return (DUCHESSA,)
    if action == ASSASSINATE:
        return (CONTESSA,)
    if action == STEAL:
        return (CAPITANO, VARIANTS[variant])
    return ()


def anyone_blocks(action: str) -> bool:
    """Foreign aid may be blocked by any other player; targeted powers only by the target."""
    return action == FOREIGN_AID


def in_play(variant: str) -> tuple[str, ...]:
    return (DUCHESSA, ASSASSINO, CONTESSA, CAPITANO, VARIANTS[variant])


def deck(players: int, variant: str) -> list[str]:
    """The cards of the game: 3 copies of each character for 3-6 players (and the three
    bundles of 2 players), 4 copies for 7-8."""
    copies = 4 if players >= 7 else 3
    return [c for c in in_play(variant) for _ in range(copies)]


def fold(text: str) -> str:
    """Case- and accent-insensitive form of a typed word."""
    decomposed = unicodedata.normalize("NFKD", str(text).strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def canonical_card(name: object) -> str:
    """The canonical name of a character as typed in Italian or English (KeyError if none)."""
    try:
        return ALIASES[fold(str(name))]
    except KeyError:
        raise KeyError(str(name)) from None


def canonical_action(name: object) -> str:
    """``foreign aid``, ``Foreign-Aid`` and ``foreign_aid`` are the same action."""
    key = fold(str(name)).replace("-", "_").replace(" ", "_")
    if key not in ACTIONS:
        raise KeyError(str(name))
    return key


def card_name(card: str, lang: str) -> str:
    return ENGLISH.get(card, card) if lang == "en" else card


PLURALS = {
    DUCHESSA: {"it": "Duchesse", "en": "Duchesses"}, ASSASSINO: {"it": "Assassini", "en": "Assassins"},
    CONTESSA: {"it": "Contesse", "en": "Countesses"}, CAPITANO: {"it": "Capitani", "en": "Captains"},
    AMBASCIATORE: {"it": "Ambasciatori", "en": "Ambassadors"},
    INQUISITORE: {"it": "Inquisitori", "en": "Inquisitors"},
}
_COUNTED = {2: {"it": "due", "en": "two"}, 3: {"it": "tre", "en": "three"}, 4: {"it": "quattro", "en": "four"}}


def cards_named(cards: list[str], lang: str) -> list[str]:
    """Cards as a list names them, two alike counted once ("due Assassini", never
    "Assassino e Assassino": issue 31), in the order they first come."""
    out = []
    for card in dict.fromkeys(cards):
        n = cards.count(card)
        lang_key = "en" if lang == "en" else "it"
        if n > 1 and card in PLURALS and n in _COUNTED:
            out.append(f"{_COUNTED[n][lang_key]} {PLURALS[card][lang_key]}")
        else:
            out.append(card_name(card, lang))
    return out
