"""The Masters' panels of a Lupus in tempo reale 7 game: the Divinatore's
propositions, the Spettri, the exiles, hypnosis.

For the Masters only (``BaseRuleset.panels``). Worded here, in Italian and English.
"""
from __future__ import annotations

from typing import Any, Iterable

from ..core import MASTER, Event, GameState
from ..interface import Panel, word
from ..lupus_common.texts import faction

TEXTS = {
    "divinatore": {"it": "Proposizioni del Divinatore", "en": "Divinatore propositions"},
    "proposition": {"it": "{player} ha il ruolo {role}", "en": "{player} has the role {role}"},
    "true": {"it": "vera", "en": "true"},
    "false": {"it": "falsa", "en": "false"},
    "spettri": {"it": "Spettri", "en": "Spettri"},
    "spettro": {"it": "{player}: {power}, dalla notte {night}", "en": "{player}: {power}, from night {night}"},
    "fantasma": {"it": "risveglio in quanto Fantasma", "en": "woken as a Fantasma"},
    "negromanti": {"it": "risveglio per mano dei Negromanti", "en": "woken by the Negromanti"},
    "used_once": {"it": "potere unico già usato", "en": "once-per-game power used"},
    "last_used": {"it": "usato l'ultima volta la notte {night}", "en": "last used on night {night}"},
    "exiled": {"it": "in esilio", "en": "exiled"},
    "none_yet": {"it": "Ancora nessuno.", "en": "None yet."},
    "exiles": {"it": "Esilio", "en": "Exile"},
    "lost": {"it": "Fazioni sconfitte: {factions}", "en": "Factions that lost: {factions}"},
    "exiled_list": {"it": "In esilio: {players}", "en": "Exiled: {players}"},
    "nobody": {"it": "Nessuno.", "en": "Nobody."},
    "hypnosis": {"it": "Ipnosi", "en": "Hypnosis"},
    "votes_as": {"it": "{player} vota come {hypnotist}", "en": "{player} votes as {hypnotist}"},
}


def _w(code: str, lang: str, **params: Any) -> str:
    return word(TEXTS, code, lang, params) or code


def panels(state: GameState, events: Iterable[Event], lang: str) -> list[Panel]:
    """``events``: every event of the game, in the order they happened."""
    out: list[Panel] = []
    diviners = state.data.get("divinatore") or {}
    if diviners:
        out.append(Panel(_w("divinatore", lang), [
            f"{name}: " + "; ".join(_proposition(p, lang) for p in props)
            for name, props in diviners.items()]))

    how = {}
    for e in events:
        if e.kind == "spettro" and e.visibility == MASTER:
            how[e.data.get("player")] = e.data.get("how")
    spectres = []
    for p in state.players:
        power = p.data.get("spettro")
        if not power:
            continue
        parts = [_w("spettro", lang, player=p.name, power=power, night=p.data.get("spettro_from", "?"))]
        if how.get(p.name) in ("fantasma", "negromanti"):
            parts.append(_w(how[p.name], lang))
        if p.data.get("used_once"):
            parts.append(_w("used_once", lang))
        if p.data.get("last_used"):
            parts.append(_w("last_used", lang, night=p.data["last_used"]))
        if p.data.get("exiled"):
            parts.append(_w("exiled", lang))
        spectres.append(", ".join(parts))
    out.append(Panel(_w("spettri", lang), spectres or [_w("none_yet", lang)]))

    lost = state.data.get("lost") or []
    exiled = [p.name for p in state.players if p.data.get("exiled")]
    lines = []
    if lost:
        lines.append(_w("lost", lang, factions=[faction(f, lang) for f in lost]))
    if exiled:
        lines.append(_w("exiled_list", lang, players=exiled))
    out.append(Panel(_w("exiles", lang), lines or [_w("nobody", lang)]))

    control = state.data.get("hypnosis") or {}
    if control:
        out.append(Panel(_w("hypnosis", lang), [_w("votes_as", lang, player=k, hypnotist=v)
                                                for k, v in sorted(control.items())]))
    return out


def _proposition(p: dict[str, Any], lang: str) -> str:
    line = _w("proposition", lang, player=p.get("player"), role=p.get("role"))
    if "true" in p:
        line += f" ({_w('true' if p['true'] else 'false', lang)})"
    return line
