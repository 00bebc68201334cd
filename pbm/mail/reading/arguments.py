"""A command's arguments as a line writes them after its words: one player, several (in
the slots the keyword names), a choice, several choices, free text, a number after a
choice, and the marked parts ("CON ...", "SU ..."), in any order; with the prose written
after them, which is never read. The words are the vocabulary's (grammar.py), the names
the players' (names.py).
"""
from __future__ import annotations

import re

from engine.interface import Keyword, Part

from .grammar import Grammar, words_pattern
from .names import NAME_LEADS, clean_name, fold, read_name, resolve_list


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


# How many of the next choice a player writes ("due Duchesse"), folded.
_COUNTS = {"due": 2, "2": 2, "entrambe": 2, "entrambi": 2, "both": 2, "two": 2, "tre": 3, "3": 3,
           "three": 3}


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
        picked, errors, times = [], [], 1
        for t in typed:
            if fold(t) in _COUNTS:  # "tengo le due Duchesse", "KEEP both Duchesses"
                times = _COUNTS[fold(t)]
                continue
            choice, err = g.resolve_choice(key, t)
            if err:
                errors.append(err)
            else:
                picked += [choice] * times
            times = 1
        # One line, one refusal: the first word not understood (not one per word).
        return ({key: picked}, [], "") if not errors else ({}, errors[:1], "")
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
    # "Blocco il furto con l'Inquisitore": the choice named after "con" is the one claimed,
    # whatever the words before it name ("blocco l'Assassino con la Contessa").
    m = _CHOICE_LATER.search(head)
    if m is not None:
        later, later_err, after = g.read_choice(keyword.key, m.group(1))
        if later_err is None:
            return later, number, None, " ".join(p for p in (head[:m.start()].strip(), after) if p)
    choice, err, rest = g.read_choice(keyword.key, head)
    return choice, number, err, rest


_CHOICE_LATER = re.compile(r"(?:^|\s|,)\s*(?:con|col|come|with|as|ho|i\s+have)\s+(.+)$", re.IGNORECASE)


def read_arguments(g: Grammar, keyword: Keyword, arg: str, players: list[str]) -> tuple[dict, list[dict], str]:
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
