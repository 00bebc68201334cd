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
(``standing: None``), ``RISPOSTE PERMANENTI`` / ``STANDING ANSWERS`` lists them and
changes nothing (``list: True``). Every key of ``Complots.standing_answers`` has its words here
(tests/test_vocabulary_drift.py).
"""
from __future__ import annotations

from typing import Any

from ..interface import MORE_TIME, STANDING, Keyword, Vocabulary
from .cards import ALIASES, CHARACTERS, ENGLISH, TARGETED
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


def _printed(action: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The action's names as pages and mail print them ("Furto (Capitano)"), as words:
    whatever the service prints to name an action is accepted back."""
    return tuple([ACTION_NAMES[action]["it"].upper()]), tuple([ACTION_NAMES[action]["en"].upper()])


def _turn(action: str, it: tuple[str, ...], en: tuple[str, ...], ex_it: str = "", ex_en: str = "") -> Keyword:
    """A turn's action: its words, then its printed names; a target after them if it takes one."""
    p_it, p_en = _printed(action)
    it, en = tuple(dict.fromkeys(it + p_it)), tuple(dict.fromkeys(en + p_en))
    if action in TARGETED:
        return _kw("turn", it, en, "target", "name", ex_it, ex_en, action=action)
    return _kw("turn", it, en, action=action)


def vocabulary() -> Vocabulary:
    """The book's names first (the first word of each is what the mails print), then the
    forms players write: "Rubo a Carla", "Assassino Dario", "Blocco con la Contessa",
    "prendo il reddito", "Ti sfido!", "ok per me", "perdo il Duca"."""
    keywords = [
        _turn("income", ("REDDITO", "PRENDO IL REDDITO", "PRENDO REDDITO", "PRENDO 1 MONETA",
                         "PRENDO UNA MONETA"),
              ("INCOME", "TAKE INCOME", "I TAKE INCOME", "TAKE 1 COIN", "TAKE ONE COIN")),
        _turn("foreign_aid", ("AIUTI STRANIERI", "AIUTI", "AIUTO STRANIERO", "PRENDO GLI AIUTI STRANIERI",
                              "PRENDO AIUTI STRANIERI", "PRENDO GLI AIUTI", "PRENDO 2 MONETE",
                              "PRENDO DUE MONETE"),
              ("FOREIGN AID", "AID", "TAKE FOREIGN AID", "I TAKE FOREIGN AID", "TAKE 2 COINS",
               "TAKE TWO COINS")),
        # The 7-coin action the book calls Assassinio (or omicidio); "colpo di stato" too.
        _turn("coup", ("ASSASSINIO", "ASSASSINIO DI", "ASSASSINIO A", "OMICIDIO", "OMICIDIO DI",
                       "OMICIDIO A", "COLPO DI STATO", "COLPO DI STATO A", "COLPO"),
              ("ASSASSINATION", "ASSASSINATION OF", "ASSASSINATE", "COUP", "COUP ON"),
              "ASSASSINIO Bruno", "ASSASSINATION Bruno"),
        _turn("tax", ("TASSA", "DUCHESSA", "DUCA", "PRENDO LA TASSA", "PRENDO 3 MONETE",
                      "PRENDO TRE MONETE"),
              ("TAX", "DUCHESS", "DUKE", "TAKE 3 COINS", "TAKE THREE COINS")),
        # The Assassino's 3-coin power (the Contessa blocks it).
        _turn("assassinate", ("ASSASSINO", "UCCIDO", "UCCIDO CON L'ASSASSINO", "L'ASSASSINO"),
              ("ASSASSIN", "THE ASSASSIN", "KILL", "I KILL"), "ASSASSINO Bruno", "ASSASSIN Bruno"),
        _turn("steal", ("FURTO", "FURTO A", "FURTO AD", "RUBO", "RUBO A", "RUBO AD", "CAPITANO"),
              ("STEAL", "STEAL FROM", "I STEAL FROM", "CAPTAIN"), "FURTO Bruno", "STEAL Bruno"),
        # No AMBASCIATORE / INQUISITORE keywords: the variant decides what an exchange
        # claims, and the Inquisitore both exchanges and examines.
        _turn("exchange", ("SCAMBIO", "SCAMBIO CON LA CORTE"), ("EXCHANGE", "EXCHANGE WITH THE COURT")),
        _turn("examine", ("ESAMINO", "ESAME", "ESAME DI", "ESAMINO LA CARTA DI"),
              ("EXAMINE", "EXAMINATION", "EXAMINATION OF"), "ESAMINO Bruno", "EXAMINE Bruno"),
        _kw("answer", ("SFIDO", "TI SFIDO", "LO SFIDO", "LA SFIDO", "DUBITO", "NE DUBITO",
                       "NON CI CREDO", "METTO IN DUBBIO"),
            ("CHALLENGE", "I CHALLENGE", "I CHALLENGE YOU", "I DOUBT IT"), answer="challenge"),
        _kw("answer", ("BLOCCO", "TI BLOCCO", "LO BLOCCO", "LA BLOCCO"), ("BLOCK", "I BLOCK"),
            "as", "choice", "BLOCCO Contessa", "BLOCK Countess", answer="block"),
        _kw("answer", ("PASSO", "OK PER ME", "NESSUNA OBIEZIONE", "NESSUN DUBBIO", "LASCIO PASSARE"),
            ("PASS", "I PASS", "NO OBJECTION", "NO OBJECTIONS", "OK BY ME", "FINE BY ME"), answer="pass"),
        _kw("lose", ("PERDO", "SCOPRO", "RIVELO"), ("LOSE", "REVEAL", "I LOSE", "I REVEAL"), "card",
            "choice", "PERDO Contessa", "LOSE Countess"),
        _kw("keep", ("TENGO",), ("KEEP", "I KEEP"), "cards", "choices", "TENGO Duchessa Capitano",
            "KEEP Duchess Captain"),
        _kw("show", ("MOSTRO", "TI MOSTRO"), ("SHOW", "I SHOW"), "card", "choice", "MOSTRO Contessa",
            "SHOW Countess"),
        _kw("discard", ("SCARTO", "SCARTO LA CARTA", "LA SCARTO"), ("DISCARD", "DISCARD THE CARD"),
            discard="discard"),
        _kw("discard", ("RESTITUISCO", "RESTITUISCO LA CARTA", "LA RESTITUISCO"),
            ("RETURN", "GIVE IT BACK", "GIVE THE CARD BACK"), discard="return"),
        _kw("choose", ("SCELGO",), ("CHOOSE", "I CHOOSE"), "card", "choice", "SCELGO Duchessa",
            "CHOOSE Duchess"),
        # The service's extension of the window (engine/interface.MORE_TIME).
        _kw(MORE_TIME, ("PIÙ TEMPO", "PIU TEMPO"), ("MORE TIME",), "kind"),
        # The standing answers (engine/interface.STANDING). Two words each, never one:
        # "Sempre" or "Always" alone starts too many lines of prose. The page's own
        # labels are accepted too ("Passo su tutto ciò che non mi prende di mira").
        _standing(("SEMPRE PASSO", "PASSO SEMPRE", "PASSO SU TUTTO", "PASSO SU TUTTO CIÒ CHE NON MI "
                   "PRENDE DI MIRA", "PASSO SU TUTTO CIO CHE NON MI PRENDE DI MIRA"),
                  ("ALWAYS PASS", "PASS ON EVERYTHING", "PASS ON EVERYTHING THAT DOES NOT TARGET ME"),
                  True, standing=PASS_NOT_ME),
        _standing(("SEMPRE SFIDO", "SFIDO SEMPRE", "SEMPRE DUBITO", "DUBITO SEMPRE"),
                  ("ALWAYS CHALLENGE",), True, "choice", "SEMPRE SFIDO Duchessa",
                  "ALWAYS CHALLENGE Duke"),
        _standing(("NON PASSO PIÙ", "NON PASSO PIU", "NON PIÙ PASSO", "NON PIU PASSO",
                   "NON PASSO PIÙ SEMPRE", "NON PASSO PIU SEMPRE"),
                  ("NO LONGER PASS", "STOP PASSING"), False, standing=PASS_NOT_ME),
        _standing(("NON SFIDO PIÙ", "NON SFIDO PIU", "NON PIÙ SFIDO", "NON PIU SFIDO",
                   "NON DUBITO PIÙ", "NON DUBITO PIU", "NON SFIDO PIÙ SEMPRE", "NON SFIDO PIU SEMPRE"),
                  ("NO LONGER CHALLENGE", "STOP CHALLENGING"), False, "choice",
                  "NON SFIDO PIÙ Duchessa", "NO LONGER CHALLENGE Duke"),
        _standing(("NESSUNA RISPOSTA PERMANENTE", "NESSUNA RISPOSTA FISSA", "TOGLI LE RISPOSTE PERMANENTI"),
                  ("NO STANDING ANSWERS", "NO STANDING ANSWER"), False, standing=None),
        # What stands now, changing nothing (the receipt lists them).
        _standing(("RISPOSTE PERMANENTI", "LE MIE RISPOSTE PERMANENTI", "QUALI RISPOSTE PERMANENTI"),
                  ("STANDING ANSWERS", "MY STANDING ANSWERS", "WHICH STANDING ANSWERS"), True,
                  standing=None, list=True),
    ]
    # Every spelling of a card players write (Duca, Duke, Ambassadore...), as cards.py has them.
    aliases = {alias: card for alias, card in ALIASES.items()}
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
    # "SEMPRE SFIDO la Duchessa", "BLOCCO con la Contessa", "ALWAYS CHALLENGE the Duke",
    # "perdo il Duca", "BLOCK with the Countess".
    fillers = ("chi dichiara", "chi si dichiara", "con la", "con il", "con l'", "con lo", "con", "col",
               "la", "il", "lo", "l'", "ogni", "un", "una", "uno", "mio", "mia",
               "with the", "with", "as", "the", "a", "an", "any", "every", "my")
    arguments = {**{k: {"it": "la carta", "en": "the card"} for k in ("card", "as", "cards")},
                 "standing": {"it": "il personaggio", "en": "the character"}}
    return Vocabulary(keywords, choices, names=names, fillers=fillers, arguments=arguments,
                      extras={"submission": "Complots.submission_action"})
