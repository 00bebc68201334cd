"""What the narrator's phone shows now, derived from the game as stored.

Nothing here is kept in the browser: the step, the call of the night, the next voter
are all worked out from the open phase (its state, the taps recorded in it), so
reopening the page after the phone locked lands exactly where the narrator was.
The words the table hears come from the ruleset (its ``TableScript``: the calls and
what to read); every event shown is read through ``pbm.visibility``, the one filter:
what is announced aloud is what a reader of the public bulletin (``Viewer()``) may
read, the narrator's own notes (the Masters' events) are in small type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import url_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import MASTER, GameState
from engine.interface import Call, IdentifyTap, Viewer
from engine.registry import get_ruleset

from .. import visibility
from ..models import ActionRow, EventRow, Game, GameStatus, PhaseRow, PhaseStatus, SeatPhoto
from ..operations import current_phase
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
    public = visibility.lines(rows, PUBLIC_READER, game.ruleset, lang)
    notes = [s.text for s in visibility.seen(rows, NARRATOR, game.ruleset, lang)
             if s.visibility == MASTER and s.text]
    return public, notes


def last_published(session: Session, game: Game) -> PhaseRow | None:
    return session.scalar(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                 PhaseRow.status == PhaseStatus.PUBLISHED)
                          .order_by(PhaseRow.index.desc()).limit(1))


def phase_events(session: Session, phase: PhaseRow) -> list[EventRow]:
    return list(session.scalars(select(EventRow).where(EventRow.phase_id == phase.id, EventRow.seq >= 0)
                                .order_by(EventRow.seq)))


def answers_for(session: Session, game: Game, actor: str | None, lang: str) -> list[str]:
    """What the rules tell ``actor`` about tonight's choice (a seer's answer), worded
    as the actor reads it, for the narrator to signal at once."""
    told = table.told_tonight(session, game, actor)
    return visibility.lines(told, Viewer(player=actor), game.ruleset, lang) if told else []


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


def _night(session: Session, game: Game, phase: PhaseRow, script: tuple[Call, ...],
           out: Screen, lang: str) -> None:
    frame = table.night_frame(game)
    done = table.calls_done(phase)
    at = table.next_call(game, phase)
    previous = None
    if done:
        last = next((c for c in script if c.role == done[-1]), None)
        if last is not None:
            actor = None if isinstance(last.tap, IdentifyTap) else last.tap.actor
            previous = {"close": last.close.read(lang), "answers": answers_for(session, game, actor, lang)}
    out.data.update(number=phase.number, total=len(script), previous=previous,
                    sleep=frame.sleep.read(lang) if not done else None)
    if at is None:
        out.step = "dawn"
        out.data["wake"] = frame.wake.read(lang)
        return
    call = script[at]
    tap = call.tap
    taken = {n for names in table.identified(phase).values() for n in names}
    identifying = isinstance(tap, IdentifyTap)
    out.step = "night"
    out.data.update(index=at, call={
        "name": call.name.read(lang),
        "open": call.open.read(lang),
        "do": call.do.read(lang),
        "identify": identifying,
        "count": tap.count if identifying else (1 if tap.choices else 0),
        "optional": False if identifying else tap.optional,
        "actor": None if identifying else tap.actor,
        "choices": [c for c in tap.choices if c not in taken],
        "holders": list(call.holders),
        "living": list(call.living),
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
    The night's choices stay the narrator's: only what was announced is listed, read
    through ``pbm.visibility`` as the public reads it (the votes too: as the rules
    published them, never the raw submissions)."""
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
    rows = session.scalars(select(EventRow).where(
        EventRow.phase_id.in_([p.id for p in phases]), EventRow.seq >= 0,
        visibility.readable_by(PUBLIC_READER)).order_by(EventRow.phase_id, EventRow.seq)).all()
    read = visibility.seen(rows, PUBLIC_READER, game.ruleset, lang)
    seat_order = {s.name: s.position for s in game.seats}
    moments, winners, end_line = [], [], None
    votes_in_day: dict[int, int] = {}
    for phase in phases:
        mine = [x for x in read if x.phase_id == phase.id]
        scripted = bool(table.script_of(game, phase))
        votes = []
        if not scripted:
            votes_in_day[phase.number] = votes_in_day.get(phase.number, 0) + 1
            for x in mine:
                tally = ruleset.tally(x.event, lang)
                if tally is not None and tally.votes:
                    cast = sorted(tally.votes, key=lambda v: seat_order.get(v[0], len(seat_order)))
                    votes = [{"voter": voter, "choice": choice} for voter, choice in cast]
        moments.append({"night": scripted, "number": phase.number,
                        "vote": votes_in_day.get(phase.number, 0) if not scripted else 0,
                        "lines": [x.text for x in mine if x.text], "votes": votes})
        for x in mine:
            if x.event.kind == "game_over":
                winners = list(x.event.data.get("winners") or [])
                end_line = x.text
    return {"game": game, "players": players, "moments": moments, "winners": winners,
            "end_line": end_line}
