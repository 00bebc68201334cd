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
Duchess`` leave one standing (``on: True``), ``NON PASSO PIÙ`` / ``NO LONGER PASS`` and
``NON SFIDO PIÙ Duchessa`` / ``NO LONGER CHALLENGE Duchess`` take it back (``on: False``),
``NESSUNA RISPOSTA PERMANENTE`` / ``NO STANDING ANSWERS`` takes them all back
(``standing: None``), ``RISPOSTE PERMANENTI`` / ``STANDING ANSWERS`` lists them and
changes nothing (``list: True``). Every key of ``Complots.standing_answers`` has its words here
(tests/wording/test_vocabulary_drift.py).
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


def _natural(main: Keyword, it: tuple[str, ...], en: tuple[str, ...]) -> Keyword:
    """The forms players write for ``main`` ("Rubo a Carla", "ok per me"): read exactly as
    ``main``, but as verbs (``Keyword.verb``): a line of prose that starts with one and
    does not read ("Ok per me va bene domani") is just a line, and no other game's mail
    is told they are a Complots command."""
    return Keyword(main.key, it, en, main.value, main.example_it, main.example_en, dict(main.fixed),
                   verb=True)


def _turn(action: str, it: tuple[str, ...], en: tuple[str, ...], natural_it: tuple[str, ...] = (),
          natural_en: tuple[str, ...] = (), ex_it: str = "", ex_en: str = "") -> list[Keyword]:
    """A turn's action: its keywords (the first is what the mails print), then the forms
    players write and the action's names as pages print them ("Furto (Capitano)"),
    which are accepted back; a target after them if the action takes one."""
    if action in TARGETED:
        main = _kw("turn", it, en, "target", "name", ex_it, ex_en, action=action)
    else:
        main = _kw("turn", it, en, action=action)
    printed_it, printed_en = ACTION_NAMES[action]["it"].upper(), ACTION_NAMES[action]["en"].upper()
    natural_it = tuple(w for w in dict.fromkeys(natural_it + (printed_it,)) if w not in it)
    natural_en = tuple(w for w in dict.fromkeys(natural_en + (printed_en,)) if w not in en)
    return [main, _natural(main, natural_it, natural_en)]


def _answer(it: tuple[str, ...], en: tuple[str, ...], natural_it: tuple[str, ...],
            natural_en: tuple[str, ...], key: str = "", value: str = "none", ex_it: str = "",
            ex_en: str = "", **fixed: Any) -> list[Keyword]:
    main = _kw("answer", it, en, key, value, ex_it, ex_en, **fixed)
    return [main, _natural(main, natural_it, natural_en)]


def _more_time() -> list[Keyword]:
    main = _kw(MORE_TIME, ("PIÙ TEMPO", "PIU TEMPO"), ("MORE TIME",), "kind")
    return [main, _natural(main, ("MI SERVE PIÙ TEMPO", "MI SERVE PIU TEMPO", "HO BISOGNO DI PIÙ TEMPO",
                                  "HO BISOGNO DI PIU TEMPO", "CHIEDO PIÙ TEMPO", "CHIEDO PIU TEMPO"),
                           ("I NEED MORE TIME", "NEED MORE TIME"))]


def vocabulary() -> Vocabulary:
    """The book's names first (the first word of each is what the mails print), then the
    forms players write: "Rubo a Carla", "Assassino Dario", "Blocco con la Contessa",
    "prendo il reddito", "Ti sfido!", "ok per me", "perdo il Duca"."""
    keywords = [
        *_turn("income", ("REDDITO",), ("INCOME",),
               ("PRENDO IL REDDITO", "PRENDO REDDITO", "PRENDO 1 MONETA", "PRENDO UNA MONETA",
                "INCASSO UNA MONETA", "INCASSO IL REDDITO", "INCASSARE IL REDDITO"),
               ("TAKE INCOME", "I TAKE INCOME", "TAKE 1 COIN", "TAKE ONE COIN", "COLLECT INCOME",
                "COLLECT ONE COIN")),
        *_turn("foreign_aid", ("AIUTI", "AIUTI STRANIERI"), ("FOREIGN AID", "AID"),
               ("AIUTO STRANIERO", "PRENDO GLI AIUTI STRANIERI", "PRENDO AIUTI STRANIERI",
                "PRENDO GLI AIUTI", "PRENDO 2 MONETE", "PRENDO DUE MONETE", "AIUTO ESTERO",
                "AIUTI ESTERI", "PRENDO L'AIUTO ESTERO", "CHIEDO GLI AIUTI STRANIERI", "CHIEDO L'AIUTO ESTERO",
                "CHIEDERE GLI AIUTI", "INCASSO 2 MONETE"),
               ("TAKE FOREIGN AID", "I TAKE FOREIGN AID", "TAKE 2 COINS", "TAKE TWO COINS", "ASK FOR FOREIGN AID",
                "TAKE THE AID", "COLLECT FOREIGN AID")),
        # The 7-coin action the book calls Assassinio (or omicidio); "colpo di stato" too.
        # OMICIDIO, UCCIDO, KILL, ESAME are verbs here: other games name a ritual or a
        # power so, and a line of theirs must not be told it is a Complots command.
        *_turn("coup", ("ASSASSINIO", "COLPO DI STATO", "COLPO"),
               ("ASSASSINATION", "COUP"),
               ("OMICIDIO", "ASSASSINIO DI", "ASSASSINIO A", "OMICIDIO DI", "OMICIDIO A", "COLPO DI STATO A",
                "FACCIO UN ASSASSINIO", "FACCIO UN OMICIDIO", "FACCIO UN COLPO DI STATO"),
               ("ASSASSINATION OF", "COUP ON"), "ASSASSINIO Bruno", "ASSASSINATION Bruno"),
        *_turn("tax", ("TASSA", "DUCHESSA"), ("TAX", "DUCHESS"),
               ("DUCA", "PRENDO LA TASSA", "PRENDO 3 MONETE", "PRENDO TRE MONETE", "USO LA DUCHESSA",
                "USO IL DUCA", "DICHIARO LA DUCHESSA", "DICHIARO IL DUCA", "GIOCO LA DUCHESSA", "PRENDO LE TASSE", "RISCUOTO LA TASSA", "RISCUOTERE LE TASSE", "INCASSO LA TASSA",
                "INCASSO 3 MONETE", "INCASSARE LE TASSE"),
               ("DUKE", "TAKE 3 COINS", "TAKE THREE COINS", "TAKE TAX", "TAKE THE TAX", "USE THE DUCHESS",
                "USE THE DUKE", "CLAIM THE DUKE", "CLAIM THE DUCHESS", "COLLECT TAX", "COLLECT THE TAX", "LEVY TAX")),
        # The Assassino's 3-coin power (the Contessa blocks it).
        # ASSASSINATE is the Assassin's power, as in the English game (Coup), whose players
        # write it so; the 7-coin action is the ASSASSINATION, or the COUP they know.
        *_turn("assassinate", ("ASSASSINO",), ("ASSASSIN", "ASSASSINATE"),
               ("UCCIDO", "UCCIDO CON L'ASSASSINO", "L'ASSASSINO", "USO L'ASSASSINO", "MANDO L'ASSASSINO",
                "DICHIARO L'ASSASSINO SU", "DICHIARO L'ASSASSINO CONTRO", "GIOCO L'ASSASSINO SU"),
               ("KILL", "THE ASSASSIN", "I KILL", "USE THE ASSASSIN", "SEND THE ASSASSIN", "CLAIM THE ASSASSIN ON"),
               "ASSASSINO Bruno", "ASSASSIN Bruno"),
        *_turn("steal", ("FURTO", "RUBO", "CAPITANO"), ("STEAL", "CAPTAIN"),
               # "Prendo 2 monete a Carla" is a theft, never the foreign aid "PRENDO 2 MONETE" starts.
               ("FURTO A", "FURTO AD", "RUBO A", "RUBO AD", "USO IL CAPITANO", "RUBO 2 MONETE A",
                "RUBO DUE MONETE A", "PRENDO 2 MONETE A", "PRENDO DUE MONETE A", "PRENDO 2 MONETE DA",
                "PRENDO DUE MONETE DA", "DICHIARO IL CAPITANO SU", "DICHIARO IL CAPITANO CONTRO",
                "GIOCO IL CAPITANO SU", "GIOCO IL CAPITANO CONTRO"),
               ("STEAL FROM", "I STEAL FROM", "USE THE CAPTAIN", "STEAL 2 COINS FROM", "STEAL TWO COINS FROM",
                "TAKE 2 COINS FROM", "TAKE TWO COINS FROM", "CLAIM THE CAPTAIN ON", "CLAIM THE CAPTAIN AGAINST"),
               "FURTO Bruno", "STEAL Bruno"),
        # No AMBASCIATORE / INQUISITORE keywords: the variant decides what an exchange
        # claims, and the Inquisitore both exchanges and examines.
        *_turn("exchange", ("SCAMBIO",), ("EXCHANGE",), ("SCAMBIO CON LA CORTE", "FACCIO LO SCAMBIO",
                                                        "SCAMBIO LE CARTE", "SCAMBIARE LE CARTE",
                                                        "CAMBIO LE CARTE", "PRENDO DUE CARTE DALLA CORTE",
                                                        "USO L'AMBASCIATORE"),
               ("EXCHANGE WITH THE COURT", "I EXCHANGE", "EXCHANGE CARDS", "SWAP CARDS")),
        *_turn("examine", ("ESAMINO",), ("EXAMINE",),
               ("ESAME", "ESAME DI", "ESAMINO LA CARTA DI", "ESAMINARE LA CARTA DI", "GUARDO UNA CARTA DI",
                "GUARDARE UNA CARTA DI", "VEDO UNA CARTA DI", "VEDERE UNA CARTA DI"),
               ("EXAMINATION", "EXAMINATION OF", "LOOK AT A CARD OF", "SEE A CARD OF", "EXAMINE A CARD OF"),
               "ESAMINO Bruno", "EXAMINE Bruno"),
        *_answer(("SFIDO", "DUBITO"), ("CHALLENGE",),
                 ("TI SFIDO", "LO SFIDO", "LA SFIDO", "NE DUBITO", "NON CI CREDO", "METTO IN DUBBIO",
                  "SFIDO IL", "SFIDO LA", "SFIDO L'", "DUBITO CHE", "DUBITO DEL", "DUBITO DELLA", "DUBITO DELL'"),
                 ("I CHALLENGE", "I CHALLENGE YOU", "I DOUBT IT"), answer="challenge"),
        *_answer(("BLOCCO",), ("BLOCK",), ("TI BLOCCO", "LO BLOCCO", "LA BLOCCO"), ("I BLOCK",),
                 "as", "choice", "BLOCCO Contessa", "BLOCK Countess", answer="block"),
        *_answer(("PASSO",), ("PASS",), ("OK PER ME", "NESSUNA OBIEZIONE", "NESSUN DUBBIO", "LASCIO PASSARE",
                                         "VAI PURE", "PROCEDI PURE", "LASCIO CORRERE", "NON SFIDO E NON BLOCCO",
                                         "NESSUNA SFIDA", "NIENTE DA DIRE"),
                 ("I PASS", "NO OBJECTION", "NO OBJECTIONS", "OK BY ME", "FINE BY ME", "LET IT GO",
                  "LET IT PASS", "GO AHEAD", "NO CHALLENGE", "NO CHALLENGE NO BLOCK", "NOTHING FROM ME"),
                 answer="pass"),
        _kw("lose", ("PERDO", "SCOPRO"), ("LOSE", "REVEAL"), "card", "choice", "PERDO Contessa",
            "LOSE Countess"),
        Keyword("card", ("RIVELO",), ("I LOSE", "I REVEAL"), "choice", "PERDO Contessa", "LOSE Countess",
                {"kind": "lose"}, verb=True),
        _kw("keep", ("TENGO",), ("KEEP",), "cards", "choices", "TENGO Duchessa Capitano",
            "KEEP Duchess Captain"),
        Keyword("cards", (), ("I KEEP",), "choices", "TENGO Duchessa Capitano", "KEEP Duchess Captain",
                {"kind": "keep"}, verb=True),
        _kw("show", ("MOSTRO",), ("SHOW",), "card", "choice", "MOSTRO Contessa", "SHOW Countess"),
        Keyword("card", ("TI MOSTRO",), ("I SHOW",), "choice", "MOSTRO Contessa", "SHOW Countess",
                {"kind": "show"}, verb=True),
        _kw("discard", ("SCARTO",), ("DISCARD",), discard="discard"),
        Keyword("discard", ("SCARTO LA CARTA", "LA SCARTO"), ("DISCARD THE CARD",), "none", "SCARTO",
                "DISCARD", {"kind": "discard", "discard": "discard"}, verb=True),
        _kw("discard", ("RESTITUISCO",), ("RETURN",), discard="return"),
        Keyword("discard", ("RESTITUISCO LA CARTA", "LA RESTITUISCO"), ("GIVE IT BACK", "GIVE THE CARD BACK"),
                "none", "RESTITUISCO", "RETURN", {"kind": "discard", "discard": "return"}, verb=True),
        _kw("choose", ("SCELGO",), ("CHOOSE",), "card", "choice", "SCELGO Duchessa", "CHOOSE Duchess"),
        Keyword("card", (), ("I CHOOSE",), "choice", "SCELGO Duchessa", "CHOOSE Duchess",
                {"kind": "choose"}, verb=True),
        # The service's extension of the window (engine/interface.MORE_TIME).
        *_more_time(),
        # The standing answers (engine/interface.STANDING). Two words each, never one:
        # "Sempre" or "Always" alone starts too many lines of prose. The page's own
        # labels are accepted too ("Passo su tutto ciò che non mi prende di mira").
        _standing(("SEMPRE PASSO", "PASSO SEMPRE", "PASSO SU TUTTO", "PASSO SU TUTTO CIÒ CHE NON MI "
                   "PRENDE DI MIRA", "PASSO SU TUTTO CIO CHE NON MI PRENDE DI MIRA"),
                  ("ALWAYS PASS", "PASS ON EVERYTHING", "PASS ON EVERYTHING THAT DOES NOT TARGET ME"),
                  True, standing=PASS_NOT_ME),
        _standing(("SEMPRE SFIDO", "SFIDO SEMPRE", "SEMPRE DUBITO", "DUBITO SEMPRE"),
                  ("ALWAYS CHALLENGE",), True, "choice", "SEMPRE SFIDO Duchessa",
                  "ALWAYS CHALLENGE Duchess"),
        _standing(("NON PASSO PIÙ", "NON PASSO PIU", "NON PIÙ PASSO", "NON PIU PASSO",
                   "NON PASSO PIÙ SEMPRE", "NON PASSO PIU SEMPRE"),
                  ("NO LONGER PASS", "STOP PASSING"), False, standing=PASS_NOT_ME),
        _standing(("NON SFIDO PIÙ", "NON SFIDO PIU", "NON PIÙ SFIDO", "NON PIU SFIDO",
                   "NON DUBITO PIÙ", "NON DUBITO PIU", "NON SFIDO PIÙ SEMPRE", "NON SFIDO PIU SEMPRE"),
                  ("NO LONGER CHALLENGE", "STOP CHALLENGING"), False, "choice",
                  "NON SFIDO PIÙ Duchessa", "NO LONGER CHALLENGE Duchess"),
        _standing(("NESSUNA RISPOSTA PERMANENTE", "NESSUNA RISPOSTA FISSA", "TOGLI LE RISPOSTE PERMANENTI"),
                  ("NO STANDING ANSWERS", "NO STANDING ANSWER"), False, standing=None),
        # What stands now, changing nothing (the receipt lists them).
        _standing(("RISPOSTE PERMANENTI", "LE MIE RISPOSTE PERMANENTI", "QUALI RISPOSTE PERMANENTI"),
                  ("STANDING ANSWERS", "MY STANDING ANSWERS", "WHICH STANDING ANSWERS"), True,
                  standing=None, list=True),
    ]
    # Every spelling of a card players write (Duca, Duke, Ambassadore...), as cards.py has them.
    aliases = dict(ALIASES.items())
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
               "la", "il", "lo", "l'", "le", "i", "gli", "ogni", "un", "una", "uno", "mio", "mia", "mie", "miei",
               "with the", "with", "as", "the", "a", "an", "any", "every", "my")
    arguments = {**{k: {"it": "la carta", "en": "the card"} for k in ("card", "as", "cards")},
                 "standing": {"it": "il personaggio", "en": "the character"}}
    return Vocabulary(keywords, choices, names=names, fillers=fillers, arguments=arguments,
                      extras={"submission": "Complots.submission_action"})
