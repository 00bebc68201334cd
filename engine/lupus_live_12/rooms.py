"""The rooms of a Lupus LIVE! 12 game (issue 30; ruling 26 in docs/rulings.md).

- The piazza: every player, the ghosts too. Principale §3.4: "La discussione plenaria via
  chat avverrà in un apposito gruppo Telegram creato e gestito dalle Master"; §1.11: the
  dead "continua a giocare da fantasma, parlando con altri giocatori". The night shout
  (§3.4, "le giocatrici possono comunicare anonimamente tramite l'urlo notturno") is an
  anonymous post here once the night is published.
- The Lupi's den: Personaggi §2, "Tutti i giocatori della fazione dei Lupi si conoscono
  tra di loro": the faction as dealt, alive or dead, never the corrupted (Principale
  §1.11.1: "Ai corrotti non viene rivelata l'identità dei personaggi della fazione dei
  Lupi, né a questi viene rivelata l'identità dei corrotti").
- The ghosts' room: every dead player (§1.10: the ghosts agree on their rituals, each
  naming the others); one who comes back to life leaves it.

The Villaggio has no group: Personaggi §1, "i giocatori della fazione del villaggio non si
conoscono tra di loro".
"""
from __future__ import annotations

from typing import Iterable

from ..core import Event, GameState
from ..interface import Say
from ..rooms import (
    GHOSTS, PIAZZA, Access, Rooms, RoomPost, RoomSetting, RoomSpec, dead_read_only, dead_to_living,
    everyone, masters_read_whispers, night_silence, shouts, whispers,
)
from .roles import LUPI

BOOK = "Lupus LIVE!, 12ª edizione"
BOOK_EN = "Lupus LIVE!, 12th edition"

SPECS = (
    RoomSpec("piazza", Say("Piazza", "Square"), Say(
        f"Tutti i giocatori, vivi e fantasmi: la discussione plenaria ({BOOK}, Principale §3.4, "
        "§1.11). Qui arrivano anche gli urli notturni, anonimi.",
        f"Every player, living and ghosts: the plenary discussion ({BOOK_EN}, main document "
        "§3.4, §1.11). The night shouts come here too, anonymous."), PIAZZA),
    RoomSpec("lupi", Say("Tana dei Lupi", "The Wolves' den"), Say(
        f"La fazione dei Lupi com'è stata distribuita, vivi e fantasmi: si conoscono tra di loro "
        f"({BOOK}, Personaggi e poteri §2). I corrotti non ne fanno parte (Principale §1.11.1).",
        f"The Wolves' faction as dealt, living and ghosts: they know each other ({BOOK_EN}, "
        "characters §2). The corrupted are not in it (main document §1.11.1).")),
    RoomSpec("ghosts", Say("Fantasmi", "Ghosts"), Say(
        f"I fantasmi, cioè i giocatori morti, che si accordano sui rituali ({BOOK}, Principale "
        "§1.10, §1.11). Chi torna in vita ne esce.",
        f"The ghosts, the dead players, who agree on their rituals ({BOOK_EN}, main document "
        "§1.10, §1.11). Whoever comes back to life leaves it."), GHOSTS),
)

SHOUT = Say("Urlo nella notte", "A shout in the night")


class LiveRooms(Rooms):
    def specs(self) -> tuple[RoomSpec, ...]:
        return SPECS

    def settings(self) -> tuple[RoomSetting, ...]:
        # §3.4: "qualunque mezzo di comunicazione": the rules restrict nothing, so every
        # restriction is the Masters' and off by default; they read everything (§3.2).
        return (night_silence(False), dead_read_only(False), whispers(True),
                dead_to_living(True), masters_read_whispers(True))

    def rules_members(self, state: GameState, room: str) -> dict[str, Access]:
        if room == "piazza":
            return everyone(state)
        if room == "lupi":
            return {p.name: Access.WRITE for p in state.players
                    if p.faction == LUPI and not p.data.get("corrupt")}
        if room == "ghosts":
            return {p.name: Access.WRITE for p in state.players if not p.alive}
        return {}

    def posts_from(self, events: Iterable[Event]) -> list[RoomPost]:
        return shouts(events, "piazza", SHOUT)


ROOMS = LiveRooms()
