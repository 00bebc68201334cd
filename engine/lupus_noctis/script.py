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
from ..interface import Call, IdentifyTap, NightFrame, PowerTap, Say, TableScript, Tap, word
from .forms import target_choices
from .phases import NIGHT
from .roles import CALL_ORDER, CONTADINO, NIGHT_POWERS, ROLES
from .texts import ROLE_NAMES, SCRIPT


def _say(code: str, **params: Any) -> Say:
    return Say(it=word(SCRIPT, code, "it", params) or "", en=word(SCRIPT, code, "en", params) or "")


def called_roles(composition: dict[str, int], night: int) -> list[str]:
    roles = [r for r in CALL_ORDER if composition.get(r) and r != CONTADINO]
    if night > 1:
        roles = [r for r in roles if r in NIGHT_POWERS]
    return roles


def night_script(state: GameState) -> tuple[Call, ...]:
    """The calls of tonight, in order; () when the open moment is not a night.

    Night 1 asks the narrator to identify each role's holders (``IdentifyTap``: as many
    faces as copies dealt, among every player); later nights each power's target
    (``PowerTap`` of ``target`` for a living holder who can act, or for nobody: the
    call is read all the same)."""
    if state.phase.kind != NIGHT or state.over:
        return ()
    night = state.phase.number
    composition = state.data.get("composition") or {}
    calls = []
    for role in called_roles(composition, night):
        holders = tuple(p.name for p in state.players if p.role == role)
        living = tuple(p.name for p in state.players if p.role == role and p.alive)
        one = composition[role] == 1
        names = {lang: ROLE_NAMES[role].get(f"{lang}.one" if one else lang) or ROLE_NAMES[role][lang]
                 for lang in ("it", "en")}
        number = ".one" if one else ""
        tap: Tap
        if night == 1:
            code = f"script.recognise.{role}"
            if one or code not in SCRIPT:  # one copy has nobody to recognise
                code = "script.recognise"
            tap = IdentifyTap(count=composition[role], choices=tuple(state.names()))
        else:
            code = f"script.power.{role}"
            if one and code + ".one" in SCRIPT:
                code += ".one"
            actor = next((n for n in living if target_choices(state, state.player(n))), None)
            tap = PowerTap(key="target", actor=actor,
                           choices=tuple(target_choices(state, state.player(actor))) if actor else (),
                           optional=ROLES[role].once)
        calls.append(Call(
            role=role, copies=composition[role], holders=holders, living=living,
            name=Say(names["it"], names["en"]),
            open=Say(*(word(SCRIPT, "script.open" + number, lang, {"role": names[lang]}) or ""
                       for lang in ("it", "en"))),
            do=_say(code),
            close=Say(*(word(SCRIPT, "script.close" + number, lang, {"role": names[lang]}) or ""
                        for lang in ("it", "en"))),
            tap=tap))
    return tuple(calls)


def night_frame() -> NightFrame:
    """What the narrator reads before the first call and after the last."""
    return NightFrame(sleep=_say("script.sleep"), wake=_say("script.wake"))


class NoctisTable(TableScript):
    """Lupus Noctis is played at a table (ruling N11): its night, call by call."""

    def night_script(self, state: GameState) -> tuple[Call, ...]:
        return night_script(state)

    def night_frame(self) -> NightFrame:
        return night_frame()
