"""The leak scanner (tests/security/leak_scanner.py) on a whole bot-played game of each
ruleset: every page, feed, picture and mail, read by every kind of viewer."""
from __future__ import annotations

from .leak_scanner import Scenario, scan

LIVE_PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia"]
LIVE_ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Contadino",
              "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino"}


def swapped(roles: dict[str, str], x: str, y: str) -> dict[str, str]:
    return {**roles, x: roles[y], y: roles[x]}


LIVE_WHO_IS_THE_WOLF = Scenario(
    name="lupus-live-12: which of two players is the second wolf",
    ruleset="lupus-live-12", players=LIVE_PLAYERS,
    setup=lambda side: {"roles": LIVE_ROLES if side == "A" else swapped(LIVE_ROLES, "Bruno", "Dario"),
                        "mayor": "Fabio"},
    # Personaggi §2: the pack knows each other; nobody else knows who is a wolf.
    knowers={"Anna", "Bruno", "Dario"}, spared={"Bruno", "Dario"}, max_steps=6, viewers_per_step=2,
)


def test_live_12_nobody_learns_who_the_wolves_are(tmp_path):
    found = scan(LIVE_WHO_IS_THE_WOLF, tmp_path)
    print(found.pages_read, found.mails_read, found.steps)
    assert found.ended and found.master_saw_difference and found.knower_saw_difference
