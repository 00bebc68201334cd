"""Wording of rule messages (rejections, events) in Italian and English.

The engine speaks in codes and structured events; these catalogs word them.
Each ruleset has a module here named after its engine package, defining
REJECTIONS and EVENTS: {code: {"it": "...", "en": "..."}} with str.format
placeholders taken from the rejection's params or the event's data.
Lookups fall back from the ruleset's catalog to the common one, then to the
bare code, so a missing wording never hides what happened.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from . import common

LANGS = ("it", "en")


def _catalog(ruleset: str | None) -> ModuleType | None:
    if not ruleset:
        return None
    try:
        return importlib.import_module(f"{__name__}.{ruleset.replace('-', '_')}")
    except ModuleNotFoundError:
        return None


def _fmt(template: str, params: dict[str, Any]) -> str:
    safe = {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
            for k, v in params.items()}
    try:
        return template.format(**safe)
    except (KeyError, IndexError, ValueError):
        return template


def _lookup(table: str, code: str, ruleset: str | None, lang: str) -> str | None:
    lang = lang if lang in LANGS else "it"
    for module in (_catalog(ruleset), common):
        entry = getattr(module, table, {}).get(code) if module else None
        if entry:
            return entry.get(lang) or entry.get("it")
    return None


def rejection(code: str, params: dict[str, Any], ruleset: str | None, lang: str) -> str:
    template = _lookup("REJECTIONS", code, ruleset, lang)
    if template:
        return _fmt(template, params)
    if ruleset:  # a ruleset that words its own refusals (engine/interface.py)
        from engine.registry import get_ruleset
        try:
            own = get_ruleset(ruleset).describe_rejection(code, params, lang)
        except KeyError:
            own = None
        if own:
            return own
    return code


def event(kind: str, data: dict[str, Any], ruleset: str | None, lang: str) -> str | None:
    """One line for an event, or None when the event is not meant to be worded."""
    template = _lookup("EVENTS", kind, ruleset, lang)
    return _fmt(template, data) if template else None
