"""The start of a game: the village, and the unlucky player drawn in secret (ruling N2).

Two ways in. Scenarios (and a service that deals the roles itself) seat every player
with a role. At a real table the narrator deals paper cards ("si avvale di supporti
cartacei") and the app learns who holds what only on the first night, when the narrator
taps the faces of each role's holders ("li inserirà nell'applicazione Lupus Noctis
selezionando il volto"): seat everyone with an empty role and give the composition, and
the taps arrive with the first night's resolution (``identify``, ruling N13).
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..core import Event, GameState, Phase, Player, Rejected, SetupError, private
from .phases import NIGHT
from .roles import CONTADINO, KEY, ROLES, canonical, default_composition


def _composition(given: Any, players: int) -> dict[str, int]:
    if given is None:
        standard = default_composition(players)
        if standard is None:
            raise SetupError("no_standard_village", f"no standard village for {players} players",
                             players=players)
        return standard
    village: dict[str, int] = {}
    for role, count in dict(given).items():
        name = canonical(str(role))
        village[name] = village.get(name, 0) + int(count)
    village = {role: count for role, count in village.items() if count > 0}
    if sum(village.values()) != players:
        raise SetupError("composition_size", f"the composition has {sum(village.values())} roles "
                         f"for {players} players", roles=sum(village.values()), players=players)
    return village


def setup_game(seating: list[tuple[str, str]], rng: random.Random,
               options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
    options = dict(options or {})
    names = [str(name) for name, _ in seating]
    for name in names:
        if names.count(name) > 1:
            raise SetupError("seated_twice", f"player {name!r} is seated twice", name=name)
    if len(names) < 2:
        raise SetupError("too_few_players", "Lupus Noctis needs at least two players", minimum=2)
    undealt = all(not role for _, role in seating)
    players: list[Player] = []
    for name, role_name in seating:
        if undealt:
            players.append(Player(name=str(name), role="", faction="", aura=""))
            continue
        role = ROLES[canonical(role_name)]
        players.append(Player(name=str(name), role=role.name, faction=role.faction, aura=role.aura))
    if undealt:
        composition = _composition(options.get("composition"), len(players))
    else:
        composition = dict(Counter(p.role for p in players))
    unlucky = options.get("unlucky")
    if unlucky is None:
        # "assegnato casualmente e segretamente": uniform over the seats, in no event.
        unlucky = players[rng.randrange(len(players))].name
    elif str(unlucky) not in names:
        raise SetupError("unlucky_not_a_player", f"unlucky {unlucky!r} is not a player", name=unlucky)
    state = GameState(ruleset=KEY, players=players, phase=Phase(NIGHT, 1),
                      data={"unlucky": str(unlucky), "runoff": [], "composition": composition,
                            "identified": not undealt})
    events = [] if undealt else [private(p.name, "role_card", role=p.role) for p in players]
    return state, events


def identify(state: GameState, taps: Any) -> None:
    """Deal the roles the narrator tapped on the first night: ``taps`` maps each role
    of the composition but the Contadino to the faces tapped (role names in any spelling);
    everyone untapped is a Contadino. Refused (``Rejected``) unless it matches the
    composition exactly: the narrator taps again."""
    if not isinstance(taps, dict):
        raise Rejected("identify_missing")
    composition = state.data["composition"]
    holders: dict[str, str] = {}
    given: dict[str, list[str]] = {}
    for role_name, names in taps.items():
        try:
            role = canonical(str(role_name))
        except KeyError:
            raise Rejected("identify_unknown_role", role=role_name) from None
        names = [names] if isinstance(names, str) else list(names or [])
        given.setdefault(role, []).extend(str(n) for n in names)
    for role, count in composition.items():
        if role == CONTADINO:
            continue
        tapped = given.pop(role, [])
        if len(tapped) != count:
            raise Rejected("identify_count", role=role, expected=count, got=len(tapped))
        for name in tapped:
            if not state.has_player(name):
                raise Rejected("unknown_player", target=name)
            if name in holders:
                raise Rejected("identify_twice", player=name, role=role, other=holders[name])
            holders[name] = role
    extra = [role for role, names in given.items() if names and role != CONTADINO]
    if extra:
        raise Rejected("identify_not_dealt", role=extra[0])
    for p in state.players:
        dealt = ROLES[holders.get(p.name, CONTADINO)]
        p.role, p.faction, p.aura = dealt.name, dealt.faction, dealt.aura
    state.data["identified"] = True
