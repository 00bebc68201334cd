"""Groups and seasons (issue 34): a Master's group, its seasons, the season a game
belongs to (chosen at set-up, with fair dealing or not), the standings' points per
ruleset, and a player's choice to keep their page across games private. The history
fair dealing reads: how many of a group's last games each account played in the
faction the ruleset watches (``engine.fair_deal``)."""
from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine import fair_deal
from engine.fair_deal import FairDeal
from engine.registry import available, get_ruleset

from ..models import Game, GameStatus, User
from ..season_models import GameRecord, GroupRow, SeasonGame, SeasonRow, SeatRecord, StatsPrivacy
from ..stats import totals
from .base import OperationError, check_typed_name, log, slugify

# How many of the group's last finished games fair dealing looks back on.
HISTORY_GAMES = 3
MAX_POINTS = 100


def _slug(session: Session, text: str, taken: Any) -> str:
    base = slugify(text)
    candidate, n = base, 1
    while taken(candidate):
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def create_group(session: Session, *, name: str, owner: User, now: datetime) -> GroupRow:
    name = " ".join((name or "").split())
    check_typed_name(name)
    if not name:
        raise OperationError("group_name_required")
    slug = _slug(session, name, lambda c: session.scalar(select(GroupRow.id).where(GroupRow.slug == c)) is not None)
    group = GroupRow(slug=slug, name=name[:120], owner_id=owner.id, points={}, created_at=now)
    session.add(group)
    session.flush()
    return group


def add_season(session: Session, group: GroupRow, *, name: str, by: User, now: datetime) -> SeasonRow:
    _check_owner(group, by)
    name = " ".join((name or "").split())
    check_typed_name(name)
    if not name:
        raise OperationError("season_name_required")
    slug = _slug(session, name, lambda c: session.scalar(select(SeasonRow.id).where(
        SeasonRow.group_id == group.id, SeasonRow.slug == c)) is not None)
    season = SeasonRow(group_id=group.id, slug=slug, name=name[:120], created_at=now)
    session.add(season)
    session.flush()
    totals.bump(session, [totals.PEOPLE])
    return season


def set_points(session: Session, group: GroupRow, points: dict[str, dict[str, int]], by: User) -> None:
    """The standings' points per ruleset ({ruleset: {"win": n, "play": n}})."""
    _check_owner(group, by)
    clean: dict[str, dict[str, int]] = {}
    for ruleset, values in points.items():
        if ruleset not in available():
            continue
        try:
            win, play = int(values.get("win", 0)), int(values.get("play", 0))
        except (TypeError, ValueError) as exc:
            raise OperationError("bad_points") from exc
        if not (0 <= win <= MAX_POINTS and 0 <= play <= MAX_POINTS):
            raise OperationError("bad_points")
        clean[ruleset] = {"win": win, "play": play}
    group.points = clean


def _check_owner(group: GroupRow, user: User) -> None:
    if group.owner_id != user.id and not user.is_admin:
        raise OperationError("not_group_master")


def place_game(session: Session, game: Game, season_id: int | None, *, fair_deal: bool,
               by: User, now: datetime) -> SeasonGame | None:
    """Put a game in set-up in a season of a group its Master owns (None: in none)."""
    if game.status != GameStatus.SETUP:
        raise OperationError("season_fixed")
    placed = session.get(SeasonGame, game.id)
    if season_id is None:
        if placed is not None:
            session.delete(placed)
        log(session, game, by, "season", now, season=None)
        return None
    season = session.get(SeasonRow, season_id)
    if season is None:
        raise OperationError("unknown_season")
    _check_owner(season.group, by)
    if placed is None:
        placed = SeasonGame(game_id=game.id, season_id=season.id, fair_deal=fair_deal)
        session.add(placed)
    else:
        placed.season_id, placed.fair_deal = season.id, fair_deal
    session.flush()
    log(session, game, by, "season", now, season=season.id, fair_deal=fair_deal)
    return placed


def groups_of(session: Session, user: User) -> list[GroupRow]:
    """The groups whose seasons this Master may put games in."""
    query = select(GroupRow).order_by(GroupRow.name)
    if not user.is_admin:
        query = query.where(GroupRow.owner_id == user.id)
    return list(session.scalars(query))


def set_private(session: Session, user: User, private: bool) -> None:
    row = session.get(StatsPrivacy, user.id)
    if row is None:
        session.add(StatsPrivacy(user_id=user.id, private=private))
    else:
        row.private = private
    totals.bump(session, [totals.PEOPLE])


def is_private(session: Session, user_id: int) -> bool:
    row = session.get(StatsPrivacy, user_id)
    return bool(row and row.private)


def watched_history(session: Session, game: Game, faction: str) -> dict[str, int]:
    """{seat name: in how many of the group's last ``HISTORY_GAMES`` finished games its
    account played in ``faction``}: only for a game placed with fair dealing, and
    counted from finished games only (their records)."""
    placed = session.get(SeasonGame, game.id)
    if placed is None or not placed.fair_deal:
        return {}
    group_id = placed.season.group_id
    last = list(session.scalars(
        select(GameRecord.game_id).join(SeasonRow, SeasonRow.id == GameRecord.season_id)
        .where(SeasonRow.group_id == group_id).order_by(GameRecord.ended_at.desc(), GameRecord.game_id.desc())
        .limit(HISTORY_GAMES)))
    if not last:
        return {}
    by_user: dict[int, int] = {}
    for record in session.scalars(select(SeatRecord).where(SeatRecord.game_id.in_(last))):
        if (record.figures.get("outcome") or {}).get("faction") == faction:
            by_user[record.user_id] = by_user.get(record.user_id, 0) + 1
    return {s.name: by_user[s.user_id] for s in game.seats if s.user_id in by_user}


def _fair(session: Session, game: Game) -> tuple[FairDeal, dict[str, int]] | None:
    """The faction the ruleset watches and the seats' history, when the game asked for
    fair dealing and its ruleset deals that way; None otherwise."""
    ability = get_ruleset(game.ruleset).ability(FairDeal)
    placed = session.get(SeasonGame, game.id)
    if ability is None or placed is None or not placed.fair_deal:
        return None
    return ability, watched_history(session, game, ability.faction)


def fair_seating(session: Session, game: Game, names: list[str], composition: dict[str, int],
                 rng: random.Random) -> list[tuple[str, str]] | None:
    """The deal with the group's history (``engine.fair_deal.deal``), from the same
    generator as any draw, so it replays from its seed; None when the game did not ask."""
    fair = _fair(session, game)
    if fair is None:
        return None
    ability, history = fair
    ruleset = get_ruleset(game.ruleset)
    roles: list[str] = []
    for role, count in composition.items():
        roles += [ruleset.canonical_role(role)] * int(count)
    if len(roles) != len(names):
        raise OperationError("composition_size", roles=len(roles), players=len(names))
    watched = {r.name for r in ruleset.roles() if r.faction == ability.faction}
    return fair_deal.deal(names, roles, watched, history, rng)


def fair_weights(session: Session, game: Game) -> dict[str, Any] | None:
    """What the Masters see of a fair deal: each seat's history and weight."""
    fair = _fair(session, game)
    if fair is None:
        return None
    ability, history = fair
    names = [s.name for s in game.seats]
    return {"faction": ability.faction, "history": history, "weights": fair_deal.weights(names, history)}
