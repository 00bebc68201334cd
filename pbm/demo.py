"""The demo game seeded on an empty database by `pbm run`: its first night and day
are played at once, so the archive has published phases and a vote picture to show,
and its players have begun to talk in the piazza (every post reaches them by mail as
it comes, as each may change on the room's page)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine import registry

from . import operations
from .models import Game
from .operations import rooms

MASTER = ("Master", "master@lupus.localhost", "master")
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia"]
PLAYER_PASSWORD = "lupus"
# The first day's votes (whatever the roles drawn): Elena 4, Giulia 2, Anna 1.
FIRST_DAY_VOTES = {"Anna": "Elena", "Bruno": "Elena", "Carla": "Elena", "Dario": "Elena",
                   "Elena": "Giulia", "Fabio": "Giulia", "Giulia": "Anna"}


def player_email(name: str) -> str:
    return f"{name.lower()}@example.com"


def seed(session: Session, config: dict[str, Any], now: datetime) -> Game | None:
    if session.scalar(select(func.count()).select_from(Game)):
        return None
    name, email, password = MASTER
    master, _ = operations.ensure_user(session, email=email, name=name)
    master.set_password(password)
    master.is_admin = True
    game = operations.create_game(session, name="Demo", ruleset=registry.DEMO, master=master,
                                  now=now, slug="demo")
    for player in PLAYERS:
        operations.add_player(session, config, game, name=player, email=player_email(player),
                              now=now, by=master, password=PLAYER_PASSWORD)
    operations.start_game(session, config, game, composition=registry.DEMO_COMPOSITION, now=now, by=master)
    _play_now(session, config, game, {}, now)  # the first night: nobody acts
    _play_now(session, config, game, {name: {"vote": target} for name, target in FIRST_DAY_VOTES.items()}, now)
    _talk(session, config, game, now)
    return game


# What the demo's players said in the piazza after the first day (whoever is alive).
FIRST_TALK = [
    ("Bruno", "Buongiorno a tutti. Elena non mi convinceva, ma adesso chi resta?"),
    ("Giulia", "Io ho votato Anna, lo so, ma Elena taceva da due giorni. Stanotte state attenti."),
    ("Carla", "Parliamone qui prima di votare, per favore: chi ha sentito qualcosa stanotte?"),
]


def _talk(session: Session, config: dict[str, Any], game: Game, now: datetime) -> None:
    for name, text in FIRST_TALK:
        seat = game.seat_by_name(name)
        place = rooms.place_of(session, game, "piazza", seat)
        if seat is None or place is None or place.refusal is not None:
            continue
        rooms.post(session, config, game, "piazza", text, user=seat.user, seat=seat, now=now)


def _play_now(session: Session, config: dict[str, Any], game: Game,
              submissions: dict[str, dict[str, Any]], now: datetime) -> None:
    """Submit, then close the open phase now and resolve it as a boundary would
    (published at once: the demo publishes automatically)."""
    for name, submission in submissions.items():
        operations.submit(session, config, game, game.seat_by_name(name), submission,
                          source="web", now=now)
    operations.close_and_resolve(session, config, game, now)
