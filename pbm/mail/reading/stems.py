"""A command's words read by their stem: every form of the verbs and nouns a ruleset's
vocabulary gives is read ("proteggiamo", "proteggerò", "incassa", "tasse", "voting"),
from the one form the vocabulary lists, never from lists of forms made by hand.

Snowball's stemmers (PyStemmer) give each word its stem, Italian for the vocabulary's
Italian words, English for its English ones. A stem alone says too little: "votato" and
"voterei" share "voto"'s. So the ending the player wrote must be one a command is written
with: the present ("voto", "votiamo", "vota"), the infinitive after "voglio" ("votare"),
the future of a decision ("voterò"); for a noun, its number ("tasse", "monete"). A past,
a conditional, a gerund or a participle ("ho votato", "voterei", "votando") is not a
command: the line is *doubtful*, and a careful Master asks.

Articles carry nothing here ("prendo l'aiuto estero" is "prendo aiuto estero"), and an
articulated preposition is its preposition ("prendo dal tesoro" is "prendo da tesoro").
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import Stemmer

from engine.interface import Keyword

from .folding import fold

_STEMMERS = {"it": Stemmer.Stemmer("italian"), "en": Stemmer.Stemmer("english")}
# Articles, and "one"/"1" (a coin is "una moneta", "1 moneta", "a coin"): dropped.
_ARTICLES = {"il", "lo", "la", "i", "gli", "le", "l'", "un", "uno", "una", "un'", "1",
             "the", "a", "an", "one"}
# An articulated preposition is its preposition.
_PREPOSITIONS = {
    **dict.fromkeys(("al", "allo", "alla", "ai", "agli", "alle", "all'", "ad"), "a"),
    **dict.fromkeys(("del", "dello", "della", "dei", "degli", "delle", "dell'", "d'"), "di"),
    **dict.fromkeys(("dal", "dallo", "dalla", "dai", "dagli", "dalle", "dall'"), "da"),
    **dict.fromkeys(("sul", "sullo", "sulla", "sui", "sugli", "sulle", "sull'"), "su"),
    **dict.fromkeys(("col", "coi"), "con"),
    "due": "2", "two": "2", "tre": "3", "three": "3",
}
# What an Italian command's verb may end with after its stem: the present (1st person,
# and the 3rd a player uses of herself: "incassa"), the infinitive ("voglio votare"), the
# future of a decision ("voterò", "proteggeremo"). Accents as typed, or left off.
_IT_VERB_ENDINGS = {"o", "a", "e", "iamo", "amo", "emo", "imo", "are", "ere", "ire", "rre",
                    "ero", "iro", "aro", "eremo", "iremo", "aremo", "hiamo", "hero", "heremo", "isco"}
_ENDINGS_LONGEST_FIRST = sorted(_IT_VERB_ENDINGS, key=len, reverse=True)
# English: the base form and "-ing" ("I'm voting"); never "-ed", nor the 3rd person "-s".
_EN_VERB_ENDINGS = {"", "ing", "e"}
# A noun's number: "tassa" / "tasse", "voto" / "voti", "moneta" / "monete".
_NUMBER_PAIRS = {("a", "e"), ("o", "i"), ("e", "i"), ("a", "i")}
_NUMBER_PAIRS |= {(b, a) for a, b in _NUMBER_PAIRS}
# The 3rd person ("incassa", "protegge") only of a verb the vocabulary gives in the
# infinitive: "colpa" is not a form of COLPO.
_IT_THIRD_PERSON = {"a", "e"}
_WORD = re.compile(r"[^\W_]+(?:['\u2019](?=[^\W\d_]))?|\d+", re.UNICODE)


@dataclass(frozen=True)
class Token:
    """A word of a line: as typed (lower case, accents kept), folded, and where it ends
    in the line (so the argument after a command's words is the text that follows)."""

    word: str
    folded: str
    end: int


def tokens(text: str, limit: int = 12) -> list[Token]:
    """The line's first words, articles left out, articulated prepositions made plain."""
    out: list[Token] = []
    for m in _WORD.finditer(text.replace("\u2019", "'")):
        word = m.group(0).lower()
        folded = fold(word)
        if folded in _ARTICLES:
            continue
        folded = _PREPOSITIONS.get(folded, folded)
        out.append(Token(word, folded, m.end()))
        if len(out) >= limit:
            break
    return out


@functools.lru_cache(maxsize=16384)
def stems_of(word: str, lang: str) -> tuple[str, ...]:
    """The stems a typed word may have: as typed, and for Italian with the accent a
    phone leaves off a last vowel ("votero" for "voterò")."""
    stemmer = _STEMMERS[lang]
    found = [stemmer.stemWord(word)]
    if lang == "it" and word[-1:] in "aeiou" and len(word) > 3:
        found.append(stemmer.stemWord(word[:-1] + {"a": "à", "e": "è", "i": "ì", "o": "ò", "u": "ù"}[word[-1]]))
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class PhraseWord:
    folded: str
    word: str
    stem: str
    verbal: bool      # a verb's forms are read ("votiamo", "voterò")
    infinitive: bool  # and its 3rd person too: the vocabulary gives its infinitive


@dataclass(frozen=True, eq=False)
class Phrase:
    keyword: Keyword
    lang: str
    words: tuple[PhraseWord, ...]
    order: int  # the vocabulary's order: of two phrases that fit as well, the first wins


@dataclass(frozen=True)
class StemMatch:
    """A command's words found at the start of a line: its keyword, the text after them,
    whether every word was written as the vocabulary lists it, and whether one was
    written in a form no command takes (``doubtful``)."""

    keyword: Keyword
    rest: str
    exact: bool
    doubtful: bool = False


def _is_verbal(word: str, lang: str) -> bool:
    return lang == "en" or word.endswith(("are", "ere", "ire", "iamo", "rre"))


class StemTable:
    """A vocabulary's command phrases, indexed by the stem of their first word."""

    def __init__(self, keywords: list[Keyword]) -> None:
        phrases: list[tuple[Keyword, str, list[Token]]] = []
        verbal: set[tuple[str, str]] = set()
        infinitive: set[tuple[str, str]] = set()
        for k in keywords:
            if k.value == "text":
                continue  # "note", "domanda": prose starts with them; only as written
            for lang, words in (("it", k.it), ("en", k.en)):
                for w in words:
                    toks = tokens(w, limit=20)
                    if not toks:
                        continue
                    phrases.append((k, lang, toks))
                    for i, t in enumerate(toks):
                        stem = (lang, stems_of(t.word, lang)[0])
                        # A command's first word in -o is a verb's first person ("voto", "proteggo").
                        first_person = i == 0 and (k.verb or len(toks) == 1) and t.folded.endswith("o")
                        if _is_verbal(t.word, lang) or first_person or (lang == "en" and i == 0):
                            verbal.add(stem)
                        if _is_verbal(t.word, lang):
                            infinitive.add(stem)
        self._first: dict[tuple[str, str], list[Phrase]] = {}
        self._begins: dict[str, bool] = {}  # each word asked once
        for order, (k, lang, toks) in enumerate(phrases):
            # A verb's forms are read in a phrase's first word, or in a later one written as a
            # verb ("LASCIO PASSARE"): "FACCIO UN ASSASSINIO" is not "faccio un assassinare".
            phrase_words = tuple(PhraseWord(t.folded, t.word, stems_of(t.word, lang)[0],
                                     (lang, stems_of(t.word, lang)[0]) in verbal and (i == 0 or _is_verbal(t.word, lang)),
                                     (lang, stems_of(t.word, lang)[0]) in infinitive) for i, t in enumerate(toks))
            phrase = Phrase(k, lang, phrase_words, order)
            for key in _keys(phrase_words[0], lang):
                bucket = self._first.setdefault(key, [])
                if phrase not in bucket:
                    bucket.append(phrase)

    def begins(self, word: str) -> bool:
        """May a command phrase start with this word (in any of its forms)?"""
        found = self._begins.get(word)
        if found is None:
            folded = fold(word)
            tok = Token(word.lower(), _PREPOSITIONS.get(folded, folded), 0)
            found = folded not in _ARTICLES and any(
                key in self._first for lang in ("it", "en") for key in _typed_keys(tok, lang))
            if len(self._begins) > 16384:
                self._begins.clear()
            self._begins[word] = found
        return found

    def match(self, text: str) -> StemMatch | None:
        """The longest command phrase the line starts with, read by stems."""
        toks = tokens(text)
        if not toks:
            return None
        candidates: list[Phrase] = []
        for lang in ("it", "en"):
            for key in _typed_keys(toks[0], lang):
                candidates.extend(self._first.get(key, ()))
        fits: list[tuple[int, StemMatch]] = []
        for phrase in sorted(set(candidates), key=lambda p: p.order):
            n = len(phrase.words)
            if n > len(toks):
                continue
            exact, doubtful = True, False
            for pw, tok in zip(phrase.words, toks):
                how = _compare(pw, tok, phrase.lang)
                if how is None:
                    break
                exact = exact and how == "exact"
                doubtful = doubtful or how == "doubtful"
            else:
                fits.append((n, StemMatch(phrase.keyword, text[toks[n - 1].end:].strip(), exact, doubtful)))
        if not fits:
            return None
        longest = max(n for n, _ in fits)
        best = [m for n, m in fits if n == longest]
        exact_fits = [m for m in best if m.exact]
        if exact_fits:
            return exact_fits[0]
        sure = [m for m in best if not m.doubtful]
        if len({_command(m.keyword) for m in sure}) > 1:
            # One form of two commands' words ("assassinare": ASSASSINIO or ASSASSINO?): asked.
            return StemMatch(sure[0].keyword, sure[0].rest, False, True)
        return (sure or best)[0]


def _command(keyword: Keyword) -> tuple:
    return keyword.key, tuple(sorted((k, str(v)) for k, v in keyword.fixed.items()))


def _keys(word: PhraseWord, lang: str) -> set[tuple[str, str]]:
    keys = {(lang, "=" + word.folded), (lang, word.stem)}
    if len(word.folded) > 3:
        keys.add((lang, "~" + word.folded[:-1]))
    return keys


def _typed_keys(tok: Token, lang: str) -> list[tuple[str, str]]:
    keys = [(lang, "=" + tok.folded)] + [(lang, s) for s in stems_of(tok.word, lang)]
    if len(tok.folded) > 3:
        keys.append((lang, "~" + tok.folded[:-1]))
    if lang == "it":
        # Where Snowball leaves an ending on ("seguiamo" -> "seguiam"), the word less a
        # command's ending is its stem.
        keys += [(lang, tok.word[:-len(e)]) for e in _ENDINGS_LONGEST_FIRST
                 if tok.word.endswith(e) and len(tok.word) - len(e) >= 3]
    return keys


def _compare(pw: PhraseWord, tok: Token, lang: str) -> str | None:
    """"exact", "inflected" (a form a command takes), "doubtful" (the same word in a form no
    command takes: "votato", "voterei") or None (another word)."""
    if pw.folded == tok.folded:
        return "exact"
    if len(pw.folded) <= 3 or pw.folded.isdigit():
        return None  # short words (prepositions) and numbers only as written
    if len(tok.folded) > 3 and tok.folded[:-1] == pw.folded[:-1] and (pw.folded[-1], tok.folded[-1]) in _NUMBER_PAIRS:
        if not pw.verbal:
            return "inflected"  # "tasse", "monete", "aiuto"
    if pw.stem not in stems_of(tok.word, lang):
        ending = tok.word[len(pw.stem):] if tok.word.startswith(pw.stem) else None
        if lang == "it" and pw.verbal and ending in _IT_VERB_ENDINGS:
            return "doubtful" if ending in _IT_THIRD_PERSON and not pw.infinitive else "inflected"
        return None
    if not pw.verbal:
        return "doubtful"
    if lang == "en":
        base = pw.folded[:-1] if pw.folded.endswith("e") else pw.folded
        ending = tok.folded[len(base):] if tok.folded.startswith(base) else None
        doubled = ending is not None and len(ending) == 4 and ending.endswith("ing")  # "stopping"
        return "inflected" if ending in _EN_VERB_ENDINGS or doubled else "doubtful"
    for stem in stems_of(tok.word, lang):
        if stem == pw.stem and tok.word.startswith(stem):
            ending = fold(tok.word[len(stem):])
            if ending in _IT_THIRD_PERSON and not pw.infinitive:
                return "doubtful"
            if ending in _IT_VERB_ENDINGS:
                return "inflected"
    return "doubtful"
