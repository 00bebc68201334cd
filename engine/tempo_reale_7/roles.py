"""The characters and supernatural powers of Lupus in tempo reale, 7th edition (§3.7), as data."""
from __future__ import annotations

from dataclasses import dataclass

from ..core import UnknownRole
from ..lupus_common.cards import ALIVE, ANY, DEAD

POPOLANI = "Popolani"
LUPI = "Lupi"
NEGROMANTI = "Negromanti"
FACTIONS = (POPOLANI, LUPI, NEGROMANTI)
BIANCA = "bianca"
NERA = "nera"

# How often a power may be used (§3.4, §3.9).
EVERY_NIGHT = "every_night"
EVERY_OTHER = "every_other_night"
ONCE = "once"

# What a power aims at.

SPETTRO = "Spettro"


@dataclass(frozen=True)
class Role:
    name: str
    faction: str
    aura: str
    mystic: bool = False
    target: str | None = None  # None: no night power
    frequency: str = EVERY_NIGHT
    kills: bool = False  # "I poteri che uccidono ... non ... la prima notte"
    plural: str = ""


ROLES: dict[str, Role] = {r.name: r for r in [
    # Fazione dei Popolani
    Role("Contadino", POPOLANI, BIANCA, plural="Contadini"),
    Role("Custode del cimitero", POPOLANI, BIANCA, target=DEAD, frequency=EVERY_OTHER,
         plural="Custodi del cimitero"),
    Role("Divinatore", POPOLANI, BIANCA, mystic=True, plural="Divinatori"),
    Role("Esorcista", POPOLANI, BIANCA, mystic=True, target=ANY, frequency=EVERY_OTHER,
         plural="Esorcisti"),
    Role("Espansivo", POPOLANI, BIANCA, target=ALIVE, frequency=EVERY_OTHER, plural="Espansivi"),
    Role("Guardia del corpo", POPOLANI, BIANCA, target=ALIVE, plural="Guardie del corpo"),
    Role("Investigatore", POPOLANI, BIANCA, target=DEAD, plural="Investigatori"),
    Role("Mago", POPOLANI, BIANCA, mystic=True, target=ANY, plural="Maghi"),
    Role("Massone", POPOLANI, BIANCA, plural="Massoni"),
    Role("Messia", POPOLANI, BIANCA, mystic=True, target=DEAD, frequency=ONCE, plural="Messia"),
    Role("Sciamano", POPOLANI, NERA, mystic=True, target=DEAD, frequency=EVERY_OTHER,
         plural="Sciamani"),
    Role("Stalker", POPOLANI, BIANCA, target=ALIVE, frequency=EVERY_OTHER, plural="Stalker"),
    Role("Trasformista", POPOLANI, NERA, target=DEAD, frequency=ONCE, plural="Trasformisti"),
    Role("Veggente", POPOLANI, BIANCA, mystic=True, target=ALIVE, plural="Veggenti"),
    Role("Voyeur", POPOLANI, BIANCA, target=ALIVE, frequency=EVERY_OTHER, plural="Voyeur"),
    # Fazione dei Lupi
    Role("Lupo", LUPI, NERA, target=ALIVE, kills=True, plural="Lupi"),
    Role("Assassino", LUPI, NERA, target=ALIVE, frequency=EVERY_OTHER, kills=True,
         plural="Assassini"),
    Role("Avvocato", LUPI, NERA, target=ALIVE, frequency=EVERY_OTHER, plural="Avvocati"),
    Role("Diavolo", LUPI, NERA, mystic=True, target=ALIVE, plural="Diavoli"),
    Role("Fattucchiera", LUPI, BIANCA, mystic=True, target=ANY, plural="Fattucchiere"),
    Role("Necrofilo", LUPI, NERA, target=DEAD, frequency=ONCE, plural="Necrofili"),
    Role("Rinnegato", LUPI, BIANCA, plural="Rinnegati"),
    Role("Sequestratore", LUPI, NERA, target=ALIVE, plural="Sequestratori"),
    Role("Stregone", LUPI, NERA, mystic=True, target=ALIVE, plural="Stregoni"),
    # Fazione dei Negromanti
    Role("Negromante", NEGROMANTI, BIANCA, mystic=True, target=DEAD, plural="Negromanti"),
    Role("Fantasma", NEGROMANTI, NERA, plural="Fantasmi"),
    Role("Ipnotista", NEGROMANTI, BIANCA, target=ALIVE, frequency=EVERY_OTHER, plural="Ipnotisti"),
    Role("Medium", NEGROMANTI, BIANCA, mystic=True, target=DEAD, plural="Medium"),
    Role("Scrutatore", NEGROMANTI, BIANCA, target=ALIVE, frequency=EVERY_OTHER,
         plural="Scrutatori"),
]}

# Spettri are never dealt at the start (§3.7 "Spettri"); a player becomes one.
SPETTRO_ROLE = Role(SPETTRO, NEGROMANTI, BIANCA, plural="Spettri")


@dataclass(frozen=True)
class Power:
    """A supernatural power (§3.7 "Poteri soprannaturali degli Spettri")."""

    name: str
    target: str
    frequency: str = EVERY_NIGHT
    target2: str | None = None  # what the second player field aims at, if any
    needs_mystic: bool = False  # can only be given to a mystic (Corruzione, Morte)
    kills: bool = False


POWERS: dict[str, Power] = {p.name: p for p in [
    Power("Amnesia", ALIVE),
    Power("Confusione", ANY, target2=ANY),
    Power("Corruzione", ALIVE, frequency=ONCE, needs_mystic=True),
    Power("Ipnosi", ALIVE, frequency=EVERY_OTHER, target2=ALIVE),
    Power("Illusione", ANY, frequency=EVERY_OTHER, target2=ALIVE),
    Power("Morte", ALIVE, frequency=EVERY_OTHER, needs_mystic=True, kills=True),
    Power("Occultamento", ANY),
    Power("Visione", ALIVE),
]}

# §3.8: each group knows its own members from the start.
KNOWLEDGE_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("massoni", frozenset({"Massone"})),
    ("lupi", frozenset({"Lupo"})),
    ("complici", frozenset({"Assassino", "Avvocato", "Necrofilo", "Rinnegato", "Sequestratore"})),
    ("maghi_neri", frozenset({"Diavolo", "Fattucchiera", "Stregone"})),
    ("negromanti", frozenset({"Negromante"})),
    ("setta", frozenset({"Ipnotista", "Medium", "Scrutatore"})),
)

# Blocking roles and powers, whose interplay may be contradictory (§3.9, FAQ 2).
BLOCKERS = frozenset({"Sequestratore", "Stregone", "Esorcista", "Sciamano", "Occultamento"})


def _fold(text: str) -> str:
    return " ".join(str(text).replace("’", "'").split()).casefold()


_ALIASES = {
    "lupo mannaro": "Lupo", "lupi mannari": "Lupo", "guardia": "Guardia del corpo",
    "custode": "Custode del cimitero", "spettri": SPETTRO,
}


def canonical(name: str) -> str:
    wanted = _fold(name)
    for role in list(ROLES.values()) + [SPETTRO_ROLE]:
        if wanted in (_fold(role.name), _fold(role.plural)):
            return role.name
    if wanted in _ALIASES:
        return _ALIASES[wanted]
    raise UnknownRole(f"unknown Lupus in tempo reale role {name!r}", role=str(name))


def canonical_power(name: str) -> str:
    wanted = _fold(name)
    # Accept "Spettro della Morte", "Spettro dell'Amnesia", "Spettro con il potere della Morte".
    for prefix in ("spettro con il potere soprannaturale ", "spettro con il potere ", "spettro ",
                   "potere soprannaturale ", "potere "):
        if wanted.startswith(prefix):
            wanted = wanted[len(prefix):]
            break
    for article in ("dell'", "della ", "del ", "dello ", "di "):
        if wanted.startswith(article):
            wanted = wanted[len(article):]
            break
    for power in POWERS:
        if _fold(power) == wanted:
            return power
    raise KeyError(f"unknown supernatural power {name!r}")

