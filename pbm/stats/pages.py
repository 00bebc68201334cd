"""What the statistics' pages show (issue 34), read from the running totals
(``totals``) and the games' records: a player's page across games, a group's page and
a season's table. Each page reads a handful of rows, never a game's events: the
counting was done when each game ended."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.figures import GameFigures
from engine.registry import available, get_ruleset

from ..models import Game, Listing, User
from ..season_models import GameRecord, GroupRow, SeatRecord, StatsPrivacy
from . import totals

# The standings' points when the group's owner chose none: a game played, a game won.
DEFAULT_POINTS = {"win": 3, "play": 1}
# A player needs this many moments they were due to act in to be among the most reliable.
RELIABLE_AFTER = 5
TOP = 5


def points_of(group: GroupRow) -> dict[str, dict[str, int]]:
    """The points per ruleset: the owner's, else the default."""
    return {k: {**DEFAULT_POINTS, **(group.points or {}).get(k, {})} for k in available()}


def share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def percent(x: float | None) -> str:
    """A share as a page reads it ("60%"; "–" when there is nothing to share)."""
    return "–" if x is None else f"{round(x * 100)}%"


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str
    games: int
    wins: int
    points: int
    reliability: float | None
    private: bool


def standings(session: Session, scope: str, group: GroupRow,
              rows: dict[int, dict[str, Any]] | None = None) -> list[Standing]:
    """Every account of the scope, most points first (then wins, fewer games, name)."""
    points = points_of(group)
    rows = totals.players(session, scope) if rows is None else rows
    names = _names(session, list(rows))
    private = set(session.scalars(select(StatsPrivacy.user_id).where(
        StatsPrivacy.user_id.in_(list(rows)), StatsPrivacy.private.is_(True)))) if rows else set()
    out = []
    for user_id, c in rows.items():
        earned = sum(points[k]["play"] * n for k, n in (c.get("by_ruleset") or {}).items() if k in points) + \
            sum(points[k]["win"] * n for k, n in (c.get("wins_by_ruleset") or {}).items() if k in points)
        out.append(Standing(user_id=user_id, name=names.get(user_id, "?"), games=c.get("games", 0),
                            wins=c.get("wins", 0), points=earned,
                            reliability=share(c.get("done", 0), c.get("due", 0)),
                            private=user_id in private))
    return sorted(out, key=lambda s: (-s.points, -s.wins, s.games, s.name.casefold()))


def most_reliable(rows: list[Standing], due: dict[int, int]) -> list[Standing]:
    known = [r for r in rows if r.reliability is not None and due.get(r.user_id, 0) >= RELIABLE_AFTER]
    return sorted(known, key=lambda r: (-(r.reliability or 0), -due[r.user_id], r.name.casefold()))[:TOP]


def rates(games: dict[str, int], wins: dict[str, int], name: Any) -> list[dict[str, Any]]:
    """[{name, games, wins, rate}] most played first."""
    rows = [{"key": k, "name": name(k), "games": n, "wins": wins.get(k, 0), "rate": share(wins.get(k, 0), n)}
            for k, n in games.items() if n]
    return sorted(rows, key=lambda r: (-r["games"], r["name"]))


def scope_view(session: Session, scope: str, group: GroupRow, season_ids: list[int], lang: str) -> dict[str, Any]:
    """A group's or a season's page: standings, the factions' and roles' win rates,
    the longest games, the most reliable players."""
    own = totals.read(session, scope)
    everyone = totals.players(session, scope)
    rows = standings(session, scope, group, everyone)
    due = {u: c.get("due", 0) for u, c in everyone.items()}
    longest = session.execute(
        select(GameRecord, Game.name, Game.slug, Game.listing).join(Game, Game.id == GameRecord.game_id)
        .where(GameRecord.season_id.in_(season_ids)).order_by(GameRecord.moments.desc(), GameRecord.game_id)
        .limit(TOP)).all() if season_ids else []
    return {
        "games": own.get("games", 0), "moments": own.get("moments", 0),
        "standings": rows, "reliable": most_reliable(rows, due),
        "factions": rates(own.get("faction_games") or {}, own.get("faction_wins") or {}, lambda f: _faction(f, lang)),
        "roles": rates(own.get("role_games") or {}, own.get("role_wins") or {}, lambda r: _role(r, lang)),
        "longest": [{"name": name if listing != Listing.PRIVATE else None, "slug": slug if listing != Listing.PRIVATE else None,
                     "moments": rec.moments, "players": rec.players, "ruleset": rec.ruleset}
                    for rec, name, slug, listing in longest],
        "points": points_of(group),
    }


def player_view(session: Session, user: User, lang: str) -> dict[str, Any]:
    """One account across every finished game."""
    c = totals.read(session, totals.ALL, user.id)
    recent = session.execute(
        select(SeatRecord, Game.name, Game.slug, Game.listing, GameRecord.ruleset, GameRecord.ended_at)
        .join(Game, Game.id == SeatRecord.game_id).join(GameRecord, GameRecord.game_id == SeatRecord.game_id)
        .where(SeatRecord.user_id == user.id).order_by(GameRecord.ended_at.desc(), SeatRecord.id.desc()).limit(10)).all()
    by_way = c.get("by_way") or {}
    return {
        "games": c.get("games", 0), "wins": c.get("wins", 0),
        "by_ruleset": sorted(((get_ruleset(k).name_in(lang), n, (c.get("wins_by_ruleset") or {}).get(k, 0))
                              for k, n in (c.get("by_ruleset") or {}).items()), key=lambda x: -x[1]),
        "factions": rates(c.get("faction_games") or {}, c.get("faction_wins") or {}, lambda f: _faction(f, lang)),
        "roles": rates(c.get("role_games") or {}, c.get("role_wins") or {}, lambda r: _role(r, lang)),
        "nights_survived": c.get("nights_survived", 0),
        "deaths": sorted(((_cause(k, lang), n) for k, n in (c.get("deaths") or {}).items()), key=lambda x: -x[1]),
        "votes_cast": c.get("votes_cast", 0), "votes_on_chosen": c.get("votes_on_chosen", 0),
        "vote_share": share(c.get("votes_on_chosen", 0), c.get("votes_cast", 0)),
        "due": c.get("due", 0), "done": c.get("done", 0), "reliability": share(c.get("done", 0), c.get("due", 0)),
        "by_way": {w: by_way.get(w, 0) for w in ("web", "mail", "master", "standing")},
        "challenges": c.get("challenges", 0), "challenges_won": c.get("challenges_won", 0),
        "bluffs_caught": c.get("bluffs_caught", 0), "coups": c.get("coups", 0),
        "recent": [{"name": name if listing != Listing.PRIVATE else None, "slug": slug if listing != Listing.PRIVATE else None,
                    "ruleset": get_ruleset(ruleset).name_in(lang), "won": bool(rec.figures["outcome"].get("won")),
                    "role": _role(rec.figures["outcome"].get("role") or "", lang), "substitute": rec.substitute}
                   for rec, name, slug, listing, ruleset, _ended in recent],
    }


def _names(session: Session, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    return dict(session.execute(select(User.id, User.name).where(User.id.in_(ids))).all())


def _counting(ruleset: str) -> GameFigures | None:
    return get_ruleset(ruleset).ability(GameFigures)


@lru_cache(maxsize=512)
def _faction(faction: str, lang: str) -> str:
    for key in available():
        counting = _counting(key)
        if counting is not None and faction in get_ruleset(key).factions:
            return counting.faction_name(faction, lang)
    return faction


@lru_cache(maxsize=1024)
def _role(role: str, lang: str) -> str:
    for key in available():
        ruleset = get_ruleset(key)
        if any(r.name == role for r in ruleset.roles()):
            card = ruleset.role_card(role, lang)
            return card.name if card is not None else role
    return role


@lru_cache(maxsize=512)
def _cause(cause: str, lang: str) -> str:
    for key in available():
        counting = _counting(key)
        if counting is not None and cause in counting.causes:
            return counting.cause_name(cause, lang)
    return cause
