"""The characters of Lupus LIVE! 12th edition (lupus-live-12-personaggi.md), as data."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..core import UnknownRole
from ..lupus_common.cards import ALIVE, ANY, DEAD

VILLAGGIO = "Villaggio"
LUPI = "Lupi"
BIANCA = "bianca"
NERA = "nera"

# What a night power aims at.


@dataclass(frozen=True)
class Role:
    name: str
    faction: str
    aura: str
    corruption: Fraction  # probability of corruption at death (Villaggio only)
    magic: bool = False
    # What the night power aims at: ALIVE, DEAD, ANY, or None (no targeted night power).
    target: str | None = None
    self_target: bool = False  # §1.9 "never on oneself" unless the role says so
    guaranteed: bool = False  # "Sicuramente presente all'inizio della partita"
    # "Se ... usa questo potere con successo, non può utilizzarlo la notte successiva"
    cooldown: bool = False
    # The §1.9 step at which the power acts (8 = "tutti i personaggi ... non citati").
    step: int = 8
    # The power gives a yes/no answer (Fattucchiera and Confusione invert it).
    asks: str | None = None


def _p(text: str) -> Fraction:
    return Fraction(text)


ROLES: dict[str, Role] = {r.name: r for r in [
    Role("Contadino", VILLAGGIO, BIANCA, _p("0.3"), guaranteed=True),
    Role("Cacciatore", VILLAGGIO, BIANCA, _p("0.3"), target=ALIVE, step=3),
    Role("Erede", VILLAGGIO, BIANCA, _p("0.3")),
    Role("Espansivo", VILLAGGIO, BIANCA, _p("0.3"), target=ALIVE, cooldown=True),
    Role("Guardia del corpo", VILLAGGIO, BIANCA, _p("0"), target=ALIVE, step=3),
    Role("Mago", VILLAGGIO, BIANCA, _p("0.1"), magic=True, target=ALIVE, asks="magic"),
    Role("Mannella", VILLAGGIO, NERA, _p("0.4")),
    Role("Medium", VILLAGGIO, BIANCA, _p("0.05"), magic=True, target=DEAD, asks="aura_nera"),
    Role("Messia", VILLAGGIO, BIANCA, _p("0.3"), target=DEAD, step=3),
    Role("Missile", VILLAGGIO, BIANCA, _p("0.4"), target=ALIVE),
    Role("Profeta", VILLAGGIO, BIANCA, _p("0.1"), magic=True, step=6),
    Role("Veggente", VILLAGGIO, BIANCA, _p("0.05"), magic=True, target=ALIVE, asks="aura_nera"),
    Role("Lupo Mannaro", LUPI, NERA, _p("0"), target=ALIVE, guaranteed=True, step=4),
    Role("Avvocato", LUPI, NERA, _p("0"), target=ALIVE, cooldown=True),
    Role("Fattucchiera", LUPI, NERA, _p("0"), magic=True, target=ANY, self_target=True, step=7),
    Role("Rasputin", LUPI, NERA, _p("0"), magic=True, target=DEAD, cooldown=True,
         asks="corrupt"),
    Role("Sabbino", LUPI, BIANCA, _p("0")),
    Role("Satanista", LUPI, NERA, _p("0"), magic=True, step=9),
    Role("Sequestratore", LUPI, NERA, _p("0"), target=ALIVE, step=2),
    Role("Usurpatore", LUPI, BIANCA, _p("0"), target=ANY),
]}

# §1.3 Erede: "un ruolo del Villaggio ad eccezione della Guardia del corpo e dell'Erede".
EREDE_CHOICES = [r.name for r in ROLES.values()
                 if r.faction == VILLAGGIO and r.name not in ("Guardia del corpo", "Erede")]
# §2.8 Usurpatore: "un altro ruolo della fazione dei Lupi".
USURPATORE_CHOICES = [r.name for r in ROLES.values()
                      if r.faction == LUPI and r.name != "Usurpatore"]

MISSILE_NIGHTS = (2, 3, 4)

_ALIASES = {
    "lupo": "Lupo Mannaro",
    "lupi mannari": "Lupo Mannaro",
    "lupo mannaro": "Lupo Mannaro",
    "guardia": "Guardia del corpo",
    "guardia del corpo": "Guardia del corpo",
    "bodyguard": "Guardia del corpo",
    "mayor": "Sindaco",
}


def canonical(name: str) -> str:
    wanted = " ".join(str(name).split()).casefold()
    for key in ROLES:
        if key.casefold() == wanted:
            return key
    if wanted in _ALIASES and _ALIASES[wanted] in ROLES:
        return _ALIASES[wanted]
    raise UnknownRole(f"unknown Lupus LIVE! role {name!r}", role=str(name))
