"""Step 9 of the night: the Satanisti and every ghosts' ritual (§1.10, personaggi §2.6, §4)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core import master, private
from .death import tell_corrupted
from .rituals import (
    CONFUSIONE, END_STORY, IMPEDIMENTO, MALEDIZIONE, MENO_DELEGATO, MENO_DIRETTO, OMICIDIO,
    REPLAY, RESURREZIONE, RITUALS, SPIONAGGIO, VOTO_DELEGATO, VOTO_DIRETTO,
)
from .roles import LUPI, VILLAGGIO
from .tonight import Tonight


@dataclass
class Group:
    members: frozenset[str]
    ritual: str
    target: str | None
    n: int | None
    satanista: str | None

    def key(self) -> tuple[str, ...]:
        return tuple(sorted(self.members))


def ritual_state(state: Any) -> dict[str, Any]:
    """Per-game ritual limits (§4): successes so far, by faction where the limit is."""
    return state.data.setdefault("rituals", {
        "maledizione": 0,
        "omicidio": {VILLAGGIO: 0, LUPI: 0},
        "replay": {VILLAGGIO: 0, LUPI: 0},
        "resurrezione": {VILLAGGIO: 0, LUPI: 0},
        "spionaggio": {"village": 0, "wolves": 0},
        "end_story": "open",
    })


def performed_groups(night: Tonight) -> list[Group]:
    """§1.10.2 and §2.6: the groups whose members all named the same ritual, target and group."""
    subs = night.rituals

    def satanista(name: str) -> bool:
        # A living Satanista at the start of the night takes the place of two ghosts.
        return name in night.alive_start and night.snapshot[name]["role"] == "Satanista"

    def claimed(name: str) -> frozenset[str]:
        return frozenset([name, *subs[name]["with"]])

    def needed(name: str) -> int:
        a = subs[name]
        return RITUALS[a["ritual"]].participants(a.get("n"))

    groups: list[Group] = []
    seen: set[frozenset[str]] = set()
    for name in sorted(subs):
        members = claimed(name)
        if members in seen:
            continue
        seen.add(members)
        sats = [m for m in members if satanista(m)]
        size = len(members) + (1 if sats else 0)
        a = subs[name]
        ok = len(sats) <= 1 and size == needed(name)
        for m in members:
            b = subs.get(m)
            if (b is None or b["ritual"] != a["ritual"] or b.get("target") != a.get("target")
                    or needed(m) != needed(name) or claimed(m) != members):
                ok = False
                break
        if ok:
            groups.append(Group(members, a["ritual"], a.get("target"), a.get("n"),
                                sats[0] if sats else None))
    return sorted(groups, key=Group.key)


def _pick(night: Tonight, groups: list[Group], limit: int) -> list[Group]:
    """§4: over a limit, the successful ones are drawn at random among those performed."""
    if limit <= 0:
        return []
    if len(groups) <= limit:
        return groups
    return sorted(night.rng.sample(groups, limit), key=Group.key)


def resolve_rituals(night: Tonight) -> None:
    state = night.state
    limits = ritual_state(state)
    groups = performed_groups(night)

    # The Satanista's part is a power: kidnapped, impeded or dead too early, the ritual fails.
    usable: list[Group] = []
    for g in groups:
        if g.satanista and (night.prevented(g.satanista)
                            or night.auto_failed(g.satanista, g.target, RITUALS[g.ritual].target)):
            continue
        usable.append(g)

    def faction(name: str) -> str:
        return state.player(name).faction

    by_kind: dict[str, list[Group]] = {}
    for g in usable:
        by_kind.setdefault(g.ritual, []).append(g)
    ok: list[Group] = []

    # Maledizione first: the Replay note (§4.8) makes a same-night curse count.
    if not limits["maledizione"]:
        cands = [g for g in by_kind.get(MALEDIZIONE, [])
                 if not state.player(g.target).alive and faction(g.target) == VILLAGGIO]
        for g in _pick(night, cands, 1):
            t = state.player(g.target)
            t.faction = LUPI
            t.data["corrupt"] = True
            tell_corrupted(g.target, night.events, "maledizione")
            limits["maledizione"] = 1
            ok.append(g)

    def per_faction(kind: str, key: str, cond: Any) -> list[Group]:
        won: list[Group] = []
        cands = [g for g in by_kind.get(kind, []) if cond(g)]
        for f in (VILLAGGIO, LUPI):
            if limits[key][f]:
                continue
            chosen = _pick(night, [g for g in cands if faction(g.target) == f], 1)
            if chosen:
                limits[key][f] += 1
                won += chosen
        return won

    def has(g: Group, wanted: str, same: bool) -> bool:
        return any((faction(m) == wanted) == same for m in g.members)

    for g in per_faction(OMICIDIO, "omicidio",
                         lambda g: state.player(g.target).alive
                         and has(g, faction(g.target), same=False)):
        night.to_kill.append((g.target, "omicidio"))
        ok.append(g)
    for g in per_faction(REPLAY, "replay",
                         lambda g: not state.player(g.target).alive
                         and has(g, faction(g.target), same=True)):
        state.player(g.target).data["replay_night"] = night.n + 1
        ok.append(g)
    for g in per_faction(RESURREZIONE, "resurrezione",
                         lambda g: not state.player(g.target).alive
                         and has(g, faction(g.target), same=True)):
        night.to_revive.append((g.target, "resurrezione"))
        ok.append(g)

    # Spionaggio (§4.10): village-backed successes may exceed wolves-only ones by at most 1.
    spies = by_kind.get(SPIONAGGIO, [])
    wolf_spies = [g for g in spies if all(faction(m) == LUPI for m in g.members)]
    village_spies = [g for g in spies if g not in wolf_spies]
    bal = limits["spionaggio"]
    bal["wolves"] += len(wolf_spies)
    allowed = bal["wolves"] + 1 - bal["village"]
    won_village = _pick(night, village_spies, allowed)
    bal["village"] += len(won_village)
    for g in wolf_spies + won_village:
        value = faction(g.target) == LUPI
        for m in sorted(g.members):
            # Only a living Satanista can be the target of a Confusione.
            night.answer(m, g.target, "spionaggio", value, confusable=state.player(m).alive)
        ok.append(g)

    for g in by_kind.get(CONFUSIONE, []):
        night.confused[g.target] = night.confused.get(g.target, 0) + 1
        ok.append(g)
    for g in by_kind.get(IMPEDIMENTO, []):
        state.player(g.target).data["impeded_night"] = night.n + 1
        ok.append(g)

    mods = state.data.setdefault("day_mods", {}).setdefault(str(night.n), {"weight": {}, "direct": {}})
    for kind, table, sign in ((VOTO_DELEGATO, "weight", 1), (MENO_DELEGATO, "weight", -1),
                              (VOTO_DIRETTO, "direct", 1), (MENO_DIRETTO, "direct", -1)):
        for g in by_kind.get(kind, []):
            delta = Fraction(sign * int(g.n or 0), 2)
            old = Fraction(mods[table].get(g.target, "0"))
            mods[table][g.target] = str(old + delta)
            ok.append(g)

    stories = by_kind.get(END_STORY, [])
    if stories and limits["end_story"] == "open":
        # §4.2: the first night it is performed, the largest group decides.
        best = max(int(g.n or 0) for g in stories)
        wolves = sum(1 for name in night.alive_start if night.snapshot[name]["faction"] == LUPI)
        limits["end_story"] = "won" if best >= wolves else "spent"
        night.events.append(master("end_story", n=best, wolves=wolves,
                                   won=best >= wolves))
        ok += stories

    won = {g.key() for g in ok}
    done: set[str] = set()
    for g in ok:
        for m in sorted(g.members):
            night.events.append(private(m, "ritual", ritual=g.ritual, target=g.target,
                                        n=g.n, members=sorted(g.members)))
            done.add(m)
    for g in groups:
        if g.key() not in won:
            night.events.append(master("ritual_failed", ritual=g.ritual, target=g.target,
                                       members=sorted(g.members)))
    for name in sorted(night.rituals):
        if name not in done:
            night.fail(name)
