"""Player commands written as lines of text (mail replies, the web 'paste' box).

Pure: no game, no database. Names are resolved against the list of players the
caller passes; everything else (is it the right phase, may this role do that) is
the engine's business. Errors are structured dicts; `describe_error` words them.

The vocabulary lives in one table, VOCABULARY, so the service and the web help
page can show the same words the parser accepts.
"""
from __future__ import annotations

import re
import unicodedata

# keyword (as typed, any case) -> command kind. Longer keywords are tried first,
# so VICESINDACO wins over VICE and NOTES over NOTE.
VOCABULARY: dict[str, str] = {
    "VOTO": "vote", "VOTE": "vote",
    "POTERE": "target", "POWER": "target", "BERSAGLIO": "target", "TARGET": "target",
    "RITUALE": "ritual", "RITUAL": "ritual",
    "VICE": "appoint", "VICESINDACO": "appoint", "APPOINT": "appoint",
    "SUCCESSORE": "appoint", "SUCCESSOR": "appoint",
    "ELEGGO": "elect", "SINDACO": "elect", "ELECT": "elect",
    "DIVENTO": "become", "BECOME": "become",
    "DOMANDA": "question", "QUESTION": "question",
    "URLO": "shout", "SHOUT": "shout",
    "NOTE": "notes", "NOTES": "notes",
}

# The same table grouped for help pages: kind -> Italian keywords, English keywords, example.
VOCABULARY_HELP: list[dict] = [
    {"kind": "vote", "it": ["VOTO"], "en": ["VOTE"], "example": "VOTO Carla"},
    {"kind": "target", "it": ["POTERE", "BERSAGLIO"], "en": ["POWER", "TARGET"],
     "example": "POTERE Bruno, Carla"},
    {"kind": "ritual", "it": ["RITUALE"], "en": ["RITUAL"],
     "example": "RITUALE Voto diretto 3 CON Anna, Bruno, Carla SU Dario"},
    {"kind": "appoint", "it": ["VICE", "VICESINDACO", "SUCCESSORE"], "en": ["APPOINT", "SUCCESSOR"],
     "example": "VICE Carla"},
    {"kind": "elect", "it": ["ELEGGO", "SINDACO"], "en": ["ELECT"], "example": "ELEGGO Carla"},
    {"kind": "become", "it": ["DIVENTO"], "en": ["BECOME"], "example": "DIVENTO Veggente"},
    {"kind": "question", "it": ["DOMANDA"], "en": ["QUESTION"], "example": "DOMANDA Bruno è un lupo?"},
    {"kind": "shout", "it": ["URLO"], "en": ["SHOUT"], "example": "URLO Al lupo!"},
    {"kind": "notes", "it": ["NOTE"], "en": ["NOTES"], "example": "NOTE sospetto di Bruno"},
]

# Words inside a command line.
SPECTRE_WORDS = ("SPETTRO", "SPECTRE", "SPECTER")
WITH_WORDS = ("CON", "WITH")
ON_WORDS = ("SU", "ON")
BEHALF_WORDS = ("PER", "FOR")

# tempo-reale-7 §3.7: the eight supernatural powers a Negromante gives the new Spettro,
# with the English words an English-speaking player would write for them.
SPECTRE_POWERS = (
    "Amnesia", "Confusione", "Corruzione", "Illusione", "Ipnosi",
    "Morte", "Occultamento", "Visione",
)
SPECTRE_POWER_ALIASES = {
    "confusion": "Confusione", "corruption": "Corruzione", "illusion": "Illusione",
    "hypnosis": "Ipnosi", "death": "Morte", "concealment": "Occultamento",
    "occultation": "Occultamento", "vision": "Visione",
}
# "SPETTRO della Morte", "SPETTRO con il potere dell'Amnesia", "SPECTRE of Death".
_POWER_PREAMBLE = re.compile(
    r"^(?:(?:spettro|spectre|specter)\s+)?(?:(?:con\s+il|with\s+the)\s+)?"
    r"(?:(?:potere|power)\s+(?:soprannaturale\s+|supernatural\s+)?)?"
    r"(?:(?:dell'|dell\u2019|della\s+|dello\s+|del\s+|di\s+|of\s+the\s+|of\s+|the\s+))?")

# lupus-live-12 rituals (personaggi §4): canonical name -> (takes n, has a target).
RITUALS: dict[str, tuple[bool, bool]] = {
    "Confusione": (False, True),
    "\\end{story}": (True, False),
    "Impedimento": (False, True),
    "Maledizione": (False, True),
    "Meno voto delegato": (True, True),
    "Meno voto diretto": (True, True),
    "Omicidio": (False, True),
    "Replay": (False, True),
    "Resurrezione": (False, True),
    "Spionaggio": (False, True),
    "Voto delegato": (True, True),
    "Voto diretto": (True, True),
}
RITUAL_ALIASES = {"end story": "\\end{story}", "endstory": "\\end{story}",
                  "fine storia": "\\end{story}", "fine della storia": "\\end{story}",
                  # what an English-speaking player would write
                  "confusion": "Confusione", "hindrance": "Impedimento", "impediment": "Impedimento",
                  "curse": "Maledizione", "murder": "Omicidio", "homicide": "Omicidio",
                  "resurrection": "Resurrezione", "espionage": "Spionaggio", "spying": "Spionaggio",
                  "direct vote": "Voto diretto", "delegated vote": "Voto delegato",
                  "minus direct vote": "Meno voto diretto", "minus delegated vote": "Meno voto delegato"}

FREE_TEXT_KINDS = ("question", "shout", "notes")
NAME_KINDS = ("vote", "appoint", "elect")

_KEYWORD_RE = re.compile(
    r"^(" + "|".join(sorted(map(re.escape, VOCABULARY), key=len, reverse=True)) + r")"
    r"(?=$|[\s:=.,;!-])(?:[\s:=]|[-\u2013\u2014]+>?(?=\s)|\u2192)*(.*)$",
    re.IGNORECASE,
)
# Decoration phones and html2text leave around a line: bullets, bold markers, quotes.
_LINE_DECORATION = re.compile(r"^(?:[\s*_•·+\-–—\"'`]|\d{1,2}[.)]\s)+|[\s*_\"'`]+$")


# Phones type a curly apostrophe ('Nicolo’' for Nicolò, 'D’Angelo'); names are stored straight.
# 'anna maria' is Anna-Maria: a hyphen in a name folds to a space.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "`": "'",
                              "-": " ", "\u2010": " ", "\u2013": " "})


def fold(text: str) -> str:
    """Case- and accent-insensitive form of a name or word."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def _clean_name(text: str) -> str:
    return text.strip().strip(".!?;,:\"'()[]\u2019\u2018\u201c\u201d\u00ab\u00bb`").strip()


def resolve_name(text: str, players: list[str]) -> tuple[str | None, dict | None]:
    """Match a typed name to one player: exact (folded) first, then unambiguous prefix.

    Returns (name, None) or (None, error-without-line)."""
    typed = _clean_name(text)
    if not typed:
        return None, {"code": "missing_argument", "argument": "name"}
    key = fold(typed)
    exact = [p for p in players if fold(p) == key]
    if len(exact) == 1:
        return exact[0], None
    if len(exact) > 1:  # two players folded to the same name: the list itself is ambiguous
        return None, {"code": "ambiguous_name", "name": typed, "candidates": exact}
    prefixed = [p for p in players if fold(p).startswith(key)]
    if len(prefixed) == 1:
        return prefixed[0], None
    if prefixed:
        return None, {"code": "ambiguous_name", "name": typed, "candidates": prefixed}
    # "VOTO Carla perché..." : the longest run of leading words that is a full name.
    words = typed.split()
    for n in range(len(words) - 1, 0, -1):
        head = fold(_clean_name(" ".join(words[:n])))
        full = [p for p in players if fold(p) == head]
        if len(full) == 1:
            return full[0], None
    # "Voto per Carla", "vote for Bruno", "POTERE su Dario": the preposition players add.
    if len(words) > 1 and fold(words[0]) in _NAME_PREPOSITIONS:
        name, err = resolve_name(" ".join(words[1:]), players)
        if name or err["code"] == "ambiguous_name":
            return name, err
    return None, {"code": "unknown_name", "name": typed, "candidates": list(players)}


_NAME_PREPOSITIONS = ("per", "for", "contro", "against", "su", "on")


_PAIR_SPLIT = re.compile(r"\s*(?:[,;&+/]|\s(?:e|ed|and)\s)\s*", re.IGNORECASE)


def _split_words(text: str, words: tuple[str, ...]) -> list[str]:
    pattern = r"\s+(?:" + "|".join(words) + r")(?:\s+|\s*:\s*|$)"
    return re.split(pattern, text, flags=re.IGNORECASE)


def split_full_names(text: str, players: list[str]) -> list[str] | None:
    """'Anna Bruno Maria Luisa' -> ['Anna', 'Bruno', 'Maria Luisa'] when the words are
    nothing but two or more whole player names (names written without commas); else None."""
    words = [_clean_name(w) for w in text.split()]
    full = {fold(p): p for p in players}
    found: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):  # the longest name first: 'Maria Luisa' over 'Maria'
            name = full.get(fold(" ".join(words[i:j])))
            if name:
                found.append(name)
                i = j
                break
        else:
            return None
    return found if len(found) >= 2 else None


def _split_parts(text: str, players: list[str]) -> list[str]:
    parts = []
    for part in _PAIR_SPLIT.split(text):
        if not part.strip():
            continue
        if fold(_clean_name(part)) not in {fold(p) for p in players}:
            several = split_full_names(part, players)
            if several:
                parts.extend(several)
                continue
        parts.append(part)
    return parts


def _resolve_list(text: str, players: list[str]) -> tuple[list[str], list[dict]]:
    names, errors = [], []
    for part in _split_parts(text, players):
        name, err = resolve_name(part, players)
        if err:
            errors.append(err)
        else:
            names.append(name)
    return names, errors


def _parse_targets(arg: str, players: list[str]) -> tuple[dict, list[dict]]:
    pieces = _split_words(arg, SPECTRE_WORDS)
    who, power_text = pieces[0], (pieces[1] if len(pieces) > 1 else None)
    result: dict = {}
    errors: list[dict] = []
    if not who.strip():
        return {}, [{"code": "missing_argument", "argument": "target"}]
    parts = _split_parts(who, players)
    if not parts:
        return {}, [{"code": "missing_argument", "argument": "target"}]
    if len(parts) == 1:
        name, err = resolve_name(parts[0], players)
        if err:
            return {}, [err]
        result["target"] = name
    elif len(parts) > 2:
        return {}, [{"code": "bad_parameter", "argument": "target", "value": who.strip()}]
    else:
        names, errs = _resolve_list(", ".join(parts), players)
        if errs:
            return {}, errs
        result["target"], result["target2"] = names
    if power_text is not None:
        power, perr = _resolve_power(power_text)
        if perr:
            errors.append(perr)
        else:
            result["power"] = power
    return (result if not errors else {}), errors


def _resolve_power(text: str) -> tuple[str | None, dict | None]:
    key = _POWER_PREAMBLE.sub("", fold(_clean_name(text)), count=1)
    if not key:
        return None, {"code": "missing_argument", "argument": "power"}
    if key in SPECTRE_POWER_ALIASES:
        return SPECTRE_POWER_ALIASES[key], None
    exact = [p for p in SPECTRE_POWERS if fold(p) == key]
    found = exact or [p for p in SPECTRE_POWERS if fold(p).startswith(key)]
    if len(found) == 1:
        return found[0], None
    return None, {"code": "unknown_power", "power": text.strip(),
                  "candidates": found if found else list(SPECTRE_POWERS)}


def _ritual_key(text: str) -> str:
    """'\\end{story}' -> 'endstory', 'Meno voto  diretto' -> 'menovotodiretto'."""
    return re.sub(r"[^0-9a-z]", "", fold(text.replace("\\", " ")))


def resolve_ritual(text: str) -> tuple[str | None, dict | None]:
    key = _ritual_key(text)
    if not key:
        return None, {"code": "missing_argument", "argument": "ritual"}
    table = {_ritual_key(r): r for r in RITUALS}
    table.update({_ritual_key(a): r for a, r in RITUAL_ALIASES.items()})
    if key in table:
        return table[key], None
    found = sorted({r for k, r in table.items() if k.startswith(key)})
    if len(found) == 1:
        return found[0], None
    return None, {"code": "unknown_ritual", "ritual": text.strip(),
                  "candidates": found if found else list(RITUALS)}


_RITUAL_N = re.compile(r"^(.*?)(?:\s+|\s*\(\s*)(?:n\s*=?\s*)?([+-]?\d+)\s*\)?$", re.IGNORECASE)
_RITUAL_N_ONLY = re.compile(r"^(.*?)\s+n\s*=\s*(\S+)\s*$", re.IGNORECASE)


def _parse_ritual(arg: str, players: list[str]) -> tuple[dict, list[dict]]:
    # Find the CON/WITH and SU/ON parts in any order.
    marker = re.compile(r"\s+(CON|WITH|(?:INSIEME|ASSIEME)\s+(?:A|AD|CON)|TOGETHER\s+WITH|"
                        r"SU|ON|CONTRO|AGAINST|BERSAGLIO|TARGET)(?=\s|:|$)[\s:]*", re.IGNORECASE)
    spans = list(marker.finditer(" " + arg))
    head_end = spans[0].start() if spans else len(arg) + 1
    head = (" " + arg)[:head_end].strip()
    parts: dict[str, str] = {}
    for i, m in enumerate(spans):
        end = spans[i + 1].start() if i + 1 < len(spans) else len(arg) + 1
        word = m.group(1).upper()
        kind = "with" if word in WITH_WORDS or " " in word else "on"
        parts[kind] = parts.get(kind, "") + " " + (" " + arg)[m.end():end]
    errors: list[dict] = []
    n_value: int | None = None
    n_text: str | None = None
    m = _RITUAL_N_ONLY.match(head) or _RITUAL_N.match(head)
    if m and resolve_ritual(head)[1] is not None:
        head, n_text = m.group(1), m.group(2)
    ritual, err = resolve_ritual(head)
    if err:
        return {}, [err]
    takes_n, has_target = RITUALS[ritual]
    result: dict = {"ritual": ritual}
    if n_text is not None:
        if not takes_n:
            errors.append({"code": "bad_parameter", "argument": "n", "value": n_text, "ritual": ritual})
        elif not n_text.isdigit() or int(n_text) < 1:
            errors.append({"code": "bad_parameter", "argument": "n", "value": n_text, "ritual": ritual})
        else:
            n_value = int(n_text)
    # Without n a parametric ritual is left to the engine, which counts n from the group
    # exactly as the web form does (engine/lupus_live_12/rituals.py).
    with_names, with_errors = _resolve_list(parts.get("with", ""), players)
    errors.extend(with_errors)
    result["with"] = with_names
    on_text = parts.get("on", "").strip()
    if has_target:
        if not on_text:
            errors.append({"code": "missing_argument", "argument": "target", "ritual": ritual})
        else:
            name, err = resolve_name(on_text, players)
            if err:
                errors.append(err)
            else:
                result["target"] = name
    elif on_text:
        errors.append({"code": "bad_parameter", "argument": "target", "value": on_text, "ritual": ritual})
    if n_value is not None:
        result["n"] = n_value
    return (result if not errors else {}), errors


def parse_line(line: str, players: list[str]) -> tuple[dict | None, list[dict], bool]:
    """One line -> (command or None, errors, is_command_line)."""
    text = _LINE_DECORATION.sub("", line)
    m = _KEYWORD_RE.match(text)
    if not m:
        return None, [], False
    kind = VOCABULARY[m.group(1).upper()]
    arg = m.group(2).strip()
    errors: list[dict] = []
    command: dict | None = None
    if kind in FREE_TEXT_KINDS or kind == "become":
        if arg:
            command = {kind: arg.strip() if kind != "become" else _role_name(_clean_name(arg))}
        else:
            errors.append({"code": "missing_argument", "argument": "text" if kind != "become" else "role"})
    elif kind in NAME_KINDS:
        name, err = resolve_name(arg, players)
        if err:
            errors.append(err)
        else:
            command = {kind: name}
    elif kind == "target":
        command, errors = _parse_targets(arg, players)
        command = command or None
    elif kind == "ritual":
        if not arg:
            errors.append({"code": "missing_argument", "argument": "ritual"})
        else:
            command, errors = _parse_ritual(arg, players)
            command = command or None
    for e in errors:
        e.setdefault("line", line.strip())
        e.setdefault("command", kind)
    return command, errors, True


def _role_name(typed: str) -> str:
    """'divento veggente' -> 'Veggente', as the rulebook writes it; an unknown role is
    kept as typed for the engine to refuse with its own message."""
    try:
        from engine.lupus_live_12.roles import canonical
        return canonical(typed)
    except (ImportError, KeyError):
        return typed


def looks_like_command(line: str) -> bool:
    """True when a line starts with a command keyword (used by property tests and the service)."""
    return bool(_KEYWORD_RE.match(_LINE_DECORATION.sub("", line)))


def parse_commands(text: str, players: list[str]) -> tuple[list[dict], list[dict], list[str]]:
    """Commands, errors and the non-empty lines that were not commands, in order."""
    commands: list[dict] = []
    errors: list[dict] = []
    ignored: list[str] = []
    lines = (text or "").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        command, errs, is_command = parse_line(line, players)
        free = next((k for k in FREE_TEXT_KINDS if command and k in command), None)
        last = line
        while free and i < len(lines) and _wrapped(last, lines[i]):
            command[free] += " " + lines[i].strip()
            last = lines[i]
            i += 1
        if command:
            commands.append(command)
        errors.extend(errs)
        if not is_command:
            ignored.append(line.strip())
    return commands, errors, ignored


def _wrapped(line: str, following: str) -> bool:
    """Was `following` carried over by a client that hard-wraps plain text (Gmail at 78
    columns, Outlook at 76)? Only when the word it starts with could not fit on `line`."""
    line, words = line.rstrip(), following.split()
    if not words or looks_like_command(following) or _BEHALF_RE.match(following):
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


# --- wording ---------------------------------------------------------------

_ARGUMENTS = {
    "it": {"name": "il nome di un giocatore", "target": "il bersaglio", "text": "il testo",
           "role": "il ruolo", "ritual": "il nome del rituale", "n": "il numero n del rituale",
           "power": "il potere dello spettro"},
    "en": {"name": "a player's name", "target": "the target", "text": "the text",
           "role": "the role", "ritual": "the ritual's name", "n": "the ritual's number n",
           "power": "the spectre's power"},
}

_MESSAGES = {
    "it": {
        "unknown_name": "Non conosco nessun giocatore che si chiami \u201c{name}\u201d. I nomi validi sono: {candidates}.",
        "ambiguous_name": "\u201c{name}\u201d pu\u00f2 indicare pi\u00f9 giocatori: {candidates}. Scrivi il nome per intero.",
        "missing_argument": "Manca {argument}.",
        "unknown_ritual": "Non conosco il rituale \u201c{ritual}\u201d. Rituali possibili: {candidates}.",
        "unknown_power": "Non conosco il potere \u201c{power}\u201d. Poteri possibili: {candidates}.",
        "bad_parameter": "Il valore \u201c{value}\u201d non va bene per {argument}.",
        "unknown_sender": "Non riesco a capire quale giocatore abbia scritto il messaggio inoltrato ({name}). Giocatori: {candidates}.",
        "command_outside_behalf": "Questo comando \u00e8 fuori dal messaggio inoltrato o dalla riga PER:, quindi non so per chi sia: non l'ho eseguito.",
        "multiple_behalf": "Un messaggio pu\u00f2 agire per un solo giocatore: da qui in poi (una seconda riga PER: o un secondo messaggio inoltrato) non ho eseguito nulla. Manda un messaggio per ogni giocatore.",
        "_other": "Non ho capito questa riga.",
    },
    "en": {
        "unknown_name": "There is no player called \u201c{name}\u201d. Valid names are: {candidates}.",
        "ambiguous_name": "\u201c{name}\u201d could mean more than one player: {candidates}. Please write the full name.",
        "missing_argument": "{argument} is missing.",
        "unknown_ritual": "There is no ritual called \u201c{ritual}\u201d. Possible rituals: {candidates}.",
        "unknown_power": "There is no power called \u201c{power}\u201d. Possible powers: {candidates}.",
        "bad_parameter": "The value \u201c{value}\u201d is not valid for {argument}.",
        "unknown_sender": "I cannot tell which player wrote the forwarded message ({name}). Players: {candidates}.",
        "command_outside_behalf": "This command is outside the forwarded message or the FOR: line, so I cannot tell whose it is: it was not carried out.",
        "multiple_behalf": "One message can act for one player only: nothing from here on (a second FOR: line or a second forwarded message) was carried out. Send one message per player.",
        "_other": "I did not understand this line.",
    },
}


def describe_error(error: dict, lang: str = "it") -> str:
    """Plain-language wording of a structured error, Italian by default."""
    lang = "en" if str(lang).lower().startswith("en") else "it"
    template = _MESSAGES[lang].get(error.get("code", ""), _MESSAGES[lang]["_other"])
    argument = _ARGUMENTS[lang].get(error.get("argument", ""), error.get("argument", ""))
    fields = {
        "name": error.get("name", ""),
        "ritual": error.get("ritual", ""),
        "power": error.get("power", ""),
        "value": error.get("value", ""),
        "argument": argument,
        "candidates": ", ".join(error.get("candidates") or []) or "-",
    }
    text = template.format(**fields)
    text = text[0].upper() + text[1:]
    line = error.get("line")
    if line:
        text = (f"\u00ab{line}\u00bb: " if lang == "it" else f"\u201c{line}\u201d: ") + text
    return text
