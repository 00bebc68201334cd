"""The demo game seeded on an empty database by `pbm run`."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import operations
from .models import Game

MASTER = ("Master", "master@lupus.localhost", "master")
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia"]
PLAYER_PASSWORD = "lupus"
COMPOSITION = {"Lupo Mannaro": 2, "Veggente": 1, "Guardia del corpo": 1, "Contadino": 3}


def player_email(name: str) -> str:
    return f"{name.lower()}@example.com"


def seed(session: Session, config: dict[str, Any], now: datetime) -> Game | None:
    if session.scalar(select(func.count()).select_from(Game)):
        return None
    name, email, password = MASTER
    master, _ = operations.ensure_user(session, email=email, name=name)
    master.set_password(password)
    master.is_admin = True
    game = operations.create_game(session, name="Demo", ruleset="lupus-live-12", master=master,
                                  now=now, slug="demo")
    for player in PLAYERS:
        operations.add_player(session, config, game, name=player, email=player_email(player),
                              now=now, by=master, password=PLAYER_PASSWORD)
    operations.start_game(session, config, game, composition=COMPOSITION, now=now, by=master)
    return game
