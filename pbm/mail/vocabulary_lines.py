"""Command lines read with a ruleset's own vocabulary (``BaseRuleset.vocabulary``).

A bridge until the generic parser (branch iface-vocab) reads every ruleset's
vocabulary in ``parse_message`` itself: for a game whose ruleset lists keywords, the
service reads the reply's lines with them here. A keyword's ``fixed`` arguments
(``kind`` and what the word implies) plus what the rest of the line fills make the
submission, which the ruleset turns into an action (``actions`` /
``submission_action``); names are resolved as everywhere else (``resolve_name``),
choices through ``Vocabulary.choices``, and an unknown choice goes to the engine
as typed, which refuses it in its own words.
"""
from __future__ import annotations

import re
from typing import Any

from engine.interface import Keyword, Vocabulary

from .commands import _LINE_DECORATION, fold, resolve_name


def _table(vocabulary: Vocabulary, key: str) -> dict[str, str]:
    tables = vocabulary.choices
    table = tables.get(key) or (next(iter(tables.values())) if len(tables) == 1 else {})
    return {fold(alias): value for alias, value in table.items()}


def _matcher(vocabulary: Vocabulary) -> list[tuple[re.Pattern[str], Keyword]]:
    words = sorted(((w, k) for k in vocabulary.keywords for w in (*k.it, *k.en)),
                   key=lambda pair: len(pair[0]), reverse=True)
    return [(re.compile(rf"^{re.escape(w)}(?=$|[\s:=.,;!])[\s:=]*(.*)$", re.IGNORECASE), k)
            for w, k in words]


def parse_line(line: str, players: list[str], vocabulary: Vocabulary,
               matcher: list[tuple[re.Pattern[str], Keyword]] | None = None
               ) -> tuple[dict[str, Any] | None, list[dict], bool]:
    """One line -> (submission or None, errors, is_command_line)."""
    text = _LINE_DECORATION.sub("", line).strip()
    for pattern, keyword in matcher or _matcher(vocabulary):
        m = pattern.match(text)
        if m:
            break
    else:
        return None, [], False
    arg = m.group(1).strip().strip(".!;")
    submission: dict[str, Any] = dict(keyword.fixed)
    error: dict | None = None
    if keyword.value == "name":
        name, error = resolve_name(arg, players)
        if name:
            submission[keyword.key] = name
    elif keyword.value in ("choice", "choices"):
        table = _table(vocabulary, keyword.key)
        typed = [t for t in re.split(r"[\s,;]+|\s(?:e|and)\s", arg) if t] if arg else []
        if not typed:
            error = {"code": "missing_argument", "argument": keyword.key}
        elif keyword.value == "choice":
            submission[keyword.key] = table.get(fold(arg), table.get(fold(typed[0]), arg))
        else:
            submission[keyword.key] = [table.get(fold(t), t) for t in typed]
    elif keyword.value == "text" and arg:
        submission[keyword.key] = arg
    if error is not None:
        error.setdefault("line", line.strip())
        error.setdefault("command", keyword.key)
        return None, [error], True
    return submission, [], True


def parse_lines(text: str, players: list[str],
                vocabulary: Vocabulary) -> tuple[list[dict], list[dict], list[str]]:
    """Submissions, errors and the non-empty lines that were not commands, in order."""
    matcher = _matcher(vocabulary)
    commands: list[dict] = []
    errors: list[dict] = []
    ignored: list[str] = []
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        command, errs, is_command = parse_line(line, players, vocabulary, matcher)
        if command:
            commands.append(command)
        errors.extend(errs)
        if not is_command:
            ignored.append(line.strip())
    return commands, errors, ignored
