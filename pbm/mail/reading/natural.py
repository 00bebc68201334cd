"""Where a command starts in a line written as people write: after the words they put
first, in any form of its verb, with one letter wrong, or in a later clause.

``starts`` offers the places a command may start, most likely first; commands.py reads
each as it reads any command (its arguments must read) and takes the first that does.
Each start says how it was found, so that the reader can hold back where a careful
Master would: a verb in a form no command takes ("voterei Carla", "ho votato Carla"), a
slip in the command's word followed by more than a name, a clause after words that
change its sense ("se Bruno mente, voto Carla", "Lucia dice: voto Carla") are asked
about, never recorded.

    "Io e Alessandro votiamo Giorgio"     company named first: the group's own command
    "Proteggo di nuovo Alessia"           words between the verb and the name (names.py)
    "Come sindaco voto Chiara"            the command named first ("for mayor I vote Chiara")
    "Vto Sara"                            a slip of one letter in the command's word
    "Dopo averci pensato, voto Carla"     a later clause
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from engine.interface import Keyword

from .folding import fold
from .grammar import Grammar
from .name_forms import name_index

# What the player writes before a command about who acts with her: "io e Alessandro",
# "Alessandro e io", "noi due", "insieme ad Alessandro".
_COMPANY = re.compile(r"^(?:(?:io|noi)\s+(?:e|ed|con|insieme\s+a|insieme\s+ad)\s+(?P<a>.+?)|(?P<b>.+?)\s+(?:e|ed|and)\s+"
                      r"(?:io|me|i)|(?:me|i)\s+and\s+(?P<c>.+?)|noi\s+due|we\s+two|both\s+of\s+us)\s*[,:]?\s+(?P<rest>.+)$",
                      re.IGNORECASE)
# "Come sindaco", "per il sindaco", "for mayor", "as my deputy": a command named before the verb.
_ROLE_FIRST = re.compile(r"^(?:come|per|as|for)\s+(?:(?:il|la|lo|l'|the|my|mio|mia|nuovo|new)\s*)*"
                         r"(?P<role>[^\W\d_]+)\s*[,:]?\s+(?P<rest>.+)$", re.IGNORECASE)
# "Ho votato Sara", "I've voted Sara": a past that may be meant as today's vote. Asked.
_AUXILIARY = re.compile(r"^(?:(?:io|noi)\s+)?(?:ho|abbiamo|avrei|avevo|i\s+have|i've|we\s+have|we've|i\s+had)"
                        r"(?:\s+(?:gia|già|appena|already|just))?\s+(?P<rest>.+)$", re.IGNORECASE)
# "Ho l'Inquisitore: blocco il furto", "Sono la Contessa, blocco": the character claimed
# before a command that names one.
_CLAIM = re.compile(r"^(?:ho|sono|uso|i\s+have|i've\s+got|i'm|i\s+am|i\s+use)\s+(?:(?:il|la|lo|l'|the|a|an|un|una)\s*)?"
                    r"(?P<claimed>[^\W\d_]+)\s*[,:;.!\-\u2013]*\s+(?P<rest>.+)$", re.IGNORECASE)
# Where a clause ends inside a line: "Dopo averci pensato, voto Carla". Not a colon:
# "Lucia: voto Sara", "The others: KILL Dario" are somebody's words, a label.
_CLAUSE_END = re.compile(r"(?:[,;.!\u2026]+|\s[-\u2013\u2014])\s+")
# Words that change the sense of what follows them: a condition, a negation, a doubt,
# someone else's words. A command after them is asked about.
_HOLD_BACK = frozenset({
    "non", "no", "se", "forse", "magari", "mai", "neanche", "nemmeno", "ne", "oppure", "o", "ma",
    "dice", "dicono", "detto", "scritto", "scrive", "chiede", "vuole", "vogliono", "propone",
    "not", "don't", "dont", "never", "if", "maybe", "perhaps", "would", "should", "could", "or", "but",
    "says", "said", "wrote", "asks", "wants", "unless", "whether", "nor",
})
_CLAUSES = 4
_WORDS = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


@dataclass(frozen=True)
class Start:
    """A place a command may start: its keyword and what follows its words (``arg``);
    the prose before it; ``how`` it was found ("stem", "slip", "clause"); ``doubtful``
    when a careful Master would ask rather than record; ``role``: the command the
    player named before the verb ("come sindaco voto Chiara" is the election)."""

    keyword: Keyword
    arg: str
    how: str
    before: str = ""
    doubtful: bool = False
    exact: bool = False
    role: Keyword | None = None


def starts(g: Grammar, text: str, players: list[str], without_openers) -> Iterator[Start]:
    """The places a command may start in ``text``, most likely first. ``without_openers``
    is the reader's own way past the words players put first ("io", "stanotte")."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")  # a phone's apostrophe ("l’Inquisitore")
    words = _WORDS.findall(text)
    if not words or not (g.slip(without_openers(g, text)) or g.slip(text)
                         or any(g.stems.begins(w) or fold(w) in g.first_words for w in words[:40])):
        return  # no word of the line can start a command: nothing to look for
    yield from _at(g, text, players, without_openers, "")
    clauses = 0
    for m in _CLAUSE_END.finditer(text):
        clauses += 1
        if clauses > _CLAUSES:
            break
        before, after = text[:m.end()].strip(), text[m.end():]
        if not after.strip():
            continue
        doubtful = _holds_back(g, before, players)
        for start in _at(g, after, players, without_openers, before):
            yield Start(start.keyword, start.arg, "clause", before, doubtful or start.doubtful,
                        start.exact, start.role)


def _at(g: Grammar, text: str, players: list[str], without_openers, before: str) -> Iterator[Start]:
    seen = set()
    past = _AUXILIARY.match(text.strip())
    if past is not None:
        found = g.stems.match(past.group("rest"))
        if found is not None:
            yield Start(found.keyword, found.rest, "stem", before, True)
    for variant in (text, without_openers(g, text), _without_company(text, players)):
        variant = variant.strip()
        if not variant or variant in seen:
            continue
        seen.add(variant)
        exact = g.match(variant)
        if exact is not None and exact[0].value != "text":  # free text only where the line starts
            yield Start(exact[0], exact[1], "exact", before, exact=True)
        found = g.stems.match(variant)
        if found is not None:
            yield Start(found.keyword, found.rest, "stem", before, found.doubtful, found.exact)
        role = _role_first(g, variant, players, without_openers)
        if role is not None:
            yield role
        claim = _claimed(g, variant)
        if claim is not None:
            yield claim
        slipped = g.slip(variant) if not before else None  # a slip only where the line starts
        if slipped is not None:
            yield Start(slipped[0], slipped[1], "slip", before)


def _without_company(text: str, players: list[str]) -> str:
    """"Io e Alessandro proteggiamo Giorgio" -> "proteggiamo Giorgio", when Alessandro is a
    player (a command they share is each one's)."""
    m = _COMPANY.match(text.strip())
    if not m:
        return text
    named = m.group("a") or m.group("b") or m.group("c")
    if named is not None:
        index = name_index(tuple(players))
        parts = [p for p in re.split(r"\s*(?:,|\be\b|\bed\b|\band\b)\s*", named) if p.strip()]
        if not parts or not all(index.exact(fold(p.strip(" .,;:"))) for p in parts):
            return text
    return m.group("rest")


def _role_first(g: Grammar, text: str, players: list[str], without_openers) -> Start | None:
    """"Come sindaco voto Chiara", "For mayor I vote Chiara": the command the words before
    the verb name, when the verb after them takes the same kind of argument."""
    m = _ROLE_FIRST.match(text.strip())
    if not m:
        return None
    role = fold(m.group("role"))
    named = next((k for k in g.vocabulary.keywords if not k.fixed and k.value in ("name", "names")
                  and role in g.words_of_key.get(k.key, ())), None)
    if named is None:
        return None
    rest = without_openers(g, m.group("rest"))
    found = g.match(rest)
    if found is None:
        stem = g.stems.match(rest)
        found = (stem.keyword, stem.rest) if stem is not None and not stem.doubtful else None
    if found is None:
        # "Come successore Galli": the name right after the command's own words.
        return Start(named, rest, "stem") if name_index(tuple(players)).exact(fold(rest.strip(" .!"))) else None
    if found[0].value not in ("name", "names") or found[0].fixed:
        return None
    return Start(found[0], found[1], "stem", role=named)


def _claimed(g: Grammar, text: str) -> Start | None:
    """"Ho l'Inquisitore: blocco il furto": the command after the claim, with the claimed
    character as its choice (the rest of its words are prose)."""
    m = _CLAIM.match(text.strip())
    if not m:
        return None
    rest = m.group("rest")
    found = g.match(rest)
    if found is None:
        stem = g.stems.match(rest)
        found = (stem.keyword, stem.rest) if stem is not None and not stem.doubtful else None
    if found is None or found[0].value != "choice":
        return None
    if g.resolve_choice(found[0].key, m.group("claimed"))[1] is not None:
        return None
    return Start(found[0], f"{m.group('claimed')} {found[1]}".strip(), "stem")


def _holds_back(g: Grammar, before: str, players: list[str]) -> bool:
    """Do the words before a clause change the sense of a command after them: a condition,
    a negation, a question, someone's words, another command?"""
    if "?" in before or any(q in before for q in "\"\u201c\u201d\u00ab\u00bb"):
        return True
    words = [fold(w) for w in re.findall(r"[^\W_]+(?:'[^\W_]+)?", before)]
    if any(w in _HOLD_BACK for w in words):
        return True
    return any(g.stems.begins(w) and g.stems.match(" ".join(words[i:])) is not None
               for i, w in enumerate(words))


# What, right after a command's argument, takes it back into doubt: "Proteggere Lucia
# sarebbe utile", "Voto Carla o Bruno", "Vote Carla, maybe".
_DOUBT_AFTER = frozenset({
    "sarebbe", "sarebbero", "potrebbe", "potrebbero", "dovrebbe", "servirebbe", "conviene", "forse",
    "magari", "o", "oppure", "e", "ed", "would", "could", "might", "should", "maybe", "perhaps", "or",
    "and", "vero", "giusto", "right",
})


def hesitates(prose: str, players: list[str]) -> bool:
    """Does the prose after a command's argument put the command in doubt: a conditional,
    "maybe", another player named as an alternative ("o Bruno", "e Bruno")?"""
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)?", fold(prose))
    if not words:
        return False
    if words[0] in _DOUBT_AFTER and words[0] not in ("e", "ed", "and"):
        return True
    if words[0] in ("e", "ed", "and", "o", "or", "oppure") and len(words) > 1:
        return bool(name_index(tuple(players)).exact(words[1]) or name_index(tuple(players)).exact(
            " ".join(words[1:3])))
    return False
