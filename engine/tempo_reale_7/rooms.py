"""The rooms of a Lupus in tempo reale game (issue 30; rulings in
docs/rulings-tempo-reale-7.md, R21).

- The piazza: every player. §2.3: "I giocatori possono comunicare tra di loro con
  qualsiasi mezzo. Possono dirsi qualsiasi cosa", and "Anche i morti possono parlare con
  gli altri membri del villaggio, e continuano a giocare". The exiled (§3.1: "smettono di
  giocare a tutti gli effetti") only read.
- One room for each group of §3.8 ("Alcuni personaggi si conoscono sin dall'inizio della
  partita") that the deal put at least two players in: by the role dealt, not a role
  taken later (FAQ 21: "Trasformista e Necrofilo non ottengono le informazioni iniziali
  del personaggio di cui assumono il ruolo"); the dead stay (§3.5: they "possono comunque
  continuare a giocare e aiutare la propria fazione"), the exiled only read.

Who learns of others later is told only of some (a Fantasma woken as a Spettro learns the
Negromanti and they learn it, §3.7, but two such Fantasmi never learn each other; a Spettro
learns only the Negromanti who woke it; a corrupted Negromante only its Spettro): a room
would tell them more than that, so they talk by whisper. No ghosts' room: the Spettri each
use their own power, they do nothing together.
"""
from __future__ import annotations

from ..core import GameState, Player
from ..interface import Say
from ..rooms import (
    PIAZZA, Access, Rooms, RoomSetting, RoomSpec, dead_read_only, dead_to_living,
    masters_read_whispers, night_silence, whispers,
)
from .roles import KNOWLEDGE_GROUPS

BOOK = "Lupus in tempo reale, 7ª edizione"
BOOK_EN = "Lupus in tempo reale, 7th edition"

# What the players call each group of §3.8 (the engine's key: its name, whom it holds).
_GROUPS: dict[str, tuple[Say, Say]] = {
    "massoni": (Say("Loggia dei Massoni", "The Masons' lodge"),
                Say("i Massoni", "the Massoni")),
    "lupi": (Say("Tana dei Lupi", "The Wolves' den"), Say("i Lupi", "the Lupi")),
    "complici": (Say("Complici dei Lupi", "The Wolves' accomplices"),
                 Say("Assassini, Avvocati, Necrofili, Rinnegati e Sequestratori",
                     "the Assassini, Avvocati, Necrofili, Rinnegati and Sequestratori")),
    "maghi_neri": (Say("Maghi neri", "Dark magicians"),
                   Say("Diavoli, Fattucchiere e Stregoni", "the Diavoli, Fattucchiere and Stregoni")),
    "negromanti": (Say("Congrega dei Negromanti", "The Necromancers' coven"),
                   Say("i Negromanti", "the Negromanti")),
    "setta": (Say("Setta", "The sect"),
              Say("Ipnotisti, Medium e Scrutatori", "the Ipnotisti, Medium and Scrutatori")),
}
GROUP_ROLES = dict(KNOWLEDGE_GROUPS)


def _group_spec(key: str) -> RoomSpec:
    name, who = _GROUPS[key]
    return RoomSpec(key, name, Say(
        f"Si conoscono dall'inizio della partita: {who.it}, come sono stati distribuiti, vivi e "
        f"morti ({BOOK}, §3.8, §3.5). Chi prende un ruolo dopo non entra (§4, 21).",
        f"They know each other from the start: {who.en}, as dealt, living and dead ({BOOK_EN}, "
        "§3.8, §3.5). Nobody who takes a role later joins (§4, 21)."))


SPECS = (
    RoomSpec("piazza", Say("Piazza", "Square"), Say(
        f"Tutti i giocatori, vivi e morti: si può parlare con qualsiasi mezzo e dirsi qualsiasi "
        f"cosa ({BOOK}, §2.3). Gli esiliati leggono soltanto (§3.1).",
        f"Every player, living and dead: players may talk by any means and say anything "
        f"({BOOK_EN}, §2.3). The exiled only read (§3.1)."), PIAZZA),
    *(_group_spec(key) for key, _roles in KNOWLEDGE_GROUPS),
)


def dealt(p: Player) -> str | None:
    """The role ``p`` was dealt (setup keeps it); None in a game set up before it did,
    whose groups are then unknown and get no room rather than a wrong one."""
    return p.data.get("dealt")


class TempoRealeRooms(Rooms):
    def specs(self) -> tuple[RoomSpec, ...]:
        return SPECS

    def settings(self) -> tuple[RoomSetting, ...]:
        # §2.3 restricts nothing: every restriction is the Masters', off by default.
        return (night_silence(False), dead_read_only(False), whispers(True),
                dead_to_living(True), masters_read_whispers(True))

    def is_dead(self, state: GameState, player: str) -> bool:
        p = state.player(player)
        return not p.alive and not p.data.get("exiled")

    def is_out(self, state: GameState, player: str) -> bool:
        return bool(state.player(player).data.get("exiled"))

    def rules_members(self, state: GameState, room: str) -> dict[str, Access]:
        if room == "piazza":
            return {p.name: self._level(state, p) for p in state.players}
        roles = GROUP_ROLES.get(room)
        if roles is None:
            return {}
        return {p.name: self._level(state, p) for p in state.players if dealt(p) in roles}

    @staticmethod
    def _level(state: GameState, p: Player) -> Access:
        """§3.1: the exiled stop playing; they read what they were in, and write again
        only once the game is over."""
        return Access.READ if p.data.get("exiled") and not state.over else Access.WRITE


ROOMS = TempoRealeRooms()
