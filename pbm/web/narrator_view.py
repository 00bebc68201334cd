"""What the narrator's phone shows now, derived from the game as stored.

Nothing here is kept in the browser: the step, the call of the night, the next voter
are all worked out from the open phase (its state, the taps recorded in it), so
reopening the page after the phone locked lands exactly where the narrator was.
The words the table hears come from the ruleset (its ``TableScript``: the calls and
what to read); every event shown is read through ``pbm.visibility``, the one filter:
what is announced aloud is what a reader of the public bulletin (``Viewer()``) may
read, the narrator's own notes (the Masters' events) are in small type. What the
rules tell a role at its call (a seer's answer) is the narrator's to signal in
silence: it has a screen of its own, large, between the confirm and the next call.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import url_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import MASTER, GameState
from engine.interface import Call, IdentifyTap, Tally, Viewer
from engine import table_screen
from engine.registry import get_ruleset

from .. import visibility
from ..models import ActionRow, EventRow, Game, GameStatus, PhaseRow, PhaseStatus, SeatPhoto
from ..operations import current_phase
from ..operations import table

PUBLIC_READER = Viewer()
AS_NARRATOR = Viewer(master=True)


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
    notes = [s.text for s in visibility.seen(rows, AS_NARRATOR, game.ruleset, lang)
             if s.visibility == MASTER and s.text]
    return public, notes


def last_published(session: Session, game: Game) -> PhaseRow | None:
    return session.scalar(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                 PhaseRow.status == PhaseStatus.PUBLISHED)
                          .order_by(PhaseRow.index.desc()).limit(1))


def phase_events(session: Session, phase: PhaseRow) -> list[EventRow]:
    return list(session.scalars(select(EventRow).where(EventRow.phase_id == phase.id, EventRow.seq >= 0)
                                .order_by(EventRow.seq)))


def answer_lines(game: Game, answer: table.Answer, lang: str) -> list[str]:
    """What the rules tell the actor about tonight's choice (a seer's answer), worded
    as the actor reads it, for the narrator to signal."""
    told = list(answer.told)
    return visibility.lines(told, Viewer(player=answer.actor), game.ruleset, lang) if told else []


def last_vote(game: Game, rows: list[EventRow], lang: str) -> dict[str, Any] | None:
    """The vote a resolved moment published (the morning's run-off, the stake), as the
    public may read it: each candidate's count, who voted whom, whom it chose, and,
    when the rules had to break a tie, between whom and by what rule."""
    ruleset = get_ruleset(game.ruleset)
    for x in visibility.seen(rows, PUBLIC_READER, game.ruleset, lang):
        tally = ruleset.tally(x.event, lang)
        if tally is not None:
            return vote_shown(game, tally)
    return None


def vote_shown(game: Game, tally: Tally) -> dict[str, Any]:
    """The vote as the narrator's page shows it (``engine.table_screen.vote_shown``, the
    offline page's too), its voters in seat order."""
    return table_screen.vote_shown([s.name for s in sorted(game.seats, key=lambda s: s.position)], tally)


def screen(session: Session, game: Game, lang: str, fix: int | None = None) -> Screen:
    if game.status == GameStatus.SETUP:
        return _setup(session, game)
    if game.status == GameStatus.OVER:
        return Screen("over", game)
    phase = current_phase(session, game)
    state = GameState.from_dict(phase.state_before) if phase is not None else None
    out = Screen("held", game, phase, faces(session, game, state))
    before = last_published(session, game)
    if before is not None:
        rows = phase_events(session, before)
        out.announce, out.notes = worded(game, rows, lang)
        out.data["tally"] = last_vote(game, rows, lang)
    if phase is None or not (phase.status == PhaseStatus.OPEN or table.waits_for_identities(phase)):
        return out  # a resolution waits for the Masters' desk
    script = table.script_of(game, phase)
    if script:
        _night(session, game, phase, script, out, lang, fix)
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


def _call_view(call: Call, lang: str, choices: list[str]) -> dict[str, Any]:
    tap = call.tap
    identifying = isinstance(tap, IdentifyTap)
    return {
        "name": call.name.read(lang),
        "open": call.open.read(lang),
        "do": call.do.read(lang),
        "identify": identifying,
        "count": tap.count if isinstance(tap, IdentifyTap) else (1 if tap.choices else 0),
        "optional": False if isinstance(tap, IdentifyTap) else tap.optional,
        "choices": choices,
        "holders": list(call.holders),
        "living": list(call.living),
    }


def _choices(call: Call, phase: PhaseRow) -> list[str]:
    """The faces the call may tap: an identifying call not those tapped for another role."""
    taken = {n for role, names in table.identified(phase).items() if role != call.role for n in names}
    return [c for c in call.tap.choices if c not in taken]


def _night(session: Session, game: Game, phase: PhaseRow, script: tuple[Call, ...],
           out: Screen, lang: str, fix: int | None) -> None:
    frame = table.night_frame(game)
    done = table.calls_done(phase)
    at = table.next_call(game, phase)
    confirmed = table.tapped(session, game, phase)
    previous = None
    if done:
        last = next((c for c in script if c.role == done[-1]), None)
        if last is not None:
            previous = {"close": last.close.read(lang)}
    out.data.update(number=phase.number, total=len(script), previous=previous,
                    sleep=frame.sleep.read(lang) if not done else None,
                    confirmed=[{"index": i, "name": c.name.read(lang), "taps": confirmed[c.role],
                                "correctable": bool(c.tap.choices)}
                               for i, c in enumerate(script) if c.role in confirmed])
    if fix is not None and 0 <= fix < len(script) and script[fix].role in confirmed and script[fix].tap.choices:
        out.step = "fix"
        out.data.update(index=fix, taps=confirmed[script[fix].role],
                        call=_call_view(script[fix], lang, _choices(script[fix], phase)))
        return
    waiting = table.answer_waiting(session, game, phase)
    if waiting is not None:
        out.step = "answer"
        out.data.update(index=waiting.index, answer={
            "name": waiting.call.name.read(lang),
            "asked": confirmed.get(waiting.call.role, []), "lines": answer_lines(game, waiting, lang),
            "again": waiting.again, "mark": waiting.mark,
            # A corrected answer after later calls: the narrator wakes that role again to
            # signal it, and sends it back to sleep (issue 31: there was no cue to).
            "wake": waiting.call.open.read(lang) if waiting.again else None,
            "sleep": waiting.call.close.read(lang) if waiting.again else None})
        return
    if at is None:
        out.step = "dawn"
        out.data["wake"] = frame.wake.read(lang)
        return
    out.step = "night"
    out.data.update(index=at, call=_call_view(script[at], lang, _choices(script[at], phase)))


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
    moments, winners, end_line = [], [], None
    votes_in_day: dict[int, int] = {}
    for phase in phases:
        mine = [x for x in read if x.phase_id == phase.id]
        scripted = bool(table.script_of(game, phase))
        votes, tie = [], None
        if not scripted:
            votes_in_day[phase.number] = votes_in_day.get(phase.number, 0) + 1
            for x in mine:
                tally = ruleset.tally(x.event, lang)
                if tally is not None:
                    shown = vote_shown(game, tally)
                    votes, tie = shown["votes"], shown["tie"]
        moments.append({"night": scripted, "number": phase.number,
                        "vote": votes_in_day.get(phase.number, 0) if not scripted else 0,
                        "lines": [x.text for x in mine if x.text], "votes": votes, "tie": tie})
        for x in mine:
            if x.event.kind == "game_over":
                winners = list(x.event.data.get("winners") or [])
                end_line = x.text
    return {"game": game, "players": players, "moments": moments, "winners": winners,
            "end_line": end_line}
