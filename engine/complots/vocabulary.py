"""The mail and paste-box words of Complots, Italian and English.

Contract for the parser: ``Keyword.key`` is the argument the rest of the line fills
(``target``: a player's name; ``as`` / ``card``: one of ``choices["card"]``; ``cards``:
several of them, ``value="choices"``; nothing for ``value="none"``), and ``fixed`` holds
``kind`` (the ``Action`` kind to submit) plus the arguments the word implies. So
``BLOCCO Contessa`` becomes ``Action(player, "answer", {"answer": "block", "as":
"Contessa"})`` and ``TENGO Duchessa Capitano`` ``Action(player, "keep", {"cards":
[...]})``; ``Complots.submission_action`` does that assembly. A reply may add ``moment``
(the window's number, e.g. from the subject) so a late answer is refused.

Two kinds are the service's, never submitted to the engine: ``MORE_TIME`` (one more
answer window) and ``STANDING`` (the player's standing answers, as on the game page):
``SEMPRE PASSO`` / ``ALWAYS PASS`` and ``SEMPRE SFIDO Duchessa`` / ``ALWAYS CHALLENGE
Duke`` leave one standing (``on: True``), ``NON PASSO PIÙ`` / ``NO LONGER PASS`` and
``NON SFIDO PIÙ Duchessa`` / ``NO LONGER CHALLENGE Duke`` take it back (``on: False``),
``NESSUNA RISPOSTA PERMANENTE`` / ``NO STANDING ANSWERS`` takes them all back
(``standing: None``). Every key of ``Complots.standing_answers`` has its words here
(tests/test_vocabulary_drift.py).
"""
from __future__ import annotations

from typing import Any

from ..interface import MORE_TIME, STANDING, Keyword, Vocabulary
from .cards import CHARACTERS, ENGLISH
from .texts import ACTION_NAMES, CHOICE_NAMES

# The standing answers' keys (Complots.standing_answers).
PASS_NOT_ME = "pass_not_me"


def challenge_key(character: str) -> str:
    return f"challenge:{character}"


def _kw(kind: str, it: tuple[str, ...], en: tuple[str, ...], key: str = "", value: str = "none",
        ex_it: str = "", ex_en: str = "", **args: Any) -> Keyword:
    # A word that takes nothing fills the argument it implies (REDDITO: action).
    return Keyword(key or next(iter(args), kind), it, en, value, ex_it or it[0],
                   ex_en or en[0], {"kind": kind, **args})


def _standing(it: tuple[str, ...], en: tuple[str, ...], on: bool, value: str = "none",
              ex_it: str = "", ex_en: str = "", **fixed: Any) -> Keyword:
    return Keyword("standing", it, en, value, ex_it or it[0], ex_en or en[0],
                   {"kind": STANDING, "on": on, **fixed})


def vocabulary() -> Vocabulary:
    keywords = [
        _kw("turn", ("REDDITO",), ("INCOME",), action="income"),
        _kw("turn", ("AIUTI", "AIUTI STRANIERI"), ("FOREIGN AID", "AID"), action="foreign_aid"),
        _kw("turn", ("COLPO", "COLPO DI STATO"), ("COUP",), "target", "name",
            "COLPO Bruno", "COUP Bruno", action="coup"),
        _kw("turn", ("TASSA", "DUCHESSA"), ("TAX", "DUCHESS"), action="tax"),
        _kw("turn", ("ASSASSINO", "ASSASSINIO"), ("ASSASSINATE", "ASSASSIN"), "target", "name",
            "ASSASSINO Bruno", "ASSASSINATE Bruno", action="assassinate"),
        _kw("turn", ("CAPITANO", "RUBO"), ("STEAL", "CAPTAIN"), "target", "name",
            "CAPITANO Bruno", "STEAL Bruno", action="steal"),
        # No AMBASCIATORE / INQUISITORE keywords: the variant decides what an exchange
        # claims, and the Inquisitore both exchanges and examines.
        _kw("turn", ("SCAMBIO",), ("EXCHANGE",), action="exchange"),
        _kw("turn", ("ESAMINO",), ("EXAMINE",), "target", "name",
            "ESAMINO Bruno", "EXAMINE Bruno", action="examine"),
        _kw("answer", ("SFIDO", "DUBITO"), ("CHALLENGE",), answer="challenge"),
        _kw("answer", ("BLOCCO",), ("BLOCK",), "as", "choice", "BLOCCO Contessa",
            "BLOCK Countess", answer="block"),
        _kw("answer", ("PASSO",), ("PASS",), answer="pass"),
        _kw("lose", ("PERDO", "SCOPRO"), ("LOSE", "REVEAL"), "card", "choice",
            "PERDO Contessa", "LOSE Countess"),
        _kw("keep", ("TENGO",), ("KEEP",), "cards", "choices", "TENGO Duchessa Capitano",
            "KEEP Duchess Captain"),
        _kw("show", ("MOSTRO",), ("SHOW",), "card", "choice", "MOSTRO Contessa", "SHOW Countess"),
        _kw("discard", ("SCARTO",), ("DISCARD",), discard="discard"),
        _kw("discard", ("RESTITUISCO",), ("RETURN",), discard="return"),
        _kw("choose", ("SCELGO",), ("CHOOSE",), "card", "choice", "SCELGO Duchessa",
            "CHOOSE Duchess"),
        # The service's extension of the window (engine/interface.MORE_TIME).
        _kw(MORE_TIME, ("PIÙ TEMPO", "PIU TEMPO"), ("MORE TIME",), "kind"),
        # The standing answers (engine/interface.STANDING). Two words each, never one:
        # "Sempre" or "Always" alone starts too many lines of prose.
        _standing(("SEMPRE PASSO", "PASSO SEMPRE"), ("ALWAYS PASS",), True, standing=PASS_NOT_ME),
        _standing(("SEMPRE SFIDO", "SFIDO SEMPRE", "SEMPRE DUBITO", "DUBITO SEMPRE"),
                  ("ALWAYS CHALLENGE",), True, "choice", "SEMPRE SFIDO Duchessa",
                  "ALWAYS CHALLENGE Duke"),
        _standing(("NON PASSO PIÙ", "NON PASSO PIU", "NON PIÙ PASSO", "NON PIU PASSO"),
                  ("NO LONGER PASS",), False, standing=PASS_NOT_ME),
        _standing(("NON SFIDO PIÙ", "NON SFIDO PIU", "NON PIÙ SFIDO", "NON PIU SFIDO",
                   "NON DUBITO PIÙ", "NON DUBITO PIU"),
                  ("NO LONGER CHALLENGE",), False, "choice", "NON SFIDO PIÙ Duchessa",
                  "NO LONGER CHALLENGE Duke"),
        _standing(("NESSUNA RISPOSTA PERMANENTE", "NESSUNA RISPOSTA FISSA"),
                  ("NO STANDING ANSWERS", "NO STANDING ANSWER"), False, standing=None),
    ]
    aliases = {"Duke": "Duchessa"}
    cards = {c: {"it": c, "en": ENGLISH.get(c, c)} for c in CHARACTERS}
    # Every argument that names a character reads the same table; the actions and
    # answers are named as the forms show them (the words above choose them). A
    # standing challenge is named by the character it challenges.
    names = {**{k: dict(cards) for k in ("card", "as", "cards")},
             "action": {a: dict(n) for a, n in ACTION_NAMES.items()},
             "answer": {a: dict(CHOICE_NAMES[a]) for a in ("pass", "challenge", "block")},
             "discard": {a: dict(CHOICE_NAMES[a]) for a in ("return", "discard")},
             "standing": {challenge_key(c): dict(n) for c, n in cards.items()}}
    choices = {**{k: dict(aliases) for k in ("card", "as", "cards")},
               "standing": {alias: challenge_key(card) for alias, card in aliases.items()}}
    # "SEMPRE SFIDO la Duchessa", "BLOCCO la Contessa", "ALWAYS CHALLENGE the Duke".
    fillers = ("chi dichiara", "chi si dichiara", "la", "il", "lo", "l'", "ogni",
               "the", "a", "an", "any", "every")
    arguments = {**{k: {"it": "la carta", "en": "the card"} for k in ("card", "as", "cards")},
                 "standing": {"it": "il personaggio", "en": "the character"}}
    return Vocabulary(keywords, choices, names=names, fillers=fillers, arguments=arguments,
                      extras={"submission": "Complots.submission_action"})
