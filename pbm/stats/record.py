"""A finished game counted once, as it ends: its record, each account's figures
(``SeatRecord``) and the running totals of its scopes (the account across every
game, the season, the group). A Master's roll-back of an ended game takes it all
back, and its new end counts it again.

The figures are the ruleset's (``engine.figures.GameFigures``), counted from the
public events of the published moments only: what the game's archive shows.
Reliability is the service's own: in each moment a seat was due to act (the
ruleset's ``required_kinds``), whether its holder did, and by which way."""
from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from engine.core import Event, GameState, Phase
from engine.figures import Figures, GameFigures, Moment
from engine.registry import get_ruleset

from ..models import ActionRow, EventRow, Game, GameStatus, PhaseRow, PhaseStatus, SeatHolder
from ..season_models import GameRecord, SeasonGame, SeatRecord, StatTotal
from . import totals

PUBLIC = "public"
WAYS = ("web", "mail", "master", "standing")


def on_game_ended(sender: object, news: Any) -> None:
    count_game(news.session, news.game, news.now)


def on_game_reopened(sender: object, news: Any) -> None:
    uncount_game(news.session, news.game)


def published_moments(session: Session, game: Game) -> tuple[list[PhaseRow], list[Moment]]:
    """The game's published phases, in order, and each one's public events."""
    phases = list(session.scalars(select(PhaseRow).where(
        PhaseRow.game_id == game.id, PhaseRow.status == PhaseStatus.PUBLISHED).order_by(PhaseRow.index)))
    by_phase: dict[int, list[Event]] = {p.id: [] for p in phases}
    rows = session.execute(select(EventRow.phase_id, EventRow.kind, EventRow.data).where(
        EventRow.game_id == game.id, EventRow.published.is_(True), EventRow.visibility == PUBLIC)
        .order_by(EventRow.phase_id, EventRow.seq))
    for phase_id, kind, data in rows:
        if phase_id in by_phase:
            by_phase[phase_id].append(Event(kind, dict(data or {})))
    return phases, [Moment(Phase(p.kind, p.number), tuple(by_phase[p.id])) for p in phases]


def count_game(session: Session, game: Game, now: datetime) -> GameRecord | None:
    """Count an ended game (once: a game already counted is left as it is)."""
    if game.status != GameStatus.OVER or game.state is None:
        return None
    if session.get(GameRecord, game.id) is not None:
        return None
    ruleset = get_ruleset(game.ruleset)
    counting = ruleset.ability(GameFigures)
    final = GameState.from_dict(game.state)
    phases, moments = published_moments(session, game)
    figures = counting.count(final, moments) if counting else {}
    placed = session.get(SeasonGame, game.id)
    season_id = placed.season_id if placed else None
    scopes = _scopes(session, game)
    record = GameRecord(game_id=game.id, season_id=season_id, ruleset=game.ruleset,
                        winner=str(final.winner or ""), moments=len(phases),
                        players=len(final.players), ended_at=now)
    session.add(record)
    holders = _all_holders(session, game, len(phases))
    due = _reliability(session, game, phases, holders)
    deltas: dict[tuple[str, int], dict[str, Any]] = {}
    for seat in game.seats:
        mine = figures.get(seat.name, Figures())
        for user_id, span, substitute in holders[seat.id]:
            counts = _player_counts(game.ruleset, mine, _span_figures(counting, final, moments, seat.name, span, mine),
                                    due.get((seat.id, user_id), Counter()))
            session.add(SeatRecord(game_id=game.id, user_id=user_id, seat_id=seat.id, season_id=season_id,
                                   name=seat.name, substitute=substitute,
                                   figures={"outcome": mine.to_dict(), "counts": counts}))
            for scope in scopes:
                deltas[(scope, user_id)] = totals.merged(deltas.get((scope, user_id), {}), counts)
    game_counts = _game_counts(record, list(figures.values()))
    # Kept as counted, so that a roll-back takes back exactly this.
    deltas[(_game_scope(game), totals.SCOPE_TOTAL)] = game_counts
    for scope in scopes[1:]:
        deltas[(scope, totals.SCOPE_TOTAL)] = game_counts
    totals.add_many(session, deltas)
    totals.bump(session, scopes)
    session.flush()
    return record


def uncount_game(session: Session, game: Game) -> None:
    """Take back everything counted of the game's end (a Master reopened it)."""
    record = session.get(GameRecord, game.id)
    if record is None:
        return
    scopes = _scopes(session, game)
    deltas: dict[tuple[str, int], dict[str, Any]] = {}
    for seat_record in session.scalars(select(SeatRecord).where(SeatRecord.game_id == game.id)):
        for scope in scopes:
            key = (scope, seat_record.user_id)
            deltas[key] = totals.merged(deltas.get(key, {}), seat_record.figures["counts"])
    game_counts = totals.read(session, _game_scope(game))
    for scope in scopes[1:]:
        deltas[(scope, totals.SCOPE_TOTAL)] = game_counts
    totals.add_many(session, deltas, sign=-1)
    session.execute(delete(StatTotal).where(StatTotal.scope == _game_scope(game)))
    totals.bump(session, scopes)
    session.execute(delete(SeatRecord).where(SeatRecord.game_id == game.id))
    session.delete(record)
    session.flush()


def _game_scope(game: Game) -> str:
    return f"game:{game.id}"


def _scopes(session: Session, game: Game) -> list[str]:
    """Where a game's counts go: every account's totals, then its season's and group's."""
    placed = session.get(SeasonGame, game.id)
    if placed is None:
        return [totals.ALL]
    return [totals.ALL, totals.season_scope(placed.season_id), totals.group_scope(placed.season.group_id)]


Holders = dict[int, list[tuple[int, tuple[int, int], bool]]]


def _all_holders(session: Session, game: Game, length: int) -> Holders:
    """Each seat's holders (``_holders``), their tenures read in one query."""
    tenures: dict[int, list[SeatHolder]] = {}
    for t in session.scalars(select(SeatHolder).where(SeatHolder.seat_id.in_([s.id for s in game.seats]))
                             .order_by(SeatHolder.id)):
        tenures.setdefault(t.seat_id, []).append(t)
    return {seat.id: _holders(seat, tenures.get(seat.id, []), length) for seat in game.seats}


def _holders(seat: Any, tenures: list[SeatHolder], length: int) -> list[tuple[int, tuple[int, int], bool]]:
    """Who held the seat over which moments (indexes, both ends included): each
    account once per tenure, a substitute marked. A seat without an account (a
    player at a table) has nobody to count."""
    if not tenures:
        return [(seat.user_id, (0, length - 1), False)] if seat.user_id is not None else []
    return [(t.user_id, (t.from_phase, length - 1 if t.to_phase is None else t.to_phase), i > 0)
            for i, t in enumerate(tenures)]


def _span_figures(counting: GameFigures | None, final: GameState, moments: list[Moment], name: str,
                  span: tuple[int, int], whole: Figures) -> Figures:
    """The seat's figures over a tenure's moments alone (the whole game's when the
    tenure is the whole game)."""
    if counting is None or span == (0, len(moments) - 1):
        return whole
    return counting.count(final, moments[span[0]:span[1] + 1]).get(name, Figures())


def _reliability(session: Session, game: Game, phases: list[PhaseRow],
                 holders: Holders) -> dict[tuple[int, int], Counter[str]]:
    """{(seat id, account): Counter(due=, done=, <way>=)}: in each moment a seat was
    due to act, whether its holder then did, and by which way (the last submission's)."""
    ruleset = get_ruleset(game.ruleset)
    acted: dict[tuple[int, int], str] = {}
    for phase_id, seat_id, source in session.execute(select(ActionRow.phase_id, ActionRow.seat_id, ActionRow.source)
                                                     .where(ActionRow.game_id == game.id).order_by(ActionRow.id)):
        acted[(phase_id, seat_id)] = source
    out: dict[tuple[int, int], Counter[str]] = {}
    for phase in phases:
        state = GameState.from_dict(phase.state_before, owned=False)
        for seat in game.seats:
            holder = next((u for u, (a, b), _s in holders[seat.id] if a <= phase.index <= b), None)
            if holder is None or not state.has_player(seat.name) or not ruleset.required_kinds(state, seat.name):
                continue
            tally = out.setdefault((seat.id, holder), Counter())
            tally["due"] += 1
            source = acted.get((phase.id, seat.id))
            if source is not None:
                tally["done"] += 1
                tally[source if source in WAYS else "web"] += 1
    return out


def _player_counts(ruleset: str, whole: Figures, mine: Figures, due: Counter[str]) -> dict[str, Any]:
    """One account's counts in one game, as the totals add them up."""
    counts: dict[str, Any] = {
        "games": 1, "by_ruleset": {ruleset: 1},
        "wins": int(whole.won), "wins_by_ruleset": {ruleset: int(whole.won)},
        "nights_survived": mine.nights_survived,
        "votes_cast": mine.votes_cast, "votes_on_chosen": mine.votes_on_chosen,
        "challenges": mine.challenges, "challenges_won": mine.challenges_won,
        "bluffs_caught": mine.bluffs_caught, "coups": mine.coups,
        "due": due.get("due", 0), "done": due.get("done", 0),
        "by_way": {w: due.get(w, 0) for w in WAYS},
    }
    if whole.faction:
        counts["faction_games"] = {whole.faction: 1}
        counts["faction_wins"] = {whole.faction: int(whole.won)}
    if whole.role:
        counts["role_games"] = {whole.role: 1}
        counts["role_wins"] = {whole.role: int(whole.won)}
    if mine.died:
        counts["deaths"] = {mine.died: 1}
    return counts


def _game_counts(record: GameRecord, outcomes: list[Figures]) -> dict[str, Any]:
    """What one game adds to its season's and group's own totals: a game, its length,
    the factions that played it and the one that won, each role's seats and wins."""
    factions = {f.faction for f in outcomes if f.faction}
    won = {f.faction for f in outcomes if f.faction and f.won}
    counts: dict[str, Any] = {"games": 1, "moments": record.moments, "by_ruleset": {record.ruleset: 1},
                              "faction_games": dict.fromkeys(factions, 1), "faction_wins": dict.fromkeys(won, 1),
                              "role_games": {}, "role_wins": {}}
    for f in outcomes:
        if f.role:
            counts = totals.merged(counts, {"role_games": {f.role: 1}, "role_wins": {f.role: int(f.won)}})
    return counts
