"""A game at the table, run from the narrator's phone (rulesets with the
``TableScript`` ability, engine/interface.py).

The players have no accounts: they sit in a circle and join in seat order on the
narrator's phone (a name and, if they like, a face), so their seats have no user
and nothing is ever mailed to them. The cards are dealt on paper; the narrator
learns who holds what on the first night by tapping faces, and records every night
choice and every vote with a tap. Everything game-specific comes from the ruleset:
the composition (``default_composition``, ``roles``), the calls of the night
(``TableScript.night_script``: what to read, what to tap), who may vote for whom
(``forms``).

The narrator's progress through tonight's script is stored on the open phase
(``gm_input[SCRIPT_DONE]``: the roles already called, in order), so a phone that
locks or reloads mid-night reopens at the same call. The first night's taps
(``IdentifyTap``) go to ``gm_input[IDENTIFY]`` once they are all in, which the
ruleset reads when the night is resolved; a power's tap (``PowerTap``) is the
submission of the call's ``actor``. Every tap is final once confirmed: a confirmed
call is not called again, a confirmed vote is not changed.
"""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from engine.core import PRIVATE, Event, GameState, Rejected
from engine.interface import IDENTIFY, Call, IdentifyTap, NightFrame, PowerTap, TableScript
from engine.registry import get_ruleset

from .. import photos
from ..models import Game, GameStatus, PhaseRow, PhaseStatus, Seat, SeatPhoto, User
from .actions import lock_game, submit
from .base import OperationError, current_phase, log
from .desk import answer_pending, close_now, preview
from .games import start_game

# gm_input key of the narrator's progress through the night script (the roles called).
SCRIPT_DONE = "script_done"
# gm_input[IDENTIFY] (engine/interface.py), the first night's taps as the ruleset's
# resolve reads them, is set only once every identifying call is confirmed, so a night
# closed early (from the Masters' desk) waits for the rest (Pending) instead of being
# refused for a count.
# gm_input key of the first night's taps so far.
IDENTIFY_TAPS = "identify_taps"
MAX_NAME = 40


def table_of(ruleset_key: str) -> TableScript | None:
    """The ruleset's ability to be played at a table (None: it is not)."""
    return get_ruleset(ruleset_key).ability(TableScript)


def narrated(ruleset_key: str) -> bool:
    """Whether the game is run at a table from the narrator's phone: its ruleset
    gives the narrator a script of the night."""
    return table_of(ruleset_key) is not None


def _table(game: Game) -> TableScript:
    table = table_of(game.ruleset)
    if table is None:
        raise OperationError("not_a_table_game")
    return table


def _require_narrated(game: Game) -> None:
    _table(game)


# --------------------------------------------------------------------------- seating

def seat_at_table(session: Session, game: Game, *, name: str, photo: bytes | None,
                  now: datetime, by: User | None = None) -> Seat:
    """The next player round the circle (clockwise from the narrator): a name and,
    optionally, a picture (stored small, see ``pbm/photos.py``)."""
    _require_narrated(game)
    if game.status != GameStatus.SETUP:
        raise OperationError("game_started")
    name = " ".join((name or "").split())
    if not name:
        raise OperationError("name_required")
    if len(name) > MAX_NAME:
        raise OperationError("name_too_long", limit=MAX_NAME)
    if any(s.name.casefold() == name.casefold() for s in game.seats):
        raise OperationError("name_taken", name=name)
    if len(game.seats) >= get_ruleset(game.ruleset).max_players:
        raise OperationError("too_many_players", maximum=get_ruleset(game.ruleset).max_players)
    picture = None
    if photo:
        try:
            picture = photos.normalise(photo)
        except photos.PhotoError as exc:
            raise OperationError("photo_" + exc.code) from None
    seat = Seat(game_id=game.id, user_id=None, name=name, position=len(game.seats),
                token=secrets.token_urlsafe(12))
    session.add(seat)
    game.seats.append(seat)
    session.flush()
    if picture is not None:
        session.add(SeatPhoto(seat_id=seat.id, content_type=photos.CONTENT_TYPE, data=picture))
    log(session, game, by, "seat_at_table", now, name=name, photo=picture is not None)
    return seat


def unseat(session: Session, game: Game, *, name: str, now: datetime, by: User | None = None) -> None:
    """Take a player out before the game starts (a typo, someone who left); the
    others keep their order round the circle."""
    _require_narrated(game)
    if game.status != GameStatus.SETUP:
        raise OperationError("game_started")  # seats never change once the game is on
    seat = game.seat_by_name(name)
    if seat is None:
        raise OperationError("unknown_player", name=name)
    session.execute(delete(SeatPhoto).where(SeatPhoto.seat_id == seat.id))
    game.seats.remove(seat)
    session.delete(seat)
    for position, s in enumerate(game.seats):
        s.position = position
    session.flush()
    log(session, game, by, "unseat", now, name=name)


def photo_of(session: Session, seat_id: int) -> SeatPhoto | None:
    return session.get(SeatPhoto, seat_id)


# --------------------------------------------------------------------------- composition

def standard_composition(game: Game) -> dict[str, int]:
    """The ruleset's standard composition for the players seated now ({} when it has none)."""
    return dict(get_ruleset(game.ruleset).default_composition(len(game.seats)) or {})


def checked_composition(game: Game, given: dict[str, Any]) -> dict[str, int]:
    """The narrator's composition, each count a whole number of the ruleset's roles,
    as many cards as players."""
    known = {r.name for r in get_ruleset(game.ruleset).roles()}
    out: dict[str, int] = {}
    for role, raw in given.items():
        if role not in known:
            raise OperationError("unknown_role", role=role)
        try:
            count = int(str(raw).strip() or 0)
        except ValueError:
            raise OperationError("bad_count", role=role) from None
        if count < 0 or count > len(game.seats):
            raise OperationError("bad_count", role=role)
        if count:
            out[role] = count
    if sum(out.values()) != len(game.seats):
        raise OperationError("composition_size", roles=sum(out.values()), players=len(game.seats))
    return out


def start_at_table(session: Session, config: dict[str, Any], game: Game, *,
                   composition: dict[str, Any] | None, now: datetime,
                   by: User | None = None) -> PhaseRow:
    """Fix the circle and the cards and open the first night. The cards are dealt
    on paper, so every seat starts with no role; ``composition`` None: the standard."""
    _require_narrated(game)
    if game.status != GameStatus.SETUP:
        raise OperationError("game_started")
    ruleset = get_ruleset(game.ruleset)
    if len(game.seats) < ruleset.min_players:
        raise OperationError("too_few_players", players=len(game.seats), minimum=ruleset.min_players)
    cards = (checked_composition(game, composition) if composition is not None
             else standard_composition(game))
    if not cards:
        raise OperationError("no_standard_composition", players=len(game.seats))
    game.auto_publish = True  # the narrator confirms each moment; nothing waits for a desk
    phase = start_game(session, config, game, now=now, by=by,
                       roles={s.name: "" for s in game.seats},
                       options={"composition": cards})
    game.composition = cards
    return phase


# --------------------------------------------------------------------------- the night

def waits_for_identities(phase: PhaseRow) -> bool:
    """A first night closed from the Masters' desk before the narrator tapped every
    face: resolved, it waits (``Pending("identify")``) as a draft. The narrator's
    page goes on with the calls, and the last confirm resolves it again."""
    return (phase.status == PhaseStatus.DRAFT and bool(phase.pending)
            and all(p.get("kind") == IDENTIFY for p in phase.pending))


def _open_phase(session: Session, game: Game, *, taps: bool = False) -> PhaseRow:
    phase = current_phase(session, game)
    if game.status != GameStatus.RUNNING or phase is None:
        raise OperationError("no_open_phase")
    if phase.status != PhaseStatus.OPEN and not (taps and waits_for_identities(phase)):
        raise OperationError("no_open_phase")
    return phase


def script_of(game: Game, phase: PhaseRow) -> tuple[Call, ...]:
    """Tonight's calls (the ruleset's night script of the state the phase opened with)."""
    return _table(game).night_script(GameState.from_dict(phase.state_before))


def night_frame(game: Game) -> NightFrame:
    """What the narrator reads before the first call and after the last."""
    return _table(game).night_frame()


def calls_done(phase: PhaseRow) -> list[str]:
    return list((phase.gm_input or {}).get(SCRIPT_DONE) or [])


def next_call(game: Game, phase: PhaseRow) -> int | None:
    """The index of the call the narrator is at, None when every call is done."""
    done = set(calls_done(phase))
    return next((i for i, call in enumerate(script_of(game, phase)) if call.role not in done), None)


def identified(phase: PhaseRow) -> dict[str, list[str]]:
    """The faces tapped so far tonight, by role."""
    taps = (phase.gm_input or {}).get(IDENTIFY_TAPS) or {}
    return {role: list(names) for role, names in taps.items()}


def record_call(session: Session, config: dict[str, Any], game: Game, *, index: int,
                taps: list[str], now: datetime, by: User) -> None:
    """Confirm call ``index`` of tonight's script with the faces tapped.

    ``index`` is the call the narrator's page showed: a page left behind (a second
    tap of Confirm, a reload of an old page) is refused rather than recorded against
    the wrong call. An identifying call needs exactly as many faces as the role has
    copies, none tapped for another role; a power needs one of its choices (or none
    when the power is optional); a call nobody can answer takes no tap."""
    lock_game(session, game)
    phase = _open_phase(session, game, taps=True)
    script = script_of(game, phase)
    if not script:
        raise OperationError("not_a_night")
    at = next_call(game, phase)
    if at is None or index != at:
        raise OperationError("stale_call")
    call = script[index]
    tap = call.tap
    taps = [str(t) for t in taps]
    if len(set(taps)) != len(taps) or any(t not in tap.choices for t in taps):
        raise OperationError("bad_tap")
    gm = dict(phase.gm_input or {})
    if isinstance(tap, IdentifyTap):
        if len(taps) != tap.count:
            raise OperationError("tap_count", expected=tap.count, got=len(taps))
        taken = {n: role for role, names in identified(phase).items() for n in names}
        twice = next((t for t in taps if t in taken), None)
        if twice is not None:
            raise OperationError("tapped_twice", player=twice)
        gm[IDENTIFY_TAPS] = {**identified(phase), call.role: taps}
        if all(c.role in gm[IDENTIFY_TAPS] for c in script if isinstance(c.tap, IdentifyTap)):
            gm[IDENTIFY] = gm[IDENTIFY_TAPS]
    elif isinstance(tap, PowerTap):
        if tap.actor is None:
            if taps:
                raise OperationError("bad_tap")
        elif not taps and not tap.optional:
            raise OperationError("tap_count", expected=1, got=0)
        elif len(taps) > 1:
            raise OperationError("tap_count", expected=1, got=len(taps))
        elif taps:
            actor = game.seat_by_name(tap.actor)
            submit(session, config, game, actor, {tap.key: taps[0]}, source="master",
                   source_detail="narrator", now=now, by_user=by, expected_phase_id=phase.id,
                   final=True)
    else:
        raise OperationError("unknown_tap", kind=type(tap).__name__)
    gm[SCRIPT_DONE] = [*calls_done(phase), call.role]
    phase.gm_input = gm
    log(session, game, by, "narrator_call", now, phase=phase.index, role=call.role, taps=taps)


def told_tonight(session: Session, game: Game, actor: str | None) -> list[Event]:
    """What the rules tell ``actor`` in private about tonight's choice (a seer's
    answer), for the narrator to signal at once: tonight resolved as it stands, by the
    Masters' preview (the phase's own seed, nothing stored). A refusal of the actor's
    own choice is not an answer to signal. The events are a draft's: only a Master may
    read them (``pbm.visibility``), and the narrator is this game's Master."""
    if not actor:
        return []
    try:
        result = preview(session, game)
    except Rejected:  # a preview must never stop the night
        return []
    if result is None:
        return []
    return [e for e in result.events if e.visibility == PRIVATE and actor in e.to
            and e.kind != "rejected_at_resolution"]


# --------------------------------------------------------------------------- the votes

def voters(game: Game, phase: PhaseRow) -> list[tuple[Seat, str, list[str]]]:
    """Who votes now, in seat order: (seat, the submission key, the legal choices)."""
    ruleset = get_ruleset(game.ruleset)
    state = GameState.from_dict(phase.state_before)
    out = []
    for seat in game.seats:
        for form in ruleset.forms(state, seat.name):
            if form.fields:
                out.append((seat, form.fields[0].name, list(form.fields[0].choices)))
                break
    return out


def record_vote(session: Session, config: dict[str, Any], game: Game, *, voter: str, choice: str,
                now: datetime, by: User) -> None:
    """One vote tapped on the narrator's phone: checked by the ruleset, and final
    (a second vote by the same player in this moment is refused)."""
    lock_game(session, game)
    phase = _open_phase(session, game)
    if script_of(game, phase):
        raise OperationError("not_a_vote")
    seat = game.seat_by_name(voter)
    if seat is None:
        raise OperationError("unknown_player", name=voter)
    now_voting = voters(game, phase)
    if not now_voting:
        raise OperationError("not_a_vote")
    # A player the ruleset gives no vote (dead, in the run-off) is still asked through
    # the moment's key, so the refusal is the ruleset's own, worded by it.
    key = next((k for s, k, _c in now_voting if s.id == seat.id), now_voting[0][1])
    submit(session, config, game, seat, {key: choice}, source="master", source_detail="narrator",
           now=now, by_user=by, expected_phase_id=phase.id, final=True)
    log(session, game, by, "narrator_vote", now, phase=phase.index, voter=voter, choice=choice)


# --------------------------------------------------------------------------- closing a moment

def close_moment(factory: sessionmaker[Session], config: dict[str, Any], game_id: int, *,
                 phase_id: int, now: datetime, by_user_id: int) -> bool:
    """The narrator's confirm: dawn after the last call, the evening after the run-off.

    A night closes only once every call of the script was confirmed (the first
    night's identities are all in); ``phase_id`` is the moment the page showed, so a
    second tap does not close the next one too."""
    with factory() as session, session.begin():
        game = session.get(Game, game_id)
        phase = current_phase(session, game)
        held = phase is not None and waits_for_identities(phase)
        if phase is None or phase.id != phase_id or not (phase.status == PhaseStatus.OPEN or held):
            raise OperationError("stale_call")
        if script_of(game, phase) and next_call(game, phase) is not None:
            raise OperationError("calls_left")
        if held:  # the taps are in gm_input now: resolve the draft again, and publish it
            answer_pending(session, config, game, phase, {}, now, by=session.get(User, by_user_id))
            return True
    return close_now(factory, config, game_id, now, by_user_id=by_user_id)
