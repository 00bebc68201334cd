"""The Masters' panels of a Lupus LIVE! 12 game: rituals, corruption, the stall.

For the Masters only (``BaseRuleset.panels``): what the rules keep track of that
the desk shows at a glance. Worded here, in Italian and English.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable

from ..core import MASTER, PRIVATE, Event, GameState
from ..interface import Panel, word
from .. import texts as base_texts
from ..texts import listing
from .endgame import STALL_PHASES

TEXTS = {
    "rituals": {"it": "Rituali", "en": "Rituals"},
    "corruption": {"it": "Corruzione", "en": "Corruption"},
    "stall": {"it": "Stallo", "en": "Stall"},
    "none_yet": {"it": "Ancora nessuno.", "en": "None yet."},
    "yes": {"it": "sì", "en": "yes"},
    "no": {"it": "no", "en": "no"},
    "so_far": {
        "it": "Riusciti finora: Maledizione {m}; Omicidio {o}; Replay {r}; Resurrezione {z}; "
              "Spionaggio {s}; \\end{{story}}: {e}",
        "en": "Successful so far: Maledizione {m}; Omicidio {o}; Replay {r}; Resurrezione {z}; "
              "Spionaggio {s}; \\end{{story}}: {e}"},
    # personaggi §4.10: the balance is between groups with a villager and all-Lupi groups.
    "spionaggio": {"it": "da gruppi con almeno un paesano {village}, da gruppi di soli Lupi {wolves}",
                   "en": "by groups with a villager {village}, by groups of Lupi only {wolves}"},
    "story_open": {"it": "ancora possibile", "en": "still possible"},
    "story_won": {"it": "il Villaggio ha vinto con esso", "en": "the Village won with it"},
    "story_spent": {"it": "esaurito", "en": "spent"},
    "performed": {"it": "Riuscito: {ritual} su {target} da {members}",
                  "en": "Performed: {ritual} on {target} by {members}"},
    "failed": {"it": "Fallito: {ritual} su {target} da {members}",
               "en": "Failed: {ritual} on {target} by {members}"},
    "end_story": {"it": "\\end{{story}} con n={n} contro {wolves} Lupi vivi: {result}",
                  "en": "\\end{{story}} with n={n} against {wolves} living Lupi: {result}"},
    "village_wins": {"it": "vince il Villaggio", "en": "the Village wins"},
    "counters": {"it": "Corruzioni attese {expected}, effettive {actual}",
                 "en": "Expected corruptions {expected}, actual {actual}"},
    "draw": {"it": "Morte di {player} (probabilità {p}): corruzione {corrupt}",
             "en": "Death of {player} (probability {p}): corruption {corrupt}"},
    "corrupted": {"it": "Corruzione di {player} ({how})", "en": "Corruption of {player} ({how})"},
    "corrupt_now": {"it": "Giocano per i Lupi per corruzione: {players}",
                    "en": "Playing for the Wolves through corruption: {players}"},
    "stalled": {"it": "Nessuno muore da {n:# fase|# fasi} (§2.1): aspettare, uccidere, resuscitare o "
                      "dichiarare il pareggio.",
                "en": "No deaths for {n:# phase|# phases} (§2.1): wait, kill, resurrect or declare a draw."},
}


def _w(code: str, lang: str, **params: Any) -> str:
    return word(TEXTS, code, lang, params) or code


def _names(value: Any, lang: str) -> str:
    return listing(list(value) if isinstance(value, set) else value, lang)


def fraction(text: Any, lang: str) -> str:
    """A probability or an expectation as the reader writes a decimal ("0,35", "0.35"),
    never a fraction beside a decimal ("3/10" beside "0.3")."""
    try:
        value = Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        return str(text)
    return base_texts.number(round(float(value), 2), lang)


def _ritual_name(data: dict[str, Any]) -> str:
    name = str(data.get("ritual"))
    return f"{name} (n={data['n']})" if data.get("n") else name


def panels(state: GameState, events: Iterable[Event], lang: str) -> list[Panel]:
    """``events``: every event of the game, in the order they happened."""
    rows = list(events)
    out = [_rituals(state, rows, lang), _corruption(state, rows, lang)]
    quiet = int(state.data.get("quiet_phases", 0))
    if quiet >= STALL_PHASES and not state.over:
        out.insert(0, Panel(_w("stall", lang), [_w("stalled", lang, n=quiet)]))
    return out


def _rituals(state: GameState, rows: list[Event], lang: str) -> Panel:
    limits = state.data.get("rituals") or {}
    lines = []
    if limits:
        spionaggio = limits.get("spionaggio") or {}
        lines.append(_w("so_far", lang, m=limits.get("maledizione", 0), o=_names(limits.get("omicidio"), lang),
                        r=_names(limits.get("replay"), lang), z=_names(limits.get("resurrezione"), lang),
                        s=_w("spionaggio", lang, village=spionaggio.get("village", 0),
                             wolves=spionaggio.get("wolves", 0)),
                        e=_w("story_" + str(limits.get("end_story", "open")), lang)))
    # A successful ritual tells each participant, one after the other: show the group once.
    run_key, left = None, 0
    for e in rows:
        data = e.data or {}
        if e.kind == "ritual" and e.visibility == PRIVATE:
            key = (data.get("ritual"), str(data.get("target")), tuple(data.get("members") or []))
            if key == run_key and left > 0:
                left -= 1
                continue
            run_key, left = key, len(key[2]) - 1
            lines.append(_w("performed", lang, ritual=_ritual_name(data), target=_names(data.get("target"), lang),
                            members=_names(data.get("members"), lang)))
        elif e.kind == "ritual_failed":
            lines.append(_w("failed", lang, ritual=_ritual_name(data), target=_names(data.get("target"), lang),
                            members=_names(data.get("members"), lang)))
        elif e.kind == "end_story":
            lines.append(_w("end_story", lang, n=data.get("n"), wolves=data.get("wolves"),
                            result=_w("village_wins" if data.get("won") else "story_spent", lang)))
    return Panel(_w("rituals", lang), lines or [_w("none_yet", lang)])


def _corruption(state: GameState, rows: list[Event], lang: str) -> Panel:
    counters = state.data.get("corruption") or {}
    lines = []
    if counters:
        lines.append(_w("counters", lang, expected=fraction(counters.get("expected", "0"), lang),
                        actual=counters.get("actual", 0)))
    for e in rows:
        data = e.data or {}
        if e.kind == "corruption_draw":
            lines.append(_w("draw", lang, player=data.get("player"), p=fraction(data.get("probability", "0"), lang),
                            corrupt=_w("yes" if data.get("corrupt") else "no", lang)))
        elif e.kind == "corrupted" and e.visibility == MASTER and data.get("how") != "death":
            lines.append(_w("corrupted", lang, player=data.get("player"), how=data.get("how")))
    corrupt = [p.name for p in state.players if p.data.get("corrupt")]
    if corrupt:
        lines.append(_w("corrupt_now", lang, players=corrupt))
    return Panel(_w("corruption", lang), lines or [_w("none_yet", lang)])
