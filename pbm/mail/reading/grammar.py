"""A ruleset's vocabulary (``engine.interface.Vocabulary``) compiled for reading lines:
its keywords as patterns, its choices as tables of what players may write for each.

``vocabulary`` arguments take a ruleset key, a ``Vocabulary``, or None: every
ruleset's words at once, for mail read before its game is known.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Union

from engine.interface import Keyword, Vocabulary
from engine.registry import available, get_ruleset

from rapidfuzz.distance import OSA

from .names import clean_name, fold, rest_of, words_of
from .stems import StemTable

VocabularyLike = Union[Vocabulary, "Grammar", str, None]
# A slip is read in a command's word of four letters at least ("Vto" for VOTO).
_SLIP_MIN = 4

# What may stand between a keyword and its argument: "VOTO: Carla", "VOTO - Carla", "VOTO → Carla".
_AFTER_KEYWORD = r"(?=$|[\s:=.,;!?-])(?:[\s:=]|[-\u2013\u2014]+>?(?=\s)|\u2192)*(.*)$"


def vocabulary_of(ruleset: str | None) -> Vocabulary:
    """The ruleset's vocabulary; None: every registered ruleset's, the first
    registered winning a word two of them define. Compiled once per key (grammar)."""
    if ruleset is not None:
        return get_ruleset(ruleset).vocabulary()
    merged = Vocabulary()
    for key in available():
        merged = merged.merged(get_ruleset(key).vocabulary())
    return merged


def words_pattern(words) -> str:
    # A longer word first, so that it wins over its own prefix (VICEx over VICE).
    ordered = sorted({w.upper() for w in words}, key=len, reverse=True)
    return "|".join(r"\s+".join(map(re.escape, w.split())) for w in ordered)


@dataclass
class Grammar:
    """A vocabulary compiled for reading lines."""

    vocabulary: Vocabulary

    def __post_init__(self) -> None:
        self.keywords: dict[str, Keyword] = {}
        for k in self.vocabulary.keywords:
            for w in k.words():
                self.keywords.setdefault(" ".join(w.upper().split()), k)
        every = list(self.keywords)
        strict = [w for w, k in self.keywords.items() if not k.verb]
        self._any = re.compile(rf"^({words_pattern(every)}){_AFTER_KEYWORD}", re.I) if every else None
        self._strict = re.compile(rf"^({words_pattern(strict)}){_AFTER_KEYWORD}", re.I) if strict else None
        self.text_keys = {k.key for k in self.vocabulary.keywords if k.value == "text"}
        self._choices = {key: _choice_table(self.vocabulary.aliases(key))
                         for key in {*self.vocabulary.choices, *self.vocabulary.names}}
        self._fillers = sorted({fold(f) for f in self.vocabulary.fillers}, key=len, reverse=True)
        # The words naming a side that players put before a command (commands.py reads past them).
        self.openers = tuple(sorted({fold(o) for o in self.vocabulary.openers}))
        # Each command's own words, folded, but the free-text ones' ("note" is also prose):
        # "nomino VICE Carla", "Voto Carla COME SINDACO", a second command inside prose.
        self.words_of_key: dict[str, set[str]] = {}
        for w, k in self.keywords.items():
            if k.value != "text":
                self.words_of_key.setdefault(k.key, set()).add(fold(w))
        # The first word of every command, as written ("note", "domanda" too).
        self.first_words = frozenset(fold(w.split()[0]).rstrip(":") for w in self.keywords)
        # Every form of the commands' words, by their stems (stems.py).
        self.stems = StemTable(self.vocabulary.keywords)
        # The one-word commands a slip of one letter may be read as ("Vto", "Sbarno").
        self._slips = [(fold(w), k) for w, k in self.keywords.items()
                       if " " not in w and len(w) >= _SLIP_MIN and k.value != "text"]
        self._slipped: dict[str, Keyword | None] = {}  # each typed word measured once

    def slip(self, line: str) -> tuple[Keyword, str] | None:
        """The command whose one word the line's first word misses by one letter (an edit
        or two letters swapped), when no other command is that close."""
        words = line.split(None, 1)
        if not words:
            return None
        typed = fold(words[0].rstrip(":,.;!"))
        if len(typed) < _SLIP_MIN - 1 or not typed.isalpha():
            return None
        if typed not in self._slipped:
            close = {}
            for word, k in self._slips:
                if abs(len(word) - len(typed)) <= 1 and OSA.distance(typed, word, score_cutoff=1) <= 1 \
                        and not _vowel_for_vowel(typed, word):
                    close[(k.key, tuple(sorted(k.fixed.items(), key=str)))] = k
            if len(self._slipped) > 4096:
                self._slipped.clear()
            self._slipped[typed] = next(iter(close.values())) if len(close) == 1 else None
        found = self._slipped[typed]
        return None if found is None else (found, words[1].strip() if len(words) > 1 else "")

    def match(self, line: str, strict: bool = False) -> tuple[Keyword, str] | None:
        pattern = self._strict if strict else self._any
        m = pattern.match(line) if pattern else None
        if not m:
            return None
        return self.keywords[" ".join(m.group(1).upper().split())], m.group(2).strip()

    def resolve_choice(self, key: str, text: str) -> tuple[str | None, dict | None]:
        table = self._choices.get(key, {})
        typed = fold(clean_name(text))
        if compact(typed) not in table:
            typed = self._without_fillers(typed)
        wanted = compact(typed)
        if not wanted:
            return None, {"code": "missing_argument", "argument": key}
        if wanted in table:
            return table[wanted], None
        found = sorted({value for alias, value in table.items() if alias.startswith(wanted)})
        if len(found) == 1:
            return found[0], None
        return None, {"code": "unknown_choice", "argument": key, "value": text.strip(),
                      "candidates": found or list(dict.fromkeys(table.values()))}

    def read_choice(self, key: str, text: str) -> tuple[str | None, dict | None, str]:
        """A choice at the start of ``text``: (choice, None, the rest) or (None, error, "").
        The whole text first, as ``resolve_choice``; then its longest leading run of
        words that names a choice ("DIVENTO Capitano, così comando io")."""
        choice, error = self.resolve_choice(key, text)
        if error is None or error["code"] != "unknown_choice":
            return choice, error, ""
        table = self._choices.get(key, {})
        words = words_of(text)
        for n in range(min(len(words) - 1, 8), 0, -1):  # no choice is named in more words
            head = fold(clean_name(" ".join(words[:n])))
            for typed in (head, self._without_fillers(head)):
                if compact(typed) and compact(typed) in table:
                    return table[compact(typed)], None, rest_of(words[n:])
        return None, error, ""

    def is_filler(self, word: str) -> bool:
        """An article or such that names no choice alone ("la", "the")."""
        return fold(word) in self._fillers

    def _without_fillers(self, typed: str) -> str:
        changed = True
        while changed and typed:
            changed = False
            for filler in self._fillers:
                glued = filler.endswith("'")
                if typed.startswith(filler) and (glued or typed[len(filler):len(filler) + 1] == " "):
                    typed = typed[len(filler):].strip()
                    changed = True
                    break
        return typed


def _vowel_for_vowel(typed: str, word: str) -> bool:
    """'posso' for 'passo', 'vito' for 'voto': one vowel for another makes another word
    in Italian more often than a slip."""
    if len(typed) != len(word):
        return False
    diff = [(a, b) for a, b in zip(typed, word) if a != b]
    return len(diff) == 1 and set(diff[0]) <= set("aeiou")


def compact(text: str) -> str:
    """'\\end{story}' -> 'endstory', 'Meno voto  diretto' -> 'menovotodiretto'."""
    return re.sub(r"[^0-9a-z]", "", fold(text.replace("\\", " ")))


def _choice_table(aliases: dict[str, str]) -> dict[str, str]:
    table = {compact(value): value for value in aliases.values()}
    table.update({compact(alias): value for alias, value in aliases.items() if compact(alias)})
    return table


@functools.lru_cache(maxsize=32)
def _grammar_of(ruleset: str | None) -> Grammar:
    return Grammar(vocabulary_of(ruleset))


def grammar(vocabulary: VocabularyLike = None) -> Grammar:
    if isinstance(vocabulary, Grammar):
        return vocabulary
    if isinstance(vocabulary, Vocabulary):
        return Grammar(vocabulary)
    return _grammar_of(vocabulary)
