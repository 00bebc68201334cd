"""What the narrator's phone shows now, derived from the game as stored.

Nothing here is kept in the browser: the step, the call of the night, the next voter
are all worked out from the open phase (its state, the taps recorded in it), so
reopening the page after the phone locked lands exactly where the narrator was.
The words the table hears come from the ruleset (``night_script``, ``night_frame``,
``describe``); who may see what is the ruleset's ``visible`` for a reader of the
public bulletin (``Viewer()``), the narrator's own notes are in small type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import url_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import Event, GameState, Phase, phase_rng
from engine.interface import Viewer
from engine.registry import get_ruleset

from ..models import ActionRow, EventRow, Game, GameStatus, PhaseRow, PhaseStatus, SeatPhoto
from ..operations import current_phase, engine_actions
from ..operations import table

PUBLIC_READER = Viewer()
NARRATOR = Viewer(master=True)


@dataclass
class Face:
    name: str
    photo: str | None  # URL of the picture, None: initials only
    alive: bool = True

    @property
    def initials(self) -> str:
        return "".join(w[0] for w in self.name.split()[:2]).upper()


@dataclass
class Screen:
    step: str  # setup | night | dawn | vote | held | over
    game: Game
    phase: PhaseRow | None = None
    faces: dict[str, Face] = field(default_factory=dict)
    announce: list[str] = field(default_factory=list)  # public: read it aloud
    notes: list[str] = field(default_factory=list)  # the narrator's eyes only
    data: dict[str, Any] = field(default_factory=dict)


def _event(row: EventRow) -> Event:
    return Event(row.kind, dict(row.data or {}), row.visibility, tuple(row.recipients or ()))


def faces(session: Session, game: Game, state: GameState | None) -> dict[str, Face]:
    with_photo = set(session.scalars(select(SeatPhoto.seat_id).where(
        SeatPhoto.seat_id.in_([s.id for s in game.seats]))))
    out = {}
    for s in game.seats:
        url = url_for("narrator.photo", slug=game.slug, seat_id=s.id) if s.id in with_photo else None
        alive = state.player(s.name).alive if state is not None and state.has_player(s.name) else True
        out[s.name] = Face(s.name, url, alive)
    return out


def worded(game: Game, rows: list[EventRow], lang: str) -> tuple[list[str], list[str]]:
    """A resolved phase's events: (what everybody may hear, the narrator's notes)."""
    ruleset = get_ruleset(game.ruleset)
    public, notes = [], []
    for row in rows:
        event = _event(row)
        seen = ruleset.visible(event, PUBLIC_READER)
        if seen is not None:
            line = ruleset.describe(seen, lang, PUBLIC_READER)
            if line:
                public.append(line)
        elif row.visibility == "master":
            line = ruleset.describe(event, lang, NARRATOR)
            if line:
                notes.append(line)
    return public, notes


def last_published(session: Session, game: Game) -> PhaseRow | None:
    return session.scalar(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                 PhaseRow.status == PhaseStatus.PUBLISHED)
                          .order_by(PhaseRow.index.desc()).limit(1))


def phase_events(session: Session, phase: PhaseRow) -> list[EventRow]:
    return list(session.scalars(select(EventRow).where(EventRow.phase_id == phase.id, EventRow.seq >= 0)
                                .order_by(EventRow.seq)))


def answers_for(session: Session, game: Game, phase: PhaseRow, actor: str | None,
                lang: str) -> list[str]:
    """What the rules tell ``actor`` about tonight's choice (a seer's answer), for the
    narrator to signal at once: tonight resolved as it stands, on a copy, with the
    phase's own seed, keeping only the lines addressed to the actor."""
    if not actor:
        return []
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(phase.state_before)
    try:
        result = ruleset.resolve(state, engine_actions(session, phase),
                                 phase_rng(game.seed, Phase(phase.kind, phase.number)),
                                 dict(phase.gm_input or {}))
    except Exception:  # noqa: BLE001 - a preview must never stop the night
        return []
    viewer = Viewer(player=actor)
    lines = []
    for event in result.events:
        if event.visibility == "private" and actor in event.to and event.kind != "rejected_at_resolution":
            seen = ruleset.visible(event, viewer)
            line = ruleset.describe(seen, lang, viewer) if seen is not None else None
            if line:
                lines.append(line)
    return lines


def screen(session: Session, game: Game, lang: str) -> Screen:
    if game.status == GameStatus.SETUP:
        return _setup(session, game)
    if game.status == GameStatus.OVER:
        return Screen("over", game)
    phase = current_phase(session, game)
    state = GameState.from_dict(phase.state_before) if phase is not None else None
    out = Screen("held", game, phase, faces(session, game, state))
    before = last_published(session, game)
    if before is not None:
        out.announce, out.notes = worded(game, phase_events(session, before), lang)
    if phase is None or not (phase.status == PhaseStatus.OPEN or table.waits_for_identities(phase)):
        return out  # a resolution waits for the Masters' desk
    script = table.script_of(game, phase)
    if script:
        _night(session, game, phase, script, out, lang)
    else:
        _vote(session, game, phase, out)
    return out


def _setup(session: Session, game: Game) -> Screen:
    ruleset = get_ruleset(game.ruleset)
    return Screen("setup", game, faces=faces(session, game, None), data={
        "roles": [r.name for r in ruleset.roles()],
        "standard": table.standard_composition(game),
        "min_players": ruleset.min_players,
    })


def _say(part: dict[str, str], lang: str) -> str:
    return part.get(lang) or part.get("it") or ""


def _night(session: Session, game: Game, phase: PhaseRow, script: list[dict[str, Any]],
           out: Screen, lang: str) -> None:
    frame = get_ruleset(game.ruleset).night_frame()
    done = table.calls_done(phase)
    at = table.next_call(game, phase)
    previous = None
    if done:
        last = next((c for c in script if c["role"] == done[-1]), None)
        if last is not None:
            previous = {"close": _say(last["say"]["close"], lang),
                        "answers": answers_for(session, game, phase, last["tap"].get("actor"), lang)}
    out.data.update(number=phase.number, total=len(script), previous=previous,
                    sleep=_say(frame["sleep"], lang) if not done else None)
    if at is None:
        out.step = "dawn"
        out.data["wake"] = _say(frame["wake"], lang)
        return
    call = script[at]
    tap = call["tap"]
    taken = {n for names in table.identified(phase).values() for n in names}
    out.step = "night"
    out.data.update(index=at, call={
        "name": _say(call["name"], lang),
        "open": _say(call["say"]["open"], lang),
        "do": _say(call["say"]["do"], lang),
        "kind": tap["kind"],
        "count": int(tap.get("count", 1)) if tap["kind"] == "identify" else (1 if tap.get("choices") else 0),
        "optional": bool(tap.get("optional")),
        "actor": tap.get("actor"),
        "choices": [c for c in tap.get("choices", []) if c not in taken],
        "holders": list(call.get("holders") or []),
        "living": list(call.get("living") or []),
    })


def _vote(session: Session, game: Game, phase: PhaseRow, out: Screen) -> None:
    voters = table.voters(game, phase)
    recorded = {r.seat_id: r for r in session.scalars(
        select(ActionRow).where(ActionRow.phase_id == phase.id).order_by(ActionRow.id))}
    rows = []
    current = None
    for seat, key, choices in voters:
        row = recorded.get(seat.id)
        rows.append({"name": seat.name, "choice": row.args.get(key) if row else None})
        if row is None and current is None:
            current = {"name": seat.name, "choices": choices}
    earlier = session.scalars(select(PhaseRow).where(
        PhaseRow.game_id == game.id, PhaseRow.number == phase.number, PhaseRow.index < phase.index)).all()
    out.step = "vote"
    out.data.update(number=phase.number, voters=rows, current=current,
                    vote=1 + sum(1 for p in earlier if not table.script_of(game, p)),
                    done=sum(1 for r in rows if r["choice"] is not None))


# --------------------------------------------------------------------------- the end

def summary(session: Session, game: Game, lang: str) -> dict[str, Any]:
    """The game told to everyone once it is over: each seat's role, how each moment
    went (what was announced, and the votes, which the table cast aloud), the winners.
    The night's choices stay the narrator's: only what was announced is listed."""
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(game.state) if game.state else None
    players = []
    for s in game.seats:
        p = state.player(s.name) if state is not None and state.has_player(s.name) else None
        players.append({"name": s.name, "alive": bool(p and p.alive),
                        "role": ruleset.describe_choice("role", p.role, lang) if p else ""})
    phases = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                    PhaseRow.status == PhaseStatus.PUBLISHED)
                             .order_by(PhaseRow.index)).all()
    moments, winners, end_line = [], [], None
    votes_in_day: dict[int, int] = {}
    for phase in phases:
        rows = phase_events(session, phase)
        lines, _notes = worded(game, rows, lang)
        scripted = bool(table.script_of(game, phase))
        votes = []
        if not scripted:
            votes_in_day[phase.number] = votes_in_day.get(phase.number, 0) + 1
            for r in session.scalars(select(ActionRow).where(ActionRow.phase_id == phase.id)
                                     .order_by(ActionRow.id)):
                votes.append({"voter": r.seat.name, "choice": next(iter(r.args.values()), "")})
        moments.append({"night": scripted, "number": phase.number,
                        "vote": votes_in_day.get(phase.number, 0) if not scripted else 0,
                        "lines": lines, "votes": votes})
        for row in rows:
            if row.kind == "game_over":
                winners = list((row.data or {}).get("winners") or [])
                end_line = ruleset.describe(_event(row), lang, PUBLIC_READER)
    return {"game": game, "players": players, "moments": moments, "winners": winners,
            "end_line": end_line}
