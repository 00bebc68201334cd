"""The room of a Complots game: its table (issue 30; ruling R17 in docs/rulings-complots.md).

Complots is a table game: every claim, challenge and block is announced aloud to the
whole table ("basta annunciare di possedere il personaggio"; "Se più giocatori dubitano,
solo chi è stato il più veloce a parlare"), so the talk is the table's, open to all.
An eliminated player's cards "restano visibili a tutti" and the player stays at the table:
the rulebook silences nobody, so the eliminated read and write too, unless the Masters
choose otherwise. Private talk is nothing the table has: whispers are off unless the
Masters open them.
"""
from __future__ import annotations

from ..core import GameState
from ..interface import Say
from ..rooms import (
    TABLE, Access, Rooms, RoomSetting, RoomSpec, dead_read_only, dead_to_living,
    everyone, masters_read_whispers, whispers, worded,
)

SPECS = (
    RoomSpec("table", Say("Tavolo", "Table"), Say(
        "Tutti i giocatori, eliminati compresi: al tavolo di Complots si parla apertamente, "
        "ogni annuncio, dubbio e blocco è detto a tutti (Complots, regolamento: Svolgimento "
        "del gioco, B, C).",
        "Every player, the eliminated too: at a Complots table the talk is open, every claim, "
        "challenge and block is said to all (Complots rules: play, B, C)."), TABLE),
)

_ELIMINATED_READ_ONLY = worded(
    dead_read_only(False),
    Say("Gli eliminati leggono soltanto", "The eliminated only read"),
    on=Say("Chi è fuori dal gioco legge il tavolo ma non vi scrive.",
           "Whoever is out of the game reads the table but does not post."),
    off=Say("Anche chi è fuori dal gioco scrive al tavolo.",
            "Whoever is out of the game posts at the table too."))

_ELIMINATED_TO_PLAYERS = worded(
    dead_to_living(True),
    Say("Gli eliminati possono scrivere in privato a chi gioca",
        "The eliminated may write privately to those still playing"),
    on=Say("Chi è fuori dal gioco può scrivere in privato a chi gioca ancora.",
           "Whoever is out of the game may write privately to those still playing."),
    off=Say("Chi è fuori dal gioco non scrive in privato a chi gioca ancora.",
            "Whoever is out of the game does not write privately to those still playing."))


class TableRooms(Rooms):
    def specs(self) -> tuple[RoomSpec, ...]:
        return SPECS

    def settings(self) -> tuple[RoomSetting, ...]:
        return (_ELIMINATED_READ_ONLY, whispers(False), _ELIMINATED_TO_PLAYERS,
                masters_read_whispers(True))

    def is_night(self, state: GameState) -> bool:
        return False  # no nights at the table

    def rules_members(self, state: GameState, room: str) -> dict[str, Access]:
        return everyone(state) if room == "table" else {}


ROOMS = TableRooms()
