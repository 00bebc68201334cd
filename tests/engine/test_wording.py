"""Every word a person reads is right (issue 21), in the four games, Italian and English.

Seeded games of every ruleset are played and every line they word is gathered
(tests/engine/wording_corpus.py: events for each viewer, refusals, tables, panels,
forms, headings, the narrator's script, tallies, submissions). Each line is held to
the grammar the service can get right without knowing a seat's gender: no participle
or adjective that agrees with a player's name, "ad"/"ed" before a vowel, lists joined
with "e"/"and", a noun's form chosen by its number, a faction with its article.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

from engine.texts import before, names, plural, word

from wording_corpus import NAMES, Line, corpus

NAME = "(?:" + "|".join(NAMES) + r")\b"
VOWEL_NAME = "(?:" + "|".join(n for n in NAMES if n[0] in "AEIOU") + r")\b"

# Participles and adjectives that would agree with the name before them.
GENDERED = ("morto", "morta", "vivo", "viva", "condannato", "condannata", "ucciso", "uccisa",
            "risorto", "risorta", "tornato", "tornata", "eliminato", "eliminata", "scelto",
            "scelta", "protetto", "protetta", "votato", "votata", "nominato", "nominata",
            "eletto", "eletta", "corrotto", "corrotta", "esiliato", "esiliata", "sbranato",
            "sbranata", "colpito", "colpita", "stato", "stata", "diventato", "diventata",
            "indicato", "indicata", "visitato", "visitata", "risvegliato", "risvegliata")
AGREES = re.compile(
    rf"\b{NAME}(?:,)?\s+(?:(?:non|è|e|viene|resta|rimane|già|più|sarà|era)\s+)*\(?"
    rf"(?:{'|'.join(GENDERED)})\b")
ELISION = re.compile(rf"(?:^|[\s(«:])(?:a|e) {VOWEL_NAME}")
# Two names (each maybe with what goes with it) joined by a comma, the list ending
# without "e"/"ed"/"and" before its last name.
COMMA_LIST = re.compile(rf"\b{NAME}(?: \([^()]*\))?(?:, {NAME}(?: \([^()]*\))?)+"
                        rf"(?! (?:e|ed|and) )(?!, {NAME})(?! \()")
NOUNS = {"it": [("moneta", "monete"), ("carta", "carte"), ("coperta", "coperte"), ("fase", "fasi"),
                ("giocatore", "giocatori"), ("ruolo", "ruoli"), ("personaggio", "personaggi")],
         "en": [("coin", "coins"), ("card", "cards"), ("phase", "phases"), ("player", "players"),
                ("role", "roles")]}
FACTIONS = "(?:Villaggio|Lupi|Licantropi|Popolani|Negromanti|Village|Wolves|Werewolves|Commoners|Necromancers|draw)"
BARE_WINNER = re.compile(rf"\bvinc(?:e|ono) (?:(?:il |i )?draw|{FACTIONS})\b|(?<!the ){FACTIONS} wins?\b")
ITALIAN_IN_ENGLISH = re.compile(r"\b(?:aura (?:bianca|nera)|(?:bianca|nera|buona|malvagia)\b(?! \()|"
                                r"fazione|vince|vincono|nessuno|morti|Sindaco:)")


@lru_cache(maxsize=1)
def lines() -> tuple[Line, ...]:
    return tuple(dict.fromkeys(corpus(range(8))))


def faults(check) -> list[str]:
    return [str(line) for line in lines() if check(line)]


def test_the_corpus_covers_every_game_and_its_moments() -> None:
    """The checks below read something: each game's deaths, ends, lists and counts."""
    seen = {(line.ruleset, line.source.split(":")[0] + ":" + line.source.split(":")[-1])
            for line in lines()}
    for key, kinds in {
        "lupus-live-12": ("death", "game_over", "pyre", "answer", "mayor", "pack"),
        "tempo-reale-7": ("death", "game_over", "pyre", "knows", "exile", "mayor"),
        "lupus-noctis": ("dawn", "death", "game_over", "pyre", "runoff", "partners"),
        "complots": ("turn", "gained", "eliminated", "game_over", "lost_card", "stole"),
    }.items():
        for kind in kinds:
            assert (key, f"event:{kind}") in seen, (key, kind)
    assert sum(1 for line in lines() if line.lang == "it") > 1000


def test_no_participle_or_adjective_agrees_with_a_name() -> None:
    """"Rita è morto", "Rita (morto)", "Rita viene condannato": the service does not know a
    seat's gender, so a name is never followed by a word that agrees with it."""
    assert not faults(lambda line: line.lang == "it" and AGREES.search(line.text))


def test_a_and_e_before_a_vowel_are_ad_and_ed() -> None:
    assert not faults(lambda line: line.lang == "it" and ELISION.search(line.text))


def test_lists_of_names_end_with_and() -> None:
    assert not faults(lambda line: COMMA_LIST.search(line.text))


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_number_and_its_noun_agree(lang: str) -> None:
    def wrong(line: Line) -> bool:
        if line.lang != lang:
            return False
        for one, many in NOUNS[lang]:
            for n, noun in re.findall(rf"(?<![\d.,])(\d+) ({one}|{many})\b", line.text):
                if (noun == one) != (int(n) == 1):
                    return True
        return False
    assert not faults(wrong)


def test_a_faction_wins_with_its_article() -> None:
    """"vince il Villaggio", "vincono i Lupi", "the Wolves win"; a draw is said as one."""
    assert not faults(lambda line: BARE_WINNER.search(line.text))


def test_an_answer_says_what_was_asked() -> None:
    """"Giulia ha l'aura nera.", never "Risposta su Giulia: sì." (every power's question
    has its own sentences: the generic one is only a fallback)."""
    assert not faults(lambda line: line.source == "event:answer"
                      and re.search(r"[Rr]isposta su|answer about", line.text))
    assert any(line.source == "event:answer" for line in lines())


def test_no_placeholder_or_none_is_left() -> None:
    assert not faults(lambda line: re.search(r"\{\w+\}(?<!\{story\})|\bNone\b(?! yet)|\bFalse\b|\bTrue\b",
                                             line.text))


def test_english_reads_english() -> None:
    """The rulebook's proper names stay (Veggente, Spettro...), but no Italian word of
    the service's own: the aura, the faction, the verb of the end."""
    assert not faults(lambda line: line.lang == "en" and ITALIAN_IN_ENGLISH.search(line.text))


# -- the helpers themselves -------------------------------------------------------------

def test_before_elides_a_and_e_in_italian_only() -> None:
    assert before("a", "Anna") == "ad Anna"
    assert before("a", "Bruno") == "a Bruno"
    assert before("e", "Elena") == "ed Elena"
    assert before("e", "Ugo") == "ed Ugo"
    assert before("a", "Anna", "en") == "a Anna"
    assert names(["i Lupi", "i Negromanti"], "it") == "i Lupi e i Negromanti"


def test_names_join_with_e_or_and() -> None:
    assert names(["Anna", "Bruno", "Carla"], "it") == "Anna, Bruno e Carla"
    assert names(["Anna", "Bruno", "Carla"], "en") == "Anna, Bruno and Carla"
    assert names(["Marta", "Elena"], "it") == "Marta ed Elena"
    assert names(["Marta"], "it") == "Marta"
    assert names([], "it") == "—"


def test_plural_picks_the_form_of_the_number() -> None:
    assert plural(1, "moneta", "monete") == "moneta"
    assert plural(0, "moneta", "monete") == "monete"
    assert plural(3, "coin", "coins") == "coins"
    table = {"x": {"it": "{n:# moneta|# monete} {who:torna|tornano} {who:a}",
                   "en": "{n:# coin|# coins}, {who}"}}
    assert word(table, "x", "it", {"n": 1, "who": ["Anna"]}) == "1 moneta torna ad Anna"
    assert word(table, "x", "it", {"n": 2, "who": ["Ugo", "Elena"]}) == "2 monete tornano ad Ugo ed Elena"
    assert word(table, "x", "en", {"n": 2, "who": ["Ugo", "Elena"]}) == "2 coins, Ugo and Elena"
