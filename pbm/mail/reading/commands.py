"""Player commands written as lines of text (mail replies, the web 'paste' box).

Pure: no game, no database. The words are the game's: each ruleset brings its
vocabulary (``engine.interface.Vocabulary``: keywords in Italian and English, the
names of its choices, what each choice takes), and this module only knows how a
line is built: a keyword, then a player, several players, a choice or free text,
then marked parts (``CON ...``, ``SU ...``). It names no ruleset, role or power.
Names are resolved against the list of players the caller passes; everything else
(is it the right phase, may this role do that) is the engine's business. Errors
are structured dicts; wording.py words them. The players' names are read by names.py,
the vocabulary compiled by grammar.py.

``vocabulary`` arguments take a ruleset key, a ``Vocabulary``, or None: every
ruleset's words at once, for mail read before its game is known.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engine.interface import Keyword

from .grammar import Grammar, VocabularyLike, grammar
from . import natural
from .arguments import read_arguments as _read
from .corrections import corrected, split_correction
from .name_forms import name_index
from .names import clean_name, fold, read_name

# Decoration phones and html2text leave around a line: bullets, bold markers, quotes.
_LINE_DECORATION = re.compile(r"^(?:[\s*_•·+\-–—\"'`]|\d{1,2}[.)]\s)+|[\s*_\"'`]+$")


# What players write before a command ("Io voto Carla", "stanotte proteggo Dario", "I'll
# protect Bruno", "il mio voto va a Carla"), folded; a game adds the words that name its
# sides (Vocabulary.openers). A line read after them is a command only when it reads
# whole, as for a verb: prose starts with these words too.
_OPENERS = frozenset({
    "io", "noi", "allora", "ok", "okay", "va bene", "bene", "dunque", "quindi",
    "ciao", "stanotte", "stasera", "questa notte", "questa sera", "oggi", "stamattina", "domani",
    "per stanotte", "per oggi", "il mio", "la mia", "il nostro", "la nostra", "mio", "nostro",
    "voglio", "vorrei", "vogliamo", "vorremmo", "decido di", "ho deciso di", "abbiamo deciso di",
    "scelgo di", "scegliamo di", "i", "we", "i'll", "we'll", "i will", "we will", "i want to",
    "we want to", "i'd like to", "we'd like to", "i would like to", "i choose to", "i'm", "i am",
    "we are", "we're", "let's", "lets", "so", "hi", "hello", "tonight", "today", "this night",
    "my", "our", "then", "and", "e", "il", "la", "lo", "the",
    "scelgo", "choose", "i choose", "pick", "i pick", "metto", "propongo", "i propose",
    # Greetings players open a line with ("Ciao a tutti, voto Carla", "Hi all, I vote Carla").
    "ciao a tutti", "ciao ragazzi", "ciao master", "buongiorno", "buonasera", "salve", "hey",
    "hi all", "hi everyone", "hello all", "hello everyone", "good morning", "good evening",
    # From now on, again, in the end (issue 32): "Da ora in poi passo sempre".
    "da ora in poi", "d'ora in poi", "d'ora in avanti", "da adesso in poi", "da adesso", "from now on",
    "di nuovo", "ancora", "ancora una volta", "anche oggi", "anche stanotte", "again", "alla fine",
    "in the end", "invece", "instead", "io invece", "per me", "ok allora", "va bene allora",
    "please", "i'm going to", "i am going to", "going to", "i'm gonna", "gonna", "we're going to",
    "we are going to", "i shall", "we shall",
})
# Words after the arguments that say nothing: not listed as ignored prose.
_COURTESY = {"stanotte", "stasera", "questa notte", "oggi", "grazie", "grazie mille", "per favore",
             "please", "thanks", "thank you", "tonight", "today", "ciao", "a presto", "bye", "cheers"}
# "Voto Carla COME SINDACO", "vote Carla FOR MAYOR": the words after the name say which
# command of the same kind it is.
_AS_ROLE = re.compile(r"^(?:(?:come|as|for|a|per|da|to be|to|is|e|sara|will be)\s+)?"
                      r"(?:(?:il|la|lo|the|my|mio|mia|a|an|nuovo|new|our|nostro)\s+|l')*(.+?)[\s.!]*$")
# A sentence ending in '?' before anything else ends: "Sfido o passo? Non ho capito".
_FIRST_SENTENCE_ASKS = re.compile(r"^[^.!?\u2026]*\?")


@functools.lru_cache(maxsize=32)
def _opener_words(games: tuple[str, ...]) -> tuple[tuple[int, frozenset[str]], ...]:
    """The service's openers and a game's, by their number of words, the longest first (so
    that a side named in two words, "noi ...", is read past as one, not "noi" alone)."""
    by_length: dict[int, set[str]] = {}
    for opener in _OPENERS | set(games):
        by_length.setdefault(len(opener.split()), set()).add(opener)
    return tuple((n, frozenset(by_length[n])) for n in sorted(by_length, reverse=True))


def _without_openers(g: Grammar, text: str) -> str:
    """The line after the words players put before a command (at most a few of them)."""
    words = text.split(None, 8)
    i = 0
    while i < min(len(words) - 1, 6):
        for n, openers in _opener_words(g.openers):
            if i + n < len(words) and fold(" ".join(words[i:i + n]).rstrip(",:;.!")) in openers:
                i += n
                break
        else:
            break
    return " ".join(words[i:]) if i else text


def _marked_as_command(text: str, arg: str) -> bool:
    """Is the command word written as one: in capitals ("Ciao, DOMANDA ...") or before a colon?"""
    said = text[:len(text) - len(arg)].rstrip() if arg and text.endswith(arg) else text
    return said.endswith(":") or said.strip(" :-").isupper()


def is_question(text: str) -> bool:
    """A line that ends in '?', or whose first sentence does, is a question."""
    bare = text.rstrip(" \t\"'`)\u201d\u00bb*_")
    return bare.endswith("?") or bool(_FIRST_SENTENCE_ASKS.match(bare))


@dataclass
class LineReading:
    """What one line says: a command (or None), errors, whether the line was meant as a
    command at all (else it is an ordinary line), and the prose after its arguments."""

    command: dict | None
    errors: list[dict]
    is_command: bool
    prose: str = ""


def read_line(line: str, players: list[str], vocabulary: VocabularyLike = None,
              _inner: bool = False) -> LineReading:
    """One line, by one rule for every command: the keyword (or a verb, or either after
    the words players put first), its arguments, then prose that is never read.

    A line that only starts like a command (a verb, or a keyword after an opener such as
    "io" or "stanotte") is a command only when its arguments read; else it is prose.
    A line asking something ("Voto Carla?", "Sfido o passo? Non ho capito") applies
    nothing: the error ``question`` asks the player to confirm. Prose that is itself
    another command ("Voto Carla, ma stanotte proteggo Bruno") applies nothing either."""
    g = grammar(vocabulary)
    text = _LINE_DECORATION.sub("", line)
    cut = None if _inner or _free_text(g, text) else split_correction(text)
    if cut is not None and cut[0]:
        return _read_corrected(g, cut[0], cut[1], line, players)
    found = g.match(text)
    lenient = False
    if found is None:
        opened = _without_openers(g, text)
        found = g.match(opened) if opened != text else None
        if found is not None and found[0].value == "text" and not _marked_as_command(opened, found[1]):
            found = None  # "Please note that...": free text after other words only as "DOMANDA" or "Domanda:"
        lenient = found is not None
    if found is not None:
        reading = _reading(g, found[0], found[1], text, line, players, lenient, _inner)
        if reading.is_command or not (lenient or found[0].verb):
            return reading
    named = _name_first(g, text, players) or _name_first(g, _without_openers(g, text), players)
    if named is not None:
        return named
    natural = _read_natural(g, text, line, players, _inner)
    if natural is not None:
        return natural
    other = grammar(None).match(text, strict=True) if vocabulary is not None else None
    if other is not None:  # another game's command: say so rather than pass it over
        word = text.split()[0].strip(":=").upper()
        return LineReading(None, [{"code": "not_in_game", "value": word, "line": line.strip(),
                                   "command": other[0].key}], True)
    return LineReading(None, [], False)


def _reading(g: Grammar, keyword: Keyword, arg: str, text: str, line: str, players: list[str],
             lenient: bool, inner: bool, fallback: bool = True) -> LineReading:
    """The line read as ``keyword`` followed by ``arg``; lenient: a command only if its
    arguments read (else, with ``fallback``, the keyword the line strictly starts with)."""
    lenient = lenient or keyword.verb
    asks = keyword.value != "text" and is_question(text)
    if asks and not lenient:
        return LineReading(None, [_located({"code": "question"}, line, keyword)], True)
    prose = ""
    if not arg and keyword.fixed and keyword.value != "none":
        # A word that says something alone ('BLOCCO' against foreign aid: the one
        # character that blocks it) stands alone; the engine judges what is missing.
        command, errors = dict(keyword.fixed), []
    elif not arg and keyword.value not in ("none",):
        argument = keyword.slots[0] if keyword.slots else (
            keyword.key if keyword.value == "choice" else keyword.value if keyword.value == "text" else "name")
        command, errors = {}, [{"code": "missing_argument", "argument": argument}]
    else:
        command, errors, prose = _read(g, keyword, arg, players)
    if lenient and errors:
        # A natural form that does not read ("ESAMINO LA CARTA DI ..." with no name) may
        # still be the keyword it starts with ("ESAMINO ..."): read the line as that.
        strict = g.match(text, strict=True) if fallback else None
        if strict is None or strict[0] is keyword:
            return LineReading(None, [], False)
        keyword, arg = strict
        command, errors, prose = _read(g, keyword, arg, players) if arg else (
            {}, [{"code": "missing_argument", "argument": "name"}], "")
    if asks:
        return LineReading(None, [_located({"code": "question"}, line, keyword)], True)
    if command and prose and not keyword.fixed:
        command, prose, mixed = _prose_says(g, keyword, command, prose, players, inner)
        if mixed:
            return LineReading(None, [_located({"code": "two_commands", "value": mixed}, line, keyword)], True)
    if fold(prose.strip(" .,;:!-")) in _COURTESY or not re.search(r"[^\W_]", prose):
        prose = ""
    if command and prose and keyword.value == "none" and name_index(tuple(players)).exact(fold(clean_name(prose))):
        prose = ""  # "Sfido Giorgio": the player whose claim is answered
    if command and (prose and (natural.hesitates(prose, players) or _subject_of(keyword, arg, text)
                               or (lenient and _INFINITIVE_FIRST.match(text)
                                   and fold(prose.split()[0]).strip(",.;:!") in _SUBJECT_VERBS))
                    or _identity(keyword, arg)):
        return LineReading(None, [_located({"code": "unsure"}, line, keyword)], True)
    for e in errors:
        _located(e, line, keyword)
    return LineReading(command or None, errors, True, prose)


def _free_text(g: Grammar, text: str) -> bool:
    """A line of free text ("NOTE ...", "DOMANDA ..."): its words are the player's, whatever they say."""
    found = g.match(text)
    return found is not None and found[0].value == "text"


def _read_corrected(g: Grammar, before: str, after: str, line: str, players: list[str]) -> LineReading:
    """"Voto Alessandro. Anzi no, Lucia.": the later choice, a whole command or a new
    argument for the one before; else nothing, and the receipt asks."""
    first = read_line(before, players, g, _inner=True)
    second = read_line(after, players, g, _inner=True) if after else None
    if second is not None and second.command:
        return second
    if first.command:
        command = corrected(g, first.command, after, players)
        if command is not None:
            return LineReading(command, [], True)
    if not first.is_command and (second is None or not second.is_command):
        return LineReading(None, [], False)  # prose that says "anzi": no command taken back
    return LineReading(None, [{"code": "correction", "line": line.strip()}], True)


def _subject_of(keyword: Keyword, arg: str, text: str) -> bool:
    """A word that says it all alone, then a verb of which it is the subject: "Duchessa
    bluffa", "La Duchessa è un bluff", "Passo non è chiaro" say something of the word,
    they are not the command."""
    if keyword.value != "none" or not arg:
        return False
    first = fold(arg.split()[0]).strip(",.;:!")
    return first in _SUBJECT_VERBS


# What follows a noun that is a sentence's subject: a copula, an auxiliary, a negation,
# the verbs of a bluff.
_SUBJECT_VERBS = frozenset({
    "e", "e'", "ha", "sta", "era", "sara", "sembra", "non", "mente", "bluffa", "bleffa", "si", "mi", "ci", "lo",
    "is", "was", "has", "isn't", "wasn't", "doesn't", "lies", "bluffs", "seems", "will", "would", "can", "must",
})


# "Votare Sara è un errore": a line that opens with an infinitive and goes on after its name
# is a sentence about the act ("voglio votare Sara" opens with "voglio").
_INFINITIVE_FIRST = re.compile(r"^[^\W\d_]+(?:are|ere|ire|rre)\b", re.IGNORECASE)


def _identity(keyword: Keyword, arg: str) -> bool:
    """"L'Assassino è Giorgio": a word that names an action, then "è" and a name, says who
    someone is, not what the writer does."""
    return bool(keyword.fixed) and bool(re.match(r"^(?:e'|è|é|is|was|era|sarà)\s", arg.strip(), re.I))


def _read_natural(g: Grammar, text: str, line: str, players: list[str], inner: bool) -> LineReading | None:
    """The line read from the first place a command starts as people write it
    (natural.py), or None. Where a careful Master would hesitate (a verb in a form no
    command takes, a slip followed by more than a name, a clause after words that change
    its sense), nothing is recorded: the error ``unsure`` asks, quoting the line."""
    for start in natural.starts(g, text, players, _without_openers):
        if start.how == "slip" and start.keyword.value == "none" and start.arg:
            continue  # "Posso venire?" is not PASSO: a slip alone, or before a name only
        reading = _reading(g, start.keyword, start.arg, text, line, players, True, inner, fallback=False)
        if not reading.is_command or (start.how == "slip" and reading.command is None):
            continue
        if reading.command is None:
            return reading  # a question, two commands: said, nothing recorded
        if start.doubtful or (start.how == "slip" and reading.prose):
            return LineReading(None, [_located({"code": "unsure"}, line, start.keyword)], True)
        if start.keyword.value == "none" and not start.exact and reading.prose:
            continue  # "Passa la mano": a word alone is a command only alone
        command = reading.command
        if start.role is not None and start.keyword.key in command:
            command = {start.role.key: command[start.keyword.key]}
        return LineReading(command, [], True, " ".join(p for p in (start.before, reading.prose) if p))
    return None


def _name_first(g: Grammar, text: str, players: list[str]) -> LineReading | None:
    """"Carla sindaco!", "Bruno come vice": a whole player's name, then
    nothing but a command's own words (a command that takes one name)."""
    if not text[:1].isalpha() or is_question(text):
        return None
    name, error, rest = read_name(text, players, ())
    if error or not rest or fold(clean_name(text)).startswith(fold(rest)):
        return None
    m = _AS_ROLE.match(fold(rest))
    named = clean_name(m.group(1)) if m else ""
    for key, words in g.words_of_key.items():
        keyword = next(k for k in g.vocabulary.keywords if k.key == key)
        if named in words and keyword.value in ("name", "names") and not keyword.fixed:
            return LineReading({key: name}, [], True)
    return None


def _located(error: dict, line: str, keyword: Keyword) -> dict:
    error.setdefault("line", line.strip())
    error.setdefault("command", keyword.key)
    return error


def _prose_says(g: Grammar, keyword: Keyword, command: dict, prose: str, players: list[str],
                inner: bool) -> tuple[dict, str, str]:
    """Read what the prose after a command's arguments says about the command:
    "come sindaco" after a vote makes it the election (the same kind of argument, another
    command); another command inside it ("..., ma stanotte proteggo Bruno") makes the line
    two commands, which returns the other command's word so nothing is guessed."""
    m = _AS_ROLE.match(fold(prose))
    named = m.group(1) if m else ""
    for key, words in g.words_of_key.items():
        if named in words:
            other = next(k for k in g.vocabulary.keywords if k.key == key)
            if key == keyword.key:
                return command, "", ""
            if other.value == keyword.value and not other.fixed and keyword.key in command:
                return {key: command[keyword.key]}, "", ""
            return command, prose, named.upper()
    if inner:
        return command, prose, ""
    tokens = prose.split()
    for i in range(min(len(tokens), 30)):
        rest = " ".join(tokens[i:])
        inside = g.match(_LINE_DECORATION.sub("", rest))
        if inside is None or inside[0].key == keyword.key or inside[0].value == "text":
            continue
        if read_line(rest, players, g, _inner=True).command:
            return command, prose, tokens[i].strip(",;:.!").upper()
    return command, prose, ""


def parse_line(line: str, players: list[str], vocabulary: VocabularyLike = None
               ) -> tuple[dict | None, list[dict], bool]:
    """One line -> (command or None, errors, is_command_line); see ``read_line``."""
    reading = read_line(line, players, vocabulary)
    return reading.command, reading.errors, reading.is_command


def looks_like_command(line: str, vocabulary: VocabularyLike = None) -> bool:
    """True when a line starts with a command keyword (verbs aside: prose starts with
    them too); used by property tests and the service."""
    return grammar(vocabulary).match(_LINE_DECORATION.sub("", line), strict=True) is not None


@dataclass
class Reading:
    """The commands of a text, its errors, its non-empty lines that were not commands,
    and the prose written after a command's arguments (each {"line", "text"})."""

    commands: list[dict]
    errors: list[dict]
    ignored_lines: list[str]
    ignored_text: list[dict]


def read_commands(text: str, players: list[str], vocabulary: VocabularyLike = None) -> Reading:
    g = grammar(vocabulary)
    out = Reading([], [], [], [])
    lines = (text or "").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        if out.commands and _corrects_the_last(g, line, players, out):
            continue
        reading = read_line(line, players, g)
        command = reading.command
        free = next((k for k in g.text_keys if command and k in command), None)
        last = line
        while free and i < len(lines) and _wrapped(last, lines[i], g):
            command[free] += " " + lines[i].strip()
            last = lines[i]
            i += 1
        if command:
            out.commands.append(command)
        out.errors.extend(reading.errors)
        if not reading.is_command:
            out.ignored_lines.append(line.strip())
        elif reading.prose:
            out.ignored_text.append({"line": line.strip(), "text": reading.prose})
    return out


def _corrects_the_last(g: Grammar, line: str, players: list[str], out: Reading) -> bool:
    """A line that opens by taking back the command before it ("Anzi no, Lucia", "no
    scusate, intendevo VOTO Chiara"): the later choice replaces it, or, when nothing
    reads, neither is recorded and the receipt asks."""
    text = _LINE_DECORATION.sub("", line)
    cut = None if _free_text(g, text) else split_correction(text)
    if cut is None or (cut[0] and (len(cut[0].split()) > 3 or read_line(cut[0], players, g, _inner=True).is_command)):
        return False  # "Sorry, I meant Lucia" opens with a correction; "Voto Bruno, anzi..." does not
    second = read_line(cut[1], players, g, _inner=True) if cut[1] else None
    command = second.command if second is not None and second.command else corrected(
        g, out.commands[-1], cut[1], players)
    if command is not None:
        out.commands[-1] = command
    else:
        out.commands.pop()
        out.errors.append({"code": "correction", "line": line.strip()})
    return True


def parse_commands(text: str, players: list[str], vocabulary: VocabularyLike = None
                   ) -> tuple[list[dict], list[dict], list[str]]:
    """Commands, errors and the non-empty lines that were not commands, in order."""
    reading = read_commands(text, players, vocabulary)
    return reading.commands, reading.errors, reading.ignored_lines


def _wrapped(line: str, following: str, g: Grammar) -> bool:
    """Was `following` carried over by a client that hard-wraps plain text (Gmail at 78
    columns, Outlook at 76)? Only when the word it starts with could not fit on `line`."""
    line, words = line.rstrip(), following.split()
    if not words or looks_like_command(following, g) or _BEHALF_RE.match(following):
        return False
    # A line longer than any wrap width was not wrapped: what follows is a new line.
    return 50 <= len(line) <= 80 and len(line) + 1 + len(words[0]) > 72


_BEHALF_RE = re.compile(r"^[\s*_]*(?:PER(?:\s+CONTO\s+DI)?|FOR|ON\s+BEHALF\s+OF)\s*:\s*(.+?)[\s*_]*$",
                        re.IGNORECASE)


def find_behalf_line(text: str) -> tuple[int, str] | None:
    """Index and typed name of the first `PER: Nome` / `FOR: Name` line, if any."""
    # split("\n"), not splitlines(): the caller indexes lines split the same way.
    for i, line in enumerate((text or "").split("\n")):
        m = _BEHALF_RE.match(line)
        if m:
            return i, m.group(1)
    return None
