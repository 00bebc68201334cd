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
submission of the call's ``actor``. A confirmed call is not called again, but until
dawn the narrator may correct a mis-tapped face (``correct_call``: the tap is replaced,
and the Masters' log keeps both); a confirmed vote is never changed ("una volta
registrato il voto non sarà possibile cambiarlo").

What the rules tell a role about its choice tonight (a seer's answer) is shown to
the narrator large, after the confirm and before the next call, until the narrator
says it was signalled (``answer_shown``, which keeps a fingerprint of it in
``gm_input[ANSWERS_SHOWN]``); an answer that a correction changes is shown again.
"""
from __future__ import annotations

import secrets
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterator

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from engine import table_book as book
from engine.core import Event, GameState, Rejected
from engine.interface import IDENTIFY, Call, IdentifyTap, NightFrame, PowerTap, TableScript
from engine.registry import get_ruleset
from engine.table_book import ANSWERS_SHOWN, IDENTIFY_TAPS, SCRIPT_DONE, fingerprint

from .. import photos
from ..models import ActionRow, Game, GameStatus, PhaseRow, PhaseStatus, Seat, SeatPhoto, User
from .actions import lock_game, submit
from .base import OperationError, check_typed_name, current_phase, log
from .desk import answer_pending, close_now, preview
from .games import start_game

# The narrator's progress is kept in the open phase's gm_input under the keys of
# engine/table_book.py (SCRIPT_DONE, IDENTIFY_TAPS, ANSWERS_SHOWN): the checks of a tap
# are the engine's, the same the phone runs without a network.
__all__ = ["ANSWERS_SHOWN", "IDENTIFY_TAPS", "SCRIPT_DONE", "fingerprint"]
MAX_NAME = 40


@contextmanager
def refusals() -> Iterator[None]:
    """The engine's refusal of a tap as the service's (``OperationError``), or as the
    ruleset's own (``Rejected``), which its ruleset words."""
    try:
        yield
    except book.Refused as exc:
        if exc.by_rules:
            raise Rejected(exc.code, **exc.params) from None
        raise OperationError(exc.code, **exc.params) from None


def table_of(ruleset_key: str) -> TableScript | None:
    """The ruleset's ability to be played at a table (None: it is not)."""
    return get_ruleset(ruleset_key).ability(TableScript)


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
    check_typed_name(name)
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
    return book.calls_done(phase.gm_input)


def next_call(game: Game, phase: PhaseRow) -> int | None:
    """The index of the call the narrator is at, None when every call is done."""
    return book.next_call(script_of(game, phase), phase.gm_input)


def identified(phase: PhaseRow) -> dict[str, list[str]]:
    """The faces tapped so far tonight, by role."""
    return book.identified(phase.gm_input)


def _checked_taps(game: Game, phase: PhaseRow, call: Call, taps: list[str]) -> list[str]:
    """The faces tapped for ``call``, as the call allows them (``book.checked_taps``)."""
    with refusals():
        return book.checked_taps(call, taps, phase.gm_input)


def _apply_taps(session: Session, config: dict[str, Any], game: Game, phase: PhaseRow,
                script: tuple[Call, ...], call: Call, taps: list[str], gm: dict[str, Any], *,
                now: datetime, by: User) -> None:
    """Record checked ``taps`` for ``call``: the first night's in ``gm`` (the whole
    identification once every identifying call has its faces), a power's as its
    actor's submission."""
    tap = call.tap
    if isinstance(tap, IdentifyTap):
        book.identify_into(gm, script, call, taps)
    elif isinstance(tap, PowerTap) and tap.actor is not None and taps:
        actor = game.seat_by_name(tap.actor)
        submit(session, config, game, actor, {tap.key: taps[0]}, source="master",
               source_detail="narrator", now=now, by_user=by, expected_phase_id=phase.id,
               final=True)


def record_call(session: Session, config: dict[str, Any], game: Game, *, index: int,
                taps: list[str], now: datetime, by: User) -> None:
    """Confirm call ``index`` of tonight's script with the faces tapped (see
    ``_checked_taps`` for what each call takes).

    ``index`` is the call the narrator's page showed: a page left behind (a second
    tap of Confirm, a reload of an old page) is refused rather than recorded against
    the wrong call."""
    lock_game(session, game)
    phase = _open_phase(session, game, taps=True)
    script = script_of(game, phase)
    if not script:
        raise OperationError("not_a_night")
    at = next_call(game, phase)
    if at is None or index != at:
        raise OperationError("stale_call")
    call = script[index]
    taps = _checked_taps(game, phase, call, taps)
    gm = dict(phase.gm_input or {})
    _apply_taps(session, config, game, phase, script, call, taps, gm, now=now, by=by)
    gm[SCRIPT_DONE] = [*calls_done(phase), call.role]
    phase.gm_input = gm
    log(session, game, by, "narrator_call", now, phase=phase.index, role=call.role, taps=taps)


def tapped(session: Session, game: Game, phase: PhaseRow) -> dict[str, list[str]]:
    """The faces confirmed so far tonight, by the role called: the first night's
    identities, a power's target as its actor's submission stands."""
    def last_args(tap: PowerTap) -> dict[str, Any] | None:
        rows = _power_rows(session, game, phase, tap)
        return dict(rows[-1].args) if rows else None
    return book.confirmed_faces(script_of(game, phase), phase.gm_input, last_args)


def _power_rows(session: Session, game: Game, phase: PhaseRow, tap: PowerTap) -> list[ActionRow]:
    """The actor's submissions of the power's kind in this night, oldest first."""
    seat = game.seat_by_name(tap.actor) if tap.actor else None
    if seat is None:
        return []
    kind = get_ruleset(game.ruleset).kind_of_key(tap.key)
    query = select(ActionRow).where(ActionRow.phase_id == phase.id, ActionRow.seat_id == seat.id)
    if kind is not None:
        query = query.where(ActionRow.kind == kind)
    return list(session.scalars(query.order_by(ActionRow.id)))


def correct_call(session: Session, config: dict[str, Any], game: Game, *, index: int,
                 taps: list[str], now: datetime, by: User) -> None:
    """Replace the faces confirmed for call ``index`` tonight, a mis-tap seen before
    dawn. Only a night still open (the narrator has not announced the dawn) and a call
    already confirmed; the taps are checked as at the call. A power's earlier tap is
    taken back (its submission removed, the narrator being its only source) and the
    new one recorded; the Masters' log keeps what was tapped and what replaced it."""
    lock_game(session, game)
    phase = _open_phase(session, game, taps=True)
    script = script_of(game, phase)
    if not script:
        raise OperationError("not_a_night")
    # The page offers "Correct" only on a confirmed call with faces to tap: anything
    # else comes from a page left behind.
    if not 0 <= index < len(script) or script[index].role not in calls_done(phase):
        raise OperationError("stale_call")
    call = script[index]
    if not book.correctable(call):
        raise OperationError("stale_call")
    taps = _checked_taps(game, phase, call, taps)
    before = tapped(session, game, phase).get(call.role, [])
    if isinstance(call.tap, PowerTap):
        for row in _power_rows(session, game, phase, call.tap):
            session.delete(row)
        session.flush()
    gm = dict(phase.gm_input or {})
    _apply_taps(session, config, game, phase, script, call, taps, gm, now=now, by=by)
    phase.gm_input = gm
    log(session, game, by, "narrator_correction", now, phase=phase.index, role=call.role,
        before=before, taps=taps)


def _preview_events(session: Session, game: Game) -> list[Event]:
    """Tonight resolved as it stands (the Masters' preview), its events."""
    try:
        result = preview(session, game)
    except Rejected:  # a preview must never stop the night
        return []
    return list(result.events) if result is not None else []


def _told(events: list[Event], actor: str | None) -> list[Event]:
    """What the rules tell ``actor`` in private about tonight's choice (a seer's
    answer), for the narrator to signal at once: among ``events``, tonight resolved as
    it stands by the Masters' preview (the phase's own seed, nothing stored). The events
    are a draft's: only a Master may read them (``pbm.visibility``), and the narrator is
    this game's Master."""
    return book.told(events, actor)


@dataclass(frozen=True)
class Answer:
    """An answer the narrator has to signal now: call ``index`` of tonight, its
    ``actor`` and what the rules tell them (``told``: empty when a correction took
    back what was signalled before), ``again``: it was signalled once already."""

    index: int
    call: Call
    actor: str
    told: tuple[Event, ...]
    again: bool

    @property
    def mark(self) -> str:
        return fingerprint(list(self.told))


def answer_waiting(session: Session, game: Game, phase: PhaseRow) -> Answer | None:
    """The first confirmed call of tonight (in the script's order) whose answer the
    narrator has not signalled as it stands now: just confirmed, or changed by a
    correction since."""
    script = script_of(game, phase)
    done = set(calls_done(phase))
    shown = (phase.gm_input or {}).get(ANSWERS_SHOWN) or {}
    events = None
    for index, call in enumerate(script):
        tap = call.tap
        if call.role not in done or not isinstance(tap, PowerTap) or not tap.actor:
            continue
        if events is None:
            events = _preview_events(session, game)
        told = _told(events, tap.actor)
        now = fingerprint(told) if told else None
        if now != shown.get(call.role):
            return Answer(index, call, tap.actor, tuple(told), again=call.role in shown)
    return None


def answer_shown(session: Session, game: Game, *, index: int, seen: str, now: datetime,
                 by: User) -> None:
    """The narrator signalled the answer of call ``index`` (``seen``: its fingerprint as
    the page showed it, so an answer changed meanwhile is shown, not skipped)."""
    lock_game(session, game)
    phase = _open_phase(session, game, taps=True)
    waiting = answer_waiting(session, game, phase)
    if waiting is None or waiting.index != index or waiting.mark != seen:
        raise OperationError("stale_call")
    gm = dict(phase.gm_input or {})
    shown = dict(gm.get(ANSWERS_SHOWN) or {})
    if waiting.told:
        shown[waiting.call.role] = waiting.mark
    else:
        shown.pop(waiting.call.role, None)
    gm[ANSWERS_SHOWN] = shown
    phase.gm_input = gm


# --------------------------------------------------------------------------- the votes

def voters(game: Game, phase: PhaseRow) -> list[tuple[Seat, str, list[str]]]:
    """Who votes now, in seat order: (seat, the submission key, the legal choices)."""
    by_name = {s.name: s for s in game.seats}
    return [(by_name[name], key, choices)
            for name, key, choices in book.voters(game.ruleset, phase.state_before, by_name)]


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
