"""The start of a game: roles dealt, initial knowledge (§3.8), the mayor, the
Divinatore's four propositions (§3.7 Divinatore, FAQ 10)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Event, GameState, Phase, Player, SetupError, master, private, public
from .roles import FACTIONS, KNOWLEDGE_GROUPS, ROLES, canonical

KEY = "tempo-reale-7"


def deal(seating: list[tuple[str, str]]) -> list[Player]:
    players = []
    seen: set[str] = set()
    for name, role_name in seating:
        if name in seen:
            raise SetupError("seated_twice", f"player {name!r} is seated twice", name=name)
        seen.add(name)
        role = ROLES.get(canonical(role_name))
        if role is None:
            raise SetupError("not_dealt_at_start", f"{role_name!r} cannot be dealt at the start of a game",
                             role=role_name)
        # "dealt": the groups of §3.8 know each other by the role dealt, whatever role a
        # player takes later (FAQ 21); the rooms read it (rooms.py).
        players.append(Player(name=name, role=role.name, faction=role.faction, aura=role.aura,
                              data={"mystic": role.mystic, "dealt": role.name}))
    missing = [f for f in FACTIONS if not any(p.faction == f for p in players)]
    if missing:
        raise SetupError("factions_missing", "a game of Lupus in tempo reale needs all three factions "
                         f"(Popolani, Lupi, Negromanti); missing: {', '.join(missing)}", missing=missing)
    return players


def draw_propositions(players: list[Player], diviner: Player, rng: random.Random) -> list[dict[str, Any]]:
    """Two true and two false "X has role Y", about four other players (FAQ 10: the
    Masters' way; false roles are drawn from the roles in play when possible)."""
    others = [p for p in players if p.name != diviner.name]
    if len(others) < 4:
        pool = others * 4
        chosen = [pool[i] for i in range(4)] if others else []
    else:
        chosen = rng.sample(others, 4)
    in_play = sorted({p.role for p in players})
    props = []
    for i, p in enumerate(chosen):
        if i < 2:
            props.append({"player": p.name, "role": p.role, "true": True})
        else:
            wrong = [r for r in in_play if r != p.role] or [r for r in ROLES if r != p.role]
            props.append({"player": p.name, "role": wrong[rng.randrange(len(wrong))], "true": False})
    rng.shuffle(props)
    return props


def accept_propositions(state: GameState, diviner: str, given: Any) -> list[dict[str, Any]]:
    """The Masters' edited propositions: exactly two true and two false."""
    props: list[dict[str, Any]] = []
    for item in given:
        if isinstance(item, dict):
            name, role = item.get("player"), item.get("role")
        else:
            name, role = item
        if not state.has_player(str(name)):
            raise SetupError("proposition_unknown_player",
                             f"Divinatore proposition about unknown player {name!r}", name=name)
        role = canonical(str(role))
        props.append({"player": str(name), "role": role,
                      "true": state.player(str(name)).role == role})
    if len(props) != 4 or sum(p["true"] for p in props) != 2:
        raise SetupError("divinatore_propositions",
                         f"the Divinatore {diviner} needs four propositions, exactly two true", name=diviner)
    return props


def setup_game(seating: list[tuple[str, str]], rng: random.Random,
               options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
    options = dict(options or {})
    players = deal(seating)
    state = GameState(ruleset=KEY, players=players, phase=Phase("night", 1),
                      data={"vice": None, "lost": [], "hypnosis": {}, "day_effects": {},
                            "divinatore": {}})
    mayor = options.get("mayor")
    if mayor is None:
        mayor = players[rng.randrange(len(players))].name
    elif not state.has_player(str(mayor)):
        raise SetupError("mayor_not_a_player", f"mayor {mayor!r} is not a player", name=mayor)
    state.mayor = str(mayor)
    events: list[Event] = [public("mayor", player=state.mayor, how="draw")]
    for p in players:
        events.append(private(p.name, "role_letter", role=p.role, faction=p.faction, aura=p.aura,
                              mystic=p.data["mystic"]))
    for group, roles in KNOWLEDGE_GROUPS:
        members = [p.name for p in players if p.role in roles]
        if len(members) > 1:
            for m in members:
                events.append(private(m, "knows", group=group,
                                      players={q.name: q.role for q in players
                                               if q.role in roles and q.name != m}))
    given = options.get("divinatore_propositions") or {}
    diviners = [p for p in players if p.role == "Divinatore"]
    if isinstance(given, list) and len(diviners) == 1:
        given = {diviners[0].name: given}
    for d in diviners:
        if d.name in given:
            props = accept_propositions(state, d.name, given[d.name])
        else:
            props = draw_propositions(players, d, rng)
        state.data["divinatore"][d.name] = props
        events.append(master("divinatore_propositions", player=d.name, propositions=props))
        events.append(private(d.name, "propositions",
                              propositions=[{"player": p["player"], "role": p["role"]} for p in props]))
    return state, events
