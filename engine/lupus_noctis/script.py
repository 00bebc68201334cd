"""The narrator's night, call by call (ruling N11).

"Per evitare che i giocatori capiscano chi è stato ucciso di notte verranno sempre
chiamati tutti gli abitanti del villaggio che hanno interazioni con il Narratore, anche
se essi sono morti": the list of calls depends only on the composition and the night's
number, never on who is alive. The first night calls every role dealt but the
Contadino; later nights the roles with a night power.
"""
from __future__ import annotations

from typing import Any

from ..core import GameState
from ..interface import LANGS, word
from .forms import target_choices
from .phases import NIGHT
from .roles import CALL_ORDER, CONTADINO, NIGHT_POWERS, ROLES
from .texts import ROLE_NAMES, SCRIPT


def _both(code: str, **params: Any) -> dict[str, str]:
    return {lang: word(SCRIPT, code, lang, params) or "" for lang in LANGS}


def called_roles(composition: dict[str, int], night: int) -> list[str]:
    roles = [r for r in CALL_ORDER if composition.get(r) and r != CONTADINO]
    if night > 1:
        roles = [r for r in roles if r in NIGHT_POWERS]
    return roles


def night_script(state: GameState) -> list[dict[str, Any]]:
    """The calls of tonight, in order; [] when the open moment is not a night.

    Each call is a dict:
      role      the role called (engine name); copies: how many were dealt
      holders   who holds it, living: those alive now (for the narrator's eyes only)
      say       {"open", "do", "close"}: each {"it": ..., "en": ...}, read aloud
      tap       what the narrator taps on the phone:
                night 1: {"kind": "identify", "key": "players", "count": copies,
                          "choices": every player} (the faces of the holders);
                later:   {"kind": "power", "key": "target", "actor": a living holder
                          or None, "choices": [...] ([] when nobody can act: the call
                          is read all the same), "optional": bool}
    """
    if state.phase.kind != NIGHT or state.over:
        return []
    night = state.phase.number
    composition = state.data.get("composition") or {}
    calls = []
    for role in called_roles(composition, night):
        holders = [p.name for p in state.players if p.role == role]
        living = [p.name for p in state.players if p.role == role and p.alive]
        one = composition[role] == 1
        names = {lang: ROLE_NAMES[role].get(f"{lang}.one" if one else lang) or ROLE_NAMES[role][lang]
                 for lang in LANGS}
        number = ".one" if one else ""
        say_open = {lang: word(SCRIPT, "script.open" + number, lang, {"role": names[lang]}) or ""
                    for lang in LANGS}
        say_close = {lang: word(SCRIPT, "script.close" + number, lang, {"role": names[lang]}) or ""
                     for lang in LANGS}
        if night == 1:
            code = f"script.recognise.{role}"
            if one or code not in SCRIPT:  # one copy has nobody to recognise
                code = "script.recognise"
            tap: dict[str, Any] = {"kind": "identify", "key": "players", "count": composition[role],
                                   "choices": state.names()}
        else:
            code = f"script.power.{role}"
            if one and code + ".one" in SCRIPT:
                code += ".one"
            actor = next((n for n in living if target_choices(state, state.player(n))), None)
            tap = {"kind": "power", "key": "target", "actor": actor,
                   "choices": target_choices(state, state.player(actor)) if actor else [],
                   "optional": ROLES[role].once}
        calls.append({"role": role, "copies": composition[role], "holders": holders,
                      "living": living, "name": names,
                      "say": {"open": say_open, "do": _both(code), "close": say_close},
                      "tap": tap})
    return calls


def night_frame() -> dict[str, dict[str, str]]:
    """What the narrator reads before the first call and after the last."""
    return {"sleep": _both("script.sleep"), "wake": _both("script.wake")}
