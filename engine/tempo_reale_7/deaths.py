"""Death and what follows it: the Fantasma's awakening, a faction's defeat and exile,
the mayor's succession and the victory check (§3.1, §3.5, §3.7 Fantasma, §3.10)."""
from __future__ import annotations

import random

from ..core import Event, GameState, Player, master, private, public
from .roles import LUPI, NEGROMANTI, POWERS, SPETTRO


def is_active(p: Player) -> bool:
    """Alive and still in the game (an exiled player is out of it, §3.1)."""
    return p.alive and not p.data.get("exiled")


def living(state: GameState) -> list[Player]:
    return [p for p in state.players if is_active(p)]


def in_play(p: Player) -> bool:
    return not p.data.get("exiled")


def kill(state: GameState, name: str, cause: str, events: list[Event]) -> bool:
    p = state.player(name)
    if not p.alive:
        return False
    p.alive = False
    # What the Trasformista looks at is the role "nel momento in cui è morto".
    p.data["death_role"] = p.role
    p.data["death_faction"] = p.faction
    events.append(public("death", player=name, cause=cause))
    return True


def assigned_powers(state: GameState) -> set[str]:
    return {p.data["spettro"] for p in state.players if p.data.get("spettro")}


def make_spettro(p: Player, power: str, from_night: int) -> None:
    p.role = SPETTRO
    p.faction = NEGROMANTI
    p.data["spettro"] = power
    p.data["spettro_from"] = from_night
    p.data["last_used"] = None
    p.data["used_once"] = False


def awaken_fantasmi(state: GameState, names: list[str], from_night: int,
                    rng: random.Random, events: list[Event]) -> None:
    """Fantasmi who just died become Spettri with a random free power (FAQ 12, 27, 32)."""
    ghosts = [state.player(n) for n in names]
    ghosts = [g for g in ghosts if g.role == "Fantasma" and not g.alive and in_play(g)]
    rng.shuffle(ghosts)
    necromancers = [p.name for p in state.players if p.role == "Negromante" and in_play(p)]
    for g in ghosts:
        free = [name for name, power in POWERS.items()
                if name not in assigned_powers(state)
                and (not power.needs_mystic or g.data.get("mystic"))]
        if not free:
            events.append(master("fantasma_no_power", player=g.name))
            continue
        power = free[rng.randrange(len(free))]
        make_spettro(g, power, from_night)
        events.append(private(g.name, "spettro", spettro=power))
        events.append(private(g.name, "necromancers", players=necromancers))
        if necromancers:
            events.append(private(necromancers, "fantasma", player=g.name))
        events.append(master("spettro", player=g.name, spettro=power, how="fantasma"))


def check_defeats(state: GameState, had: dict[str, bool], events: list[Event]) -> None:
    """§3.1: the wolves (necromancers) lose at once when their last Lupo (Negromante) dies."""
    lost = state.data.setdefault("lost", [])
    for faction, role in ((LUPI, "Lupo"), (NEGROMANTI, "Negromante")):
        if faction in lost or not had.get(faction):
            continue
        if any(is_active(p) and p.role == role for p in state.players):
            continue
        lost.append(faction)
        members = [p.name for p in state.players if p.faction == faction]
        events.append(public("faction_lost", faction=faction, members=members))
        for p in state.players:
            if p.faction == faction and not p.data.get("exiled"):
                p.data["exiled"] = True
                p.alive = False
        events.append(public("exile", faction=faction, members=members))


def leaders_alive(state: GameState) -> dict[str, bool]:
    return {LUPI: any(is_active(p) and p.role == "Lupo" for p in state.players),
            NEGROMANTI: any(is_active(p) and p.role == "Negromante" for p in state.players)}


def succeed_mayor(state: GameState, rng: random.Random, events: list[Event]) -> None:
    """§3.10: the designated successor if alive, otherwise a random living player."""
    if state.mayor is not None and is_active(state.player(state.mayor)):
        return
    vice = state.data.get("vice")
    alive = [p.name for p in living(state)]
    if vice and vice in alive:
        new, how = vice, "successor"
    elif alive:
        new, how = alive[rng.randrange(len(alive))], "random"
    else:
        new, how = None, "none"
    state.mayor = new
    state.data["vice"] = None
    events.append(public("mayor", player=new, how=how))


def check_winner(state: GameState, events: list[Event]) -> None:
    """§3.1: a faction wins when every living character belongs to it."""
    factions = {p.faction for p in living(state)}
    if len(factions) == 1:
        winner = factions.pop()
    elif not factions:
        winner = "draw"
    else:
        return
    state.winner = winner
    events.append(public("game_over", winner=winner,
                         roles={p.name: p.role for p in state.players},
                         factions={p.name: p.faction for p in state.players}))


def after_deaths(state: GameState, had: dict[str, bool], rng: random.Random,
                 events: list[Event]) -> None:
    check_defeats(state, had, events)
    succeed_mayor(state, rng, events)
    check_winner(state, events)

