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

from engine.interface import Keyword, Part

from .grammar import Grammar, VocabularyLike, grammar, words_pattern
from .names import NAME_LEADS, clean_name, fold, read_name, resolve_list

# Decoration phones and html2text leave around a line: bullets, bold markers, quotes.
_LINE_DECORATION = re.compile(r"^(?:[\s*_•·+\-–—\"'`]|\d{1,2}[.)]\s)+|[\s*_\"'`]+$")


def _marked_parts(arg: str, parts: tuple[Part, ...]) -> tuple[str, dict[Part, str]]:
    """The main argument and the text of each marked part, found in any order."""
    if not parts:
        return arg, {}
    by_word = {" ".join(w.upper().split()): p for p in parts for w in p.it + p.en}
    marker = re.compile(rf"\s+({words_pattern(by_word)})(?=\s|:|$)[\s:]*", re.IGNORECASE)
    text = " " + arg
    spans = list(marker.finditer(text))
    head = text[:spans[0].start() if spans else len(text)].strip()
    found: dict[Part, str] = {}
    for i, m in enumerate(spans):
        end = spans[i + 1].start() if i + 1 < len(spans) else len(text)
        part = by_word[" ".join(m.group(1).upper().split())]
        found[part] = (found.get(part, "") + " " + text[m.end():end]).strip()
    return head, found


_NUMBER = re.compile(r"^(.*?)(?:\s+|\s*\(\s*)(?:n\s*=?\s*)?([+-]?\d+)\s*\)?$", re.IGNORECASE)
_NUMBER_ONLY = re.compile(r"^(.*?)\s+n\s*=\s*(\S+)\s*$", re.IGNORECASE)


def _read_names(text: str, players: list[str], slots: tuple[str, ...], leads
                ) -> tuple[dict, list[dict], str]:
    """One to ``len(slots)`` names at the start of ``text``, then whatever follows them.

    "Bruno, Carla", "Bruno e Carla", "Anna Dario" fill two slots; after the last name a
    further whole player's name is one too many (an error), anything else is prose.
    A single capitalised word after a comma or 'e'/'and' is a name that was meant, so
    a typo ("Bruno e Zorro") is an error rather than prose."""
    name, error, rest = read_name(text, players, leads)
    if error:
        return {}, [error], ""
    names = [name]
    while rest:
        m = _NAME_SEPARATOR.match(rest)
        candidate = m.group(1) if m else rest
        found, error, after = read_name(candidate, players, ())
        whole = found is not None and fold(clean_name(candidate[:len(candidate) - len(after)].strip())) \
            in {fold(p) for p in players}
        if found is not None and (m or whole) and (len(names) < len(slots) or whole):
            if len(names) == len(slots):
                return {}, [{"code": "bad_parameter", "argument": slots[0], "value": text.strip()}], ""
            names.append(found)
            rest = after
            continue
        if m and len(candidate.split()) == 1 and candidate[:1].isupper():
            return {}, [error or {"code": "unknown_name", "name": clean_name(candidate),
                                  "candidates": list(players)}], ""
        break
    return dict(zip(slots, names)), [], rest


_NAME_SEPARATOR = re.compile(r"^\s*(?:[,;&+/]|(?:e|ed|and)(?=\s))\s*(.*)$", re.IGNORECASE | re.DOTALL)


def _read_value(g: Grammar, value: str, key: str, text: str, players: list[str],
                slots: tuple[str, ...] = ()) -> tuple[dict, list[dict], str]:
    """One argument as the vocabulary says it is read, as {key: value} (or the slots),
    its errors, and the prose written after it (never read)."""
    # "nomino VICE Carla", "il mio voto è PER Carla": the command's own words and the
    # prepositions players put before a name.
    leads = tuple(sorted({*NAME_LEADS, *g.words_of_key.get(key, ())},
                         key=lambda w: (-len(w.split()), -len(w))))
    if value == "name":
        name, err, rest = read_name(text, players, leads)
        return ({key: name}, [], rest) if not err else ({}, [err], "")
    if value == "names":
        if slots:
            if not clean_name(text.strip(",;&+/")):
                return {}, [{"code": "missing_argument", "argument": slots[0]}], ""
            return _read_names(text, players, slots, leads)
        names, errs = resolve_list(text, players)
        return ({} if errs else {key: names}), errs, ""
    if value == "choice":
        choice, err, rest = g.read_choice(key, text)
        return ({key: choice}, [], rest) if not err else ({}, [err], "")
    if value == "choices":  # several choices: 'TENGO Duchessa Capitano', 'KEEP Duke, Captain'
        # Each part between commas and 'e'/'and' is one choice, with its article ("tengo
        # la Duchessa e il Capitano"); a part that is none is several, one a word.
        typed = []
        for chunk in re.split(r"\s*[,;]\s*|\s+(?:e|ed|and)\s+", text.strip()):
            if g.resolve_choice(key, chunk)[1] is None:
                typed.append(chunk)
            else:
                typed += [t for t in chunk.split() if not g.is_filler(t)]
        if not typed:
            return {}, [{"code": "missing_argument", "argument": key}], ""
        picked, errors = [], []
        for t in typed:
            choice, err = g.resolve_choice(key, t)
            if err:
                errors.append(err)
            else:
                picked.append(choice)
        return ({key: picked}, [], "") if not errors else ({}, errors, "")
    if value == "text":
        return (({key: text.strip()}, [], "") if text.strip()
                else ({}, [{"code": "missing_argument", "argument": "text"}], ""))
    return {}, [], text.strip()  # "none": the word alone says it; what follows is prose


def _read_choice(g: Grammar, keyword: Keyword, head: str
                 ) -> tuple[str | None, str | None, dict | None, str]:
    """The choice, the number written after it ('Voto diretto 3', 'endstory n=2'), and
    the prose after them."""
    number = None
    if keyword.number:
        m = _NUMBER_ONLY.match(head) or _NUMBER.match(head)
        if m and g.resolve_choice(keyword.key, head)[1] is not None:
            head, number = m.group(1), m.group(2)
    choice, err, rest = g.read_choice(keyword.key, head)
    return choice, number, err, rest


def _read(g: Grammar, keyword: Keyword, arg: str, players: list[str]) -> tuple[dict, list[dict], str]:
    """A command's arguments: (command, errors, the prose after its arguments)."""
    head, marked = _marked_parts(arg, keyword.parts)
    prose: list[str] = []
    if keyword.value == "choice":
        choice, number_text, err, rest = _read_choice(g, keyword, head)
        if err:
            return {}, [err], ""
        command: dict = {keyword.key: choice}
    else:
        command, errors, rest = _read_value(g, keyword.value, keyword.key, head, players, keyword.slots)
        if errors:
            return {}, errors, ""
        choice, number_text = None, None
    prose.append(rest)
    takes = g.vocabulary.takes.get(keyword.key, {}).get(choice) if choice is not None else None
    errors = []
    if number_text is not None:
        if takes is not None and keyword.number not in takes:
            errors.append({"code": "bad_parameter", "argument": keyword.number, "value": number_text})
        elif not number_text.isdigit() or int(number_text) < 1:
            errors.append({"code": "bad_parameter", "argument": keyword.number, "value": number_text})
        else:
            command[keyword.number] = int(number_text)
    for part in keyword.parts:
        text = marked.get(part)
        if text is None:
            if takes and takes.get(part.key):
                errors.append({"code": "missing_argument", "argument": part.key})
            elif part.value == "names" and (takes is None or part.key in takes):
                command[part.key] = []
            continue
        if takes is not None and part.key not in takes:
            errors.append({"code": "bad_parameter", "argument": part.key, "value": text})
            continue
        value, errs, rest = _read_value(g, part.value, part.key, text, players)
        if errs:
            for e in errs:
                if e.get("code") == "missing_argument":
                    e["argument"] = part.key
            errors.extend(errs)
        else:
            command.update(value)
            prose.append(rest)
    if errors:
        return {}, errors, ""
    return {**keyword.fixed, **command}, [], " ".join(p for p in prose if p)


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
def _opener_words(games: tuple[str, ...]) -> list[tuple[str, int]]:
    """The service's openers and a game's, each with its number of words, the longest
    first (so that a side named in two words, "noi ...", is read past as one, not "noi" alone)."""
    openers = sorted(_OPENERS | set(games), key=lambda w: (-len(w.split()), -len(w)))
    return [(opener, len(opener.split())) for opener in openers]


def _without_openers(g: Grammar, text: str) -> str:
    """The line after the words players put before a command (at most a few of them)."""
    words = text.split(None, 8)
    i = 0
    while i < min(len(words) - 1, 6):
        for opener, n in _opener_words(g.openers):
            if i + n < len(words) and fold(" ".join(words[i:i + n]).rstrip(",:;.!")) == opener:
                i += n
                break
        else:
            break
    return " ".join(words[i:]) if i else text


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
    found = g.match(text)
    lenient = False
    if found is None:
        opened = _without_openers(g, text)
        found = g.match(opened) if opened != text else None
        lenient = found is not None
    if found is None:
        named = _name_first(g, text, players) or _name_first(g, _without_openers(g, text), players)
        if named is not None:
            return named
        other = grammar(None).match(text, strict=True) if vocabulary is not None else None
        if other is not None:  # another game's command: say so rather than pass it over
            word = text.split()[0].strip(":=").upper()
            return LineReading(None, [{"code": "not_in_game", "value": word, "line": line.strip(),
                                       "command": other[0].key}], True)
        return LineReading(None, [], False)
    keyword, arg = found
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
        strict = g.match(text, strict=True)
        if strict is None or strict[0] is keyword:
            return LineReading(None, [], False)
        keyword, arg = strict
        command, errors, prose = _read(g, keyword, arg, players) if arg else (
            {}, [{"code": "missing_argument", "argument": "name"}], "")
    if asks:
        return LineReading(None, [_located({"code": "question"}, line, keyword)], True)
    if command and prose and not keyword.fixed:
        command, prose, mixed = _prose_says(g, keyword, command, prose, players, _inner)
        if mixed:
            return LineReading(None, [_located({"code": "two_commands", "value": mixed}, line, keyword)], True)
    if fold(prose.strip(" .,;:!-")) in _COURTESY or not re.search(r"[^\W_]", prose):
        prose = ""
    for e in errors:
        _located(e, line, keyword)
    return LineReading(command or None, errors, True, prose)


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
