"""The Abitanti del villaggio of Lupus Noctis as data (rulings N7-N10 decide what the
rulebook only names), and the standard composition for each number of players."""
from __future__ import annotations

from dataclasses import dataclass

from ..core import UnknownRole

KEY = "lupus-noctis"

VILLAGGIO = "Villaggio"
LICANTROPI = "Licantropi"
FACTIONS = (VILLAGGIO, LICANTROPI)
BUONA = "buona"
MALVAGIA = "malvagia"

# What a night power aims at.
ALIVE = "alive"
DEAD = "dead"

LICANTROPO = "Licantropo"
CONTADINO = "Contadino"
VEGGENTE = "Veggente"
MEDIUM = "Medium"
AMANTE = "Amante Segreto"
PROCIONE = "Procione Mannaro"
APPRENDISTA = "Apprendista Necromante"


@dataclass(frozen=True)
class Role:
    name: str
    plural: str
    faction: str
    aura: str
    target: str | None = None  # the night power's target (None: no night power)
    once: bool = False  # once per game
    kills: bool = False
    # Wins only if alive when the game ends, and then alone (a specific condition, N8).
    alone_if_alive: bool = False


ROLES: dict[str, Role] = {r.name: r for r in [
    Role(LICANTROPO, "Licantropi", LICANTROPI, MALVAGIA, target=ALIVE, kills=True),
    Role(CONTADINO, "Contadini", VILLAGGIO, BUONA),
    Role(VEGGENTE, "Veggenti", VILLAGGIO, BUONA, target=ALIVE),
    Role(MEDIUM, "Medium", VILLAGGIO, BUONA, target=DEAD),
    Role(AMANTE, "Amanti Segreti", VILLAGGIO, BUONA),
    Role(PROCIONE, "Procioni Mannari", VILLAGGIO, MALVAGIA, alone_if_alive=True),
    Role(APPRENDISTA, "Apprendisti Necromanti", LICANTROPI, MALVAGIA, target=DEAD, once=True),
]}

# The order in which the narrator calls the roles at night (N11). The Licantropi come
# first so that every later call happens, as at the table, after the kill is chosen.
CALL_ORDER = (LICANTROPO, APPRENDISTA, VEGGENTE, MEDIUM, AMANTE, PROCIONE)
# Roles the narrator calls after the first night: those who interact with him.
NIGHT_POWERS = tuple(r for r in CALL_ORDER if ROLES[r].target is not None)


def _fold(text: str) -> str:
    return " ".join(str(text).replace("’", "'").split()).casefold()


_ALIASES = {"lupo": LICANTROPO, "lupo mannaro": LICANTROPO, "lupi": LICANTROPO,
            "amante": AMANTE, "amanti": AMANTE, "procione": PROCIONE,
            "apprendista": APPRENDISTA, "necromante": APPRENDISTA}


def canonical(name: str) -> str:
    wanted = _fold(name)
    for role in ROLES.values():
        if wanted in (_fold(role.name), _fold(role.plural)):
            return role.name
    if wanted in _ALIASES:
        return _ALIASES[wanted]
    raise UnknownRole(f"unknown Lupus Noctis role {name!r}", role=str(name))


MIN_PLAYERS = 5


def default_composition(players: int) -> dict[str, int] | None:
    """The standard village for this many players (N12), which the narrator accepts or
    edits: one Licantropo in four, a Veggente always, then a Medium (8+), the
    Apprendista Necromante (9+), a pair of Amanti Segreti (10+), the Procione Mannaro
    (12+); Contadini for the rest."""
    if players < MIN_PLAYERS:
        return None
    out = {LICANTROPO: max(1, players // 4), VEGGENTE: 1}
    if players >= 8:
        out[MEDIUM] = 1
    if players >= 9:
        out[APPRENDISTA] = 1
    if players >= 10:
        out[AMANTE] = 2
    if players >= 12:
        out[PROCIONE] = 1
    out[CONTADINO] = players - sum(out.values())
    return out
