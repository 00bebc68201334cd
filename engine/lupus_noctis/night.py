"""The night and its dawn (rulings N5-N9).

Every call of the night happens before dawn, and "Alba: viene aggiornato l'elenco dei
vivi e dei morti": so every power is used by whoever was alive at nightfall, on the
village as it was at nightfall, and deaths and revivals all take effect together at
dawn. The first night is for recognition only.
"""
from __future__ import annotations

from collections import Counter

from ..core import Action, Event, GameState, master, private, public
from ..lupus_common.actions import POWER
from .endgame import check_end
from .roles import APPRENDISTA, CALL_ORDER, LICANTROPO, MEDIUM, ROLES, VEGGENTE


def recognise(state: GameState, events: list[Event]) -> None:
    """"Gli Abitanti del villaggio presenti in multiple copie ... dovranno anche
    riconoscersi a vicenda": each holder of a role dealt more than once learns the others."""
    for role in CALL_ORDER:
        holders = [p.name for p in state.players if p.role == role]
        if len(holders) < 2:
            continue
        for name in holders:
            events.append(private(name, "partners", role=role,
                                  partners=[h for h in holders if h != name]))


def pack_victim(state: GameState, targets: dict[str, str]) -> tuple[str | None, list[str]]:
    """The Licantropi's victim: the player most of the acting Licantropi pointed at; a
    split with no majority kills nobody (ruling N6). Also who acted."""
    wolves = [p.name for p in state.players
              if p.role == LICANTROPO and p.alive and p.name in targets]
    if not wolves:
        return None, []
    counts = Counter(targets[w] for w in wolves).most_common()
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        return None, wolves
    return counts[0][0], wolves


def resolve_night(state: GameState, actions: list[Action], events: list[Event]) -> None:
    night = state.phase.number
    if night == 1:
        recognise(state, events)
    targets = {a.player: a.args["target"] for a in actions if a.kind == POWER}
    died: list[str] = []
    revived: list[str] = []

    victim, wolves = pack_victim(state, targets)
    if victim is not None and ROLES[state.player(victim).role].alone_if_alive:
        # Ruling N8: a Procione Mannaro is a were-beast himself; the pack cannot kill him.
        events.append(master("night_kill_failed", player=victim, by=wolves))
        victim = None
        events.append(private(wolves, "failed"))
    elif victim is None and wolves:
        events.append(master("pack_split", by=wolves, targets={w: targets[w] for w in wolves}))
        events.append(private(wolves, "failed"))
    if victim is not None:
        died.append(victim)
        events.append(master("night_kill", player=victim, by=wolves))

    for p in state.players:
        target = targets.get(p.name)
        if target is None or not p.alive:
            continue
        if p.role in (VEGGENTE, MEDIUM):
            t = state.player(target)
            events.append(private(p.name, "aura", player=target, aura=t.aura))
        elif p.role == APPRENDISTA and not p.data.get("used"):
            p.data["used"] = night
            if target not in revived:
                revived.append(target)
            events.append(master("raised", player=target, by=p.name))

    seats = state.names()
    died.sort(key=seats.index)
    revived.sort(key=seats.index)
    for name in died:
        state.player(name).alive = False
    for name in revived:
        state.player(name).alive = True
    # Dawn: who died and who came back, in seat order and with no cause.
    for name in died:
        events.append(public("death", player=name))
    for name in revived:
        events.append(public("revive", player=name))
    events.append(public("dawn", night=night, died=died, revived=revived))
    check_end(state, events)
