"""The characters of Lupus LIVE! 12th edition (lupus-live-12-personaggi.md), as data."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

VILLAGGIO = "Villaggio"
LUPI = "Lupi"
BIANCA = "bianca"
NERA = "nera"


@dataclass(frozen=True)
class Role:
    name: str
    faction: str
    aura: str
    corruption: Fraction  # probability of corruption at death (Villaggio only)
    magic: bool = False
    # What the night power aims at: "alive", "dead", "any", or None (no night power).
    target: str | None = None
    self_target: bool = False  # the rule "never on oneself" (§1.9) unless the role says so
    guaranteed: bool = False  # "Sicuramente presente all'inizio della partita"


def _p(text: str) -> Fraction:
    return Fraction(text)


ROLES: dict[str, Role] = {r.name: r for r in [
    Role("Contadino", VILLAGGIO, BIANCA, _p("0.3"), guaranteed=True),
    Role("Cacciatore", VILLAGGIO, BIANCA, _p("0.3"), target="alive"),
    Role("Erede", VILLAGGIO, BIANCA, _p("0.3")),
    Role("Espansivo", VILLAGGIO, BIANCA, _p("0.3"), target="alive"),
    Role("Guardia del corpo", VILLAGGIO, BIANCA, _p("0"), target="alive"),
    Role("Mago", VILLAGGIO, BIANCA, _p("0.1"), magic=True, target="alive"),
    Role("Mannella", VILLAGGIO, NERA, _p("0.4")),
    Role("Medium", VILLAGGIO, BIANCA, _p("0.05"), magic=True, target="dead"),
    Role("Messia", VILLAGGIO, BIANCA, _p("0.3"), target="dead"),
    Role("Missile", VILLAGGIO, BIANCA, _p("0.4"), target="alive"),
    Role("Profeta", VILLAGGIO, BIANCA, _p("0.1"), magic=True),
    Role("Veggente", VILLAGGIO, BIANCA, _p("0.05"), magic=True, target="alive"),
    Role("Lupo Mannaro", LUPI, NERA, _p("0"), target="alive", guaranteed=True),
    Role("Avvocato", LUPI, NERA, _p("0"), target="alive"),
    Role("Fattucchiera", LUPI, NERA, _p("0"), magic=True, target="any", self_target=True),
    Role("Rasputin", LUPI, NERA, _p("0"), magic=True, target="dead"),
    Role("Sabbino", LUPI, BIANCA, _p("0")),
    Role("Satanista", LUPI, NERA, _p("0"), magic=True),
    Role("Sequestratore", LUPI, NERA, _p("0"), target="alive"),
    Role("Usurpatore", LUPI, BIANCA, _p("0"), target="any"),
]}

# The roles whose night power the first slice of the engine resolves; the rest
# are accepted in a composition but act as Contadino until implemented.
IMPLEMENTED_POWERS = {"Lupo Mannaro", "Guardia del corpo", "Veggente"}


def canonical(name: str) -> str:
    wanted = " ".join(name.split()).casefold()
    for key in ROLES:
        if key.casefold() == wanted:
            return key
    aliases = {"lupo": "Lupo Mannaro", "guardia": "Guardia del corpo"}
    if wanted in aliases:
        return aliases[wanted]
    raise KeyError(f"unknown Lupus LIVE! role {name!r}")
