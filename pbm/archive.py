"""The archive of a game, read-only: its published phases one by one (the bulletin,
the vote and its picture), the feed, and after the end the whole game revealed.

Every phase page, the feed and the picture show the public's view only, through
the one visibility filter (``pbm.visibility``), whoever reads them: they are at
stable public addresses. The reveal (``revealed``) is the Masters' view and is
shown to anyone else only once the game is over.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import GameState
from engine.interface import Tally, Viewer
from engine.registry import get_ruleset

from . import render, seating, visibility
from .models import ActionRow, EventRow, Game, GameStatus, PhaseRow, PhaseStatus, SeatHolder

PUBLIC = Viewer()
MASTERS = Viewer(master=True)


@dataclass
class PhaseView:
    phase: PhaseRow
    number: int  # n of /g/<slug>/phases/<n>, from 1
    label: str
    lines: list[str]
    tally: Tally | None
    substitutes: list[SeatHolder] = field(default_factory=list)


def number_of(phase: PhaseRow) -> int:
    return phase.index + 1


def published_phases(session: Session, game: Game) -> list[PhaseRow]:
    return list(session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                       PhaseRow.status == PhaseStatus.PUBLISHED)
                                .order_by(PhaseRow.index)))


def published_phase(session: Session, game: Game, number: int) -> PhaseRow | None:
    if number < 1:
        return None
    return session.scalar(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                 PhaseRow.index == number - 1,
                                                 PhaseRow.status == PhaseStatus.PUBLISHED))


def _rows(session: Session, game: Game, phases: list[PhaseRow],
          viewer: Viewer = MASTERS) -> dict[int, list[EventRow]]:
    """The events of these phases that ``viewer`` could be shown (``visibility.seen``
    still decides), by phase: the others are left in the database."""
    out: dict[int, list[EventRow]] = {p.id: [] for p in phases}
    if not phases:
        return out
    for row in session.scalars(select(EventRow).where(EventRow.game_id == game.id,
                                                      EventRow.phase_id.in_(list(out)),
                                                      visibility.readable_by(viewer))
                               .order_by(EventRow.phase_id, EventRow.seq)):
        out[row.phase_id].append(row)
    return out


def public_lines(rows: list[EventRow], ruleset: str, lang: str) -> list[str]:
    """The bulletin's lines of these events: what the public may read."""
    return visibility.lines(rows, PUBLIC, ruleset, lang)


def tally(rows: list[Any], viewer: Viewer, ruleset: str, lang: str) -> Tally | None:
    """The first vote among the events this viewer may see, as the ruleset counts it."""
    return tally_in(visibility.seen(rows, viewer, ruleset, lang), ruleset, lang)


def tally_in(seen: Iterable[visibility.Seen], ruleset: str, lang: str) -> Tally | None:
    """``tally`` of events already read for the viewer (a ``visibility.Reading``)."""
    rules = get_ruleset(ruleset)
    return next((found for s in seen if (found := rules.tally(s.event, lang)) is not None), None)


def bars(t: Tally, lang: str = "it") -> list[dict[str, Any]]:
    """Each candidate's bar of the vote picture: its share of the longest (0-1), and
    who voted for them (the same facts, in the same order, as the tables beside it);
    ``width``: the percent drawn, at least 1 so that every bar shows."""
    top = max((c for _n, c in t.counts), default=0) or 1
    voters: dict[str, list[str]] = {}
    for voter, target in t.votes:
        voters.setdefault(target, []).append(voter)
    return [{"name": name, "count": count, "shown": shown_count(count, lang),
             "share": count / top, "percent": round(100 * count / top),
             "width": max(round(100 * count / top), 1),
             "voters": voters.get(name, []), "chosen": name in t.all_chosen} for name, count in t.counts]


def vote_lines(t: Tally | None) -> list[str]:
    """Who voted whom, one line each: 'Anna → Carla' (as the ruleset published them)."""
    return [f"{voter} → {target}" for voter, target in (t.votes if t else ())]


def shown_count(value: float, lang: str) -> str:
    """A vote count as people write it: 2, 1,25 in Italian, 1.25 in English."""
    text = f"{value:g}"
    return text if lang == "en" else text.replace(".", ",")


def phase_views(session: Session, game: Game, lang: str, tz: str,
                phases: list[PhaseRow] | None = None) -> list[PhaseView]:
    """The public bulletin of each published phase (all of them, or those given)."""
    phases = published_phases(session, game) if phases is None else phases
    rows = _rows(session, game, phases, PUBLIC)
    arrivals = _substitutes_by_phase(session, game)
    return [PhaseView(phase=p, number=number_of(p), label=render.phase_label(p, lang, tz),
                      lines=public_lines(rows[p.id], game.ruleset, lang),
                      tally=tally(rows[p.id], PUBLIC, game.ruleset, lang),
                      substitutes=arrivals.get(p.index, []))
            for p in phases]


def _substitutes_by_phase(session: Session, game: Game) -> dict[int, list[SeatHolder]]:
    out: dict[int, list[SeatHolder]] = {}
    for row in seating.substitutions(session, game):
        out.setdefault(row.from_phase, []).append(row)
    return out


def substitute_line(holder: SeatHolder, lang: str) -> str:
    """The bulletin's line for a substitute's arrival, named as the Master chose."""
    from .i18n import gettext_in
    if holder.announced_as:
        return gettext_in(lang, "%(name)s takes the seat of %(player)s as a substitute.",
                          name=holder.announced_as, player=holder.seat.name)
    return gettext_in(lang, "A substitute takes the seat of %(player)s.", player=holder.seat.name)


def substitutes_of(session: Session, game: Game, phase: PhaseRow) -> list[SeatHolder]:
    """The substitutes who arrived in this phase, in order."""
    return _substitutes_by_phase(session, game).get(phase.index, [])


def may_reveal(game: Game, user: Any) -> bool:
    """The whole game is for everyone once it is over, for its Masters before."""
    return game.status == GameStatus.OVER or (user is not None and game.is_master(user))


def revealed(session: Session, game: Game, lang: str, tz: str) -> dict[str, Any]:
    """Everything, phase by phase, as the Masters read it: every role, every night
    action, every vote and every other submission, every event with who it was for."""
    state = GameState.from_dict(game.state) if game.state else None
    holders = seating.holders(session, game)
    people = []
    for seat in seating.load_seats(session, game):  # with their users, in one query
        p = state.player(seat.name) if state and state.has_player(seat.name) else None
        people.append({
            "name": seat.name, "role": p.role if p else None, "faction": p.faction if p else None,
            "alive": p.alive if p else None,
            "holders": [{"name": h.user.name, "from_phase": h.from_phase + 1,
                         "to_phase": None if h.to_phase is None else h.to_phase + 1}
                        for h in holders.get(seat.name, [])]
                       # A seat at the table (a narrator's game) has no account: its name is all.
                       or [{"name": seat.user.name if seat.user else seat.name,
                            "from_phase": 1, "to_phase": None}],
        })
    phases = published_phases(session, game)
    rows = _rows(session, game, phases)
    setup = list(session.scalars(select(EventRow).where(EventRow.game_id == game.id,
                                                        EventRow.phase_id.is_(None))
                                 .order_by(EventRow.seq)))
    actions: dict[int, list[ActionRow]] = {p.id: [] for p in phases}
    if phases:
        for a in session.scalars(select(ActionRow).where(ActionRow.phase_id.in_(list(actions)))
                                 .order_by(ActionRow.id)):
            actions[a.phase_id].append(a)

    def events(items: list[EventRow]) -> list[dict[str, Any]]:
        return [{"kind": s.event.kind, "data": s.event.data, "visibility": s.event.visibility,
                 "to": list(s.event.to),
                 "text": s.text}
                for s in visibility.seen(items, MASTERS, game.ruleset, lang)]

    def submissions(items: list[ActionRow]) -> list[dict[str, Any]]:
        # The last submission of each seat and kind is the one that counted.
        last: dict[tuple[int, str], ActionRow] = {}
        for a in items:
            last[(a.seat_id, a.kind)] = a
        return [{"player": a.seat.name, "kind": a.kind, "args": a.args, "source": a.source,
                 "at": a.submitted_at.isoformat(), "text": "; ".join(render.describe_submission(a.args, lang, game.ruleset))}
                for a in sorted(last.values(), key=lambda a: (a.seat.position, a.kind))]

    return {
        "game": {"name": game.name, "slug": game.slug, "ruleset": game.ruleset,
                 "status": game.status, "winner": state.winner if state else None},
        "players": people,
        "setup": events(setup),
        "phases": [{"number": number_of(p), "kind": p.kind, "label": render.phase_label(p, lang, tz),
                    "ends_at": p.ends_at.isoformat(),
                    "published_at": p.published_at.isoformat() if p.published_at else None,
                    "submissions": submissions(actions[p.id]), "events": events(rows[p.id]),
                    "tally": _tally_dict(tally(rows[p.id], MASTERS, game.ruleset, lang))}
                   for p in phases],
    }


def _tally_dict(t: Tally | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {"counts": dict(t.counts), "votes": dict(t.votes), "chosen": t.chosen,
            "also_chosen": list(t.also_chosen), "needed": t.needed, "valid": t.valid}
