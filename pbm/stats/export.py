"""A season's finished games as JSON and CSV (issue 34), with the players' names or
anonymised: then each account is "Player 1", "Player 2"... in the order it first
appears, and a seat's own name (which is often the player's) never appears. Only
finished games: a running game has no record to export."""
from __future__ import annotations

import csv
import io
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Game, User
from ..season_models import GameRecord, SeasonRow, SeatRecord

COLUMNS = ("game", "ruleset", "ended_at", "moments", "winner", "player", "substitute", "role", "faction",
           "won", "died", "nights_survived", "votes_cast", "votes_on_chosen", "due", "done",
           "web", "mail", "master", "challenges", "challenges_won", "bluffs_caught", "coups")


def season_games(session: Session, season: SeasonRow, *, names: bool, anonymous_word: str = "Player") -> dict[str, Any]:
    games = session.execute(select(GameRecord, Game.name).join(Game, Game.id == GameRecord.game_id)
                            .where(GameRecord.season_id == season.id)
                            .order_by(GameRecord.ended_at, GameRecord.game_id)).all()
    seats = session.execute(select(SeatRecord, User.name).join(User, User.id == SeatRecord.user_id)
                            .where(SeatRecord.season_id == season.id).order_by(SeatRecord.game_id, SeatRecord.id)).all()
    aliases: dict[int, str] = {}
    seat_names: dict[int, dict[str, str]] = {}

    def who(user_id: int, name: str) -> str:
        if names:
            return name
        return aliases.setdefault(user_id, f"{anonymous_word} {len(aliases) + 1}")

    by_game: dict[int, list[dict[str, Any]]] = {}
    for record, user_name in seats:
        out, counts = record.figures.get("outcome") or {}, record.figures.get("counts") or {}
        ways = counts.get("by_way") or {}
        player = who(record.user_id, user_name)
        seat_names.setdefault(record.game_id, {})[record.name] = player
        by_game.setdefault(record.game_id, []).append({
            "player": player, "substitute": record.substitute,
            "role": out.get("role", ""), "faction": out.get("faction", ""), "won": bool(out.get("won")),
            "died": out.get("died", ""), "nights_survived": counts.get("nights_survived", 0),
            "votes_cast": counts.get("votes_cast", 0), "votes_on_chosen": counts.get("votes_on_chosen", 0),
            "due": counts.get("due", 0), "done": counts.get("done", 0),
            "web": ways.get("web", 0), "mail": ways.get("mail", 0), "master": ways.get("master", 0),
            "challenges": counts.get("challenges", 0), "challenges_won": counts.get("challenges_won", 0),
            "bluffs_caught": counts.get("bluffs_caught", 0), "coups": counts.get("coups", 0)})
    return {
        "group": season.group.name, "season": season.name, "names": names,
        "games": [{"game": name, "ruleset": rec.ruleset, "ended_at": rec.ended_at.isoformat(),
                   "moments": rec.moments,
                   # A winner who is a player (Complots) is named as the players are.
                   "winner": seat_names.get(rec.game_id, {}).get(rec.winner, rec.winner)
                   if not names else rec.winner,
                   "seats": by_game.get(rec.game_id, [])} for rec, name in games],
    }


def as_csv(data: dict[str, Any]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for game in data["games"]:
        for seat in game["seats"]:
            writer.writerow({**{k: game[k] for k in ("game", "ruleset", "ended_at", "moments", "winner")}, **seat})
    return buffer.getvalue()
