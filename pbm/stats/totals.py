"""Running sums of counts (nested dicts of numbers), kept in ``StatTotal`` rows: a
game's counts are added when it ends and taken back if it is reopened, so a page
reads one row instead of every game."""
from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..season_models import StatTotal

ALL = "all"
SCOPE_TOTAL = 0  # the user_id of a scope's own totals


def season_scope(season_id: int) -> str:
    return f"season:{season_id}"


def group_scope(group_id: int) -> str:
    return f"group:{group_id}"


def merged(into: dict[str, Any], counts: dict[str, Any], sign: int = 1) -> dict[str, Any]:
    """``into`` plus ``sign`` times ``counts``, nested dicts added key by key (a new
    dict: a JSON column notices only a new value); zeros dropped."""
    out = dict(into)
    for key, value in counts.items():
        if isinstance(value, dict):
            inner = merged(out.get(key) or {}, value, sign)
            if inner:
                out[key] = inner
            else:
                out.pop(key, None)
        else:
            total = (out.get(key) or 0) + sign * value
            if total:
                out[key] = total
            else:
                out.pop(key, None)
    return out


def add(session: Session, scopes: Iterable[str], user_id: int, counts: dict[str, Any], sign: int = 1) -> None:
    add_many(session, {(scope, user_id): counts for scope in scopes}, sign)


def add_many(session: Session, deltas: dict[tuple[str, int], dict[str, Any]], sign: int = 1) -> None:
    """Add each ``(scope, user_id)``'s counts, reading the rows they change in one query
    (a game's end changes three rows for each of its players)."""
    if not deltas:
        return
    with session.no_autoflush:
        scopes = {scope for scope, _u in deltas}
        users = {user for _s, user in deltas}
        rows = {(r.scope, r.user_id): r for r in session.scalars(select(StatTotal).where(
            StatTotal.scope.in_(scopes), StatTotal.user_id.in_(users)))}
        for key, counts in deltas.items():
            row = rows.get(key)
            if row is None:
                row = rows[key] = StatTotal(scope=key[0], user_id=key[1], counts={})
                session.add(row)
            row.counts = merged(row.counts or {}, counts, sign)


def read(session: Session, scope: str, user_id: int = SCOPE_TOTAL) -> dict[str, Any]:
    row = session.get(StatTotal, (scope, user_id))
    return dict(row.counts) if row is not None else {}


def players(session: Session, scope: str) -> dict[int, dict[str, Any]]:
    """Every account's totals in a scope: {user_id: counts}."""
    # Plain rows, not ORM objects: a group's page reads one per player.
    rows = session.execute(select(StatTotal.user_id, StatTotal.counts).where(
        StatTotal.scope == scope, StatTotal.user_id != SCOPE_TOTAL))
    return {row[0]: row[1] for row in rows}


def bump(session: Session, scopes: Iterable[str]) -> None:
    """A new revision of each scope's figures (a game counted or taken back): what a
    page rendered from them before is stale."""
    add(session, [f"rev:{scope}" for scope in scopes], SCOPE_TOTAL, {"n": 1})


def revisions(session: Session, *scopes: str) -> tuple[int, ...]:
    """The revisions of these scopes (0: never counted), read in one query."""
    keys = [f"rev:{scope}" for scope in scopes]
    found: dict[str, Any] = dict(session.execute(select(StatTotal.scope, StatTotal.counts).where(
        StatTotal.scope.in_(keys), StatTotal.user_id == SCOPE_TOTAL)).all())
    return tuple(int((found.get(k) or {}).get("n", 0)) for k in keys)


# Bumped when a player makes their page private or public again, or a season is added:
# the pages that name players or list seasons are stale.
PEOPLE = "people"
