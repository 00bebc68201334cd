"""A stored message applied: its commands carried out for the seat it speaks for, and
its receipt queued, in the transaction that records the outcome on its row.

Messages are applied a batch at a time, a transaction per game (``apply_many``), each in a
savepoint of its own, so that one that fails is recorded as an error and the others
still count; ``process`` applies one alone. Who a message speaks for is identify.py's
question, what it is answered receipts.py's.
"""
from __future__ import annotations

import logging
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session, object_session, sessionmaker

from ... import operations
from ...i18n import gettext_in
from ...models import Game, GameMaster, GameStatus, InboundRow, OutboxRow, PhaseRow, Seat, User
from ..reading.wording import describe_error
from ..reading.parse import ParsedMessage, header_token, parse_message
from ..reading.parse_body import parse_bytes
from .carry_out import Origin, carry_out
from .mailbox import headers_of
from .identify import Ignored, Refused, master_local_part, seat_by_token, speaker
from .receipts import commands_receipt, master_receipt, newest_mail_hint, oversized, refuse, refuse_oversized

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    """What became of a message, as its row records it."""
    status: str  # processed | ignored | refused | duplicate | error
    applied: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def apply_many(factory: sessionmaker[Session], config: dict[str, Any], ids: list[int],
               now: datetime, lock: AbstractContextManager[Any] | None = None) -> dict[int, Outcome]:
    """Apply stored messages, oldest first, a transaction per game: the commit
    that must reach the disk is paid once for a game's messages, not once per
    message, and a game's phase row (which recording a vote locks until the
    commit) is held only while that game's messages are applied, never while
    another game's are parsed and answered: a web vote of one game does not
    wait for a batch's mail to other games, and two holders can never hold two
    games' rows each, the one waiting for the other (a deadlock). The game a
    message is for is read from the reply token in its headers
    (``_by_game``); the messages of one game keep their order. ``lock``: taken
    around each game's transaction, not the whole batch (the worker's mail
    lock, which a boundary takes to read its mail first: it waits for one
    game's messages at most).

    Each message runs in a savepoint of its own: one that makes the code fail
    is rolled back alone and recorded as an error, and the rest still count.
    A message that opens the next answer window of its game ends the
    transaction early, so the messages after it find that window open. If the
    transaction itself fails (a deadlock between two workers, a lock timeout),
    what it held is applied again one message at a time, each with its own
    commit, as ``process`` does; a database that is down stops the round, and
    the next round finds the rows still stored.

    Returns an outcome per message applied here; a message another worker is
    applying at this moment has none (that worker records it).
    """
    outcomes: dict[int, Outcome] = {}
    for group in _by_game(factory, config, sorted(set(ids))):
        with lock or nullcontext():
            outcomes.update(_apply_group(factory, config, group, now))
    return outcomes


def _apply_group(factory: sessionmaker[Session], config: dict[str, Any], ids: list[int],
                 now: datetime) -> dict[int, Outcome]:
    """``apply_many`` for messages of one game (or of none), in one transaction."""
    outcomes: dict[int, Outcome] = {}
    todo = list(ids)
    while todo:
        try:
            done, settle_game = _apply_in_one_transaction(factory, config, todo, now)
        except Exception as exc:
            # Nothing of this transaction was committed: one by one instead.
            log.warning("applying %d messages together failed (%s): one by one",
                        len(todo), type(exc).__name__, exc_info=True)
            for inbound_id in todo:
                outcomes[inbound_id] = process(factory, config, inbound_id, now)
            return outcomes
        for inbound_id, outcome in done:
            if outcome is not None:
                outcomes[inbound_id] = outcome
        todo = todo[len(done):]
        if settle_game is not None:
            _settle(factory, config, settle_game, now)
    return outcomes


def _by_game(factory: sessionmaker[Session], config: dict[str, Any], ids: list[int]) -> list[list[int]]:
    """The messages grouped by the game their reply token names (a player's seat or
    a Master's reply address), each group in order, the groups in the order of
    their first message; the messages with no such token (which record nothing
    in any game: refused, ignored) make one group of their own. Only the headers
    are read here; who really speaks is still decided message by message."""
    if len(ids) <= 1:
        return [ids] if ids else []
    local = master_local_part(config)
    with factory() as session:
        tokens = {row_id: header_token(headers_of(raw), local) for row_id, raw in session.execute(
            select(InboundRow.id, InboundRow.raw).where(InboundRow.id.in_(ids)))}
        wanted = {t for t in tokens.values() if t}
        games: dict[str, int] = {}
        if wanted:
            games.update(session.execute(select(Seat.token, Seat.game_id).where(Seat.token.in_(wanted))).all())
            games.update(session.execute(select(GameMaster.token, GameMaster.game_id)
                                         .where(GameMaster.token.in_(wanted - set(games)))).all())
    groups: dict[int | str | None, list[int]] = {}
    for row_id in ids:
        token = tokens.get(row_id)
        # A token matched only without its case (identify.py) is grouped by itself.
        key = games.get(token, token) if token else None
        groups.setdefault(key, []).append(row_id)
    return list(groups.values())


def _apply_in_one_transaction(factory: sessionmaker[Session], config: dict[str, Any], ids: list[int],
                              now: datetime) -> tuple[list[tuple[int, Outcome | None]], int | None]:
    """Apply ``ids`` in order until all are done or one opens a window; commit.
    Returns (id, outcome) for each message handled, and the game to settle."""
    done: list[tuple[int, Outcome | None]] = []
    settle_game = None
    # Per game, whether its moments are answer windows: asked once per batch,
    # as asking the ruleset costs a copy of the whole game state. (A game that
    # turned windowed meanwhile is settled by the worker's next tick.)
    windowed: dict[int, bool] = {}
    with factory() as session, session.begin():
        _hold_what_is_loaded(session)
        # Claimed until the commit; one that another worker holds is that
        # worker's to apply (waiting for it could deadlock two batches).
        claimed = {row.id: row for row in session.scalars(
            select(InboundRow).where(InboundRow.id.in_(ids)).order_by(InboundRow.id)
            .with_for_update(skip_locked=True))}
        for inbound_id in ids:
            row = claimed.get(inbound_id)
            if row is None:
                done.append((inbound_id, None))
                continue
            if row.status != "stored":
                done.append((inbound_id, Outcome(row.status)))
                continue
            try:
                with session.begin_nested():
                    outcome = _process(session, config, row, now)
                    row.status = outcome.status
                    row.result = {"applied": outcome.applied, "errors": outcome.errors}
            except (OperationalError, InterfaceError):
                raise  # the database, not the message: the whole batch waits
            except Exception as exc:
                outcome = _record_error(row, inbound_id, exc)
            done.append((inbound_id, outcome))
            game_id = row.game_id
            if outcome.applied and game_id is not None:
                if game_id not in windowed:
                    windowed[game_id] = _opens_windows(session, game_id)
                if windowed[game_id]:
                    settle_game = game_id
                    break
    return done, settle_game


def _hold_what_is_loaded(session: Session) -> None:
    """Keep every object this session loads until it closes. The session
    forgets an object nobody references, so each message of a batch would
    load its game, seat, player and Masters again; held, they are read once
    a batch. Within one transaction this
    sees nothing older than the transaction itself could: the checks that
    race (the phase still open, the row not yet applied) lock and re-read."""
    held: list[object] = []
    session.info["held"] = held
    event.listen(session, "loaded_as_persistent", lambda _session, instance: held.append(instance))


def _opens_windows(session: Session, game_id: int) -> bool:
    game = session.get(Game, game_id)
    return game is not None and operations.timing.moments(game).closes_early


def _record_error(row: InboundRow, inbound_id: int, exc: Exception) -> Outcome:
    # A message that makes the code fail would otherwise come back on every
    # round and hold up all the mail behind it: keep it, raw, for the
    # Masters, and go on.
    log.error("inbound message %s could not be processed", inbound_id, exc_info=exc)
    row.status = "error"
    row.result = {"applied": [], "errors": [f"{type(exc).__name__}: {exc}"[:500]]}
    return Outcome("error", errors=[type(exc).__name__])


def _settle(factory: sessionmaker[Session], config: dict[str, Any], game_id: int, now: datetime) -> None:
    # An answer that completed a window: the next one opens now, not at the
    # worker's next tick (operations/windows.py); the worker covers a crash here.
    try:
        operations.settle(factory, config, game_id, now)
    except Exception:  # the message is recorded; the worker resolves what is due
        log.exception("settling game %s after its mail failed", game_id)


def process(factory: sessionmaker[Session], config: dict[str, Any], inbound_id: int,
            now: datetime) -> Outcome:
    try:
        with factory() as session, session.begin():
            # Locked until this commits: a second worker reading the same
            # mailbox waits here, then finds the message already processed.
            row = session.get(InboundRow, inbound_id, with_for_update=True)
            if row.status != "stored":
                return Outcome(row.status)
            outcome = _process(session, config, row, now)
            row.status = outcome.status
            row.result = {"applied": outcome.applied, "errors": outcome.errors}
            game_id = row.game_id
    except (OperationalError, InterfaceError):
        # The database, not the message: leave the row stored and the mail
        # unmarked, so the next round tries again.
        raise
    except Exception as exc:
        with factory() as session, session.begin():
            return _record_error(session.get(InboundRow, inbound_id), inbound_id, exc)
    if outcome.applied and game_id is not None:
        _settle(factory, config, game_id, now)
    return outcome


# --------------------------------------------------------------------------- one message

def _process(session: Session, config: dict[str, Any], row: InboundRow, now: datetime) -> Outcome:
    if oversized(row, config):
        return Outcome("refused", errors=refuse_oversized(session, config, row, now))
    # The token in the headers names the game before the parse, so the
    # common case (a player's reply) is parsed once, with that game's names.
    headers = parse_bytes(row.raw)  # read once: asked four questions below, then parsed
    token = header_token(headers, master_local_part(config))
    hinted = seat_by_token(session, token)
    names, addresses = _names_of(session, hinted.game) if hinted is not None else ([], None)
    first = parse_message(headers, names, addresses, reply_localpart=master_local_part(config),
                          vocabulary=hinted.game.ruleset if hinted is not None else None, token=token)
    # No real address is longer than 254 characters (RFC 5321), and none of
    # that length is registered: keep what fits, for the Masters to read.
    sender = (first.from_address or "").strip().lower()[:254]
    who = speaker(session, config, row, headers, first, hinted, sender, now)
    if isinstance(who, Ignored):
        return Outcome("ignored", errors=who.errors)
    if isinstance(who, Refused):
        return Outcome("refused", errors=refuse(session, config, row, first, who, now))
    if isinstance(who, GameMaster):
        return _from_master(session, config, row, who, now)
    seat = who
    game = seat.game
    parsed = first if seat is hinted else _parse_for(row, game)
    outcome = _apply(session, config, row, parsed, game, seat, now, by=None)
    # Written with the outcome, in the one UPDATE of the row at the end of
    # its savepoint: set before the commands, they cost a flush of their own.
    row.from_addr, row.game_id = sender, game.id
    return outcome


def _from_master(session: Session, config: dict[str, Any], row: InboundRow, gm: GameMaster,
                 now: datetime) -> Outcome:
    """A Master's mail through their own reply address: a forwarded player's
    mail or an SMS under 'PER: Nome', recorded in the Master's name."""
    master, game = gm.user, gm.game
    lang = master.lang
    row.game_id = game.id
    parsed = _parse_for(row, game)
    if game.status != GameStatus.RUNNING:
        errors = [gettext_in(lang, "The game is not running: no command was recorded.")]
        master_receipt(session, config, row, parsed, master, game, errors, now)
        return Outcome("refused", errors=errors)
    target = game.seat_by_name(parsed.on_behalf_of) if parsed.on_behalf_of else None
    if target is None:
        errors = [gettext_in(lang, "I cannot find which player this is for: forward the player's mail "
                                 "or write FOR: Name above the SMS.")]
        master_receipt(session, config, row, parsed, master, game, errors, now)
        return Outcome("refused", errors=errors)
    return _apply(session, config, row, parsed, game, target, now, by=master,
                  reply_to_addr=master.email, reply_lang=lang)


def _names_of(session: Session, game: Game) -> tuple[list[str], dict[str, str]]:
    # One query for every seat's address (loading each seat's user lazily
    # cost 40 queries per message in a game of 40), once per batch.
    known = session.info.setdefault("names_of", {})
    if game.id not in known:
        pairs = session.execute(select(Seat.name, User.email).join(User, User.id == Seat.user_id)
                                .where(Seat.game_id == game.id).order_by(Seat.position)).all()
        known[game.id] = ([name for name, _ in pairs], dict(pairs))
    names, addresses = known[game.id]
    return list(names), dict(addresses)


def _parse_for(row: InboundRow, game: Game) -> ParsedMessage:
    names, addresses = _names_of(object_session(game), game)
    return parse_message(row.raw, names, addresses, vocabulary=game.ruleset)


# --------------------------------------------------------------------------- its commands

def _aimed_phase(session: Session, parsed: ParsedMessage, game: Game) -> PhaseRow | None:
    """The phase the message answers: the one the mail it replies to invited."""
    # Which game and phase a mail was sent for never changes, and a batch holds
    # forty replies to the same few bulletins: each asked once a batch.
    sent_for = session.info.setdefault("sent_for", {})
    for ref in [parsed.in_reply_to, *reversed(parsed.references or [])]:
        if not ref:
            continue
        if ref not in sent_for:
            sent_for[ref] = session.execute(select(OutboxRow.game_id, OutboxRow.phase_id)
                                            .where(OutboxRow.message_id == ref).limit(1)).first()
        sent = sent_for[ref]
        if sent is not None and sent.game_id == game.id and sent.phase_id is not None:
            return session.get(PhaseRow, sent.phase_id)
    return None


def _current_phase(session: Session, game: Game) -> PhaseRow | None:
    """``operations.current_phase``, which phase asked afresh for every message (one
    may open between two), the row itself taken from those the session holds
    (``_hold_what_is_loaded``): a query for the full row would build it, states and
    all, only for the session to hand back the object it already has. Whether the
    phase still takes actions is checked under its lock by ``submit``."""
    phase_id = session.scalar(select(PhaseRow.id).where(PhaseRow.game_id == game.id)
                              .order_by(PhaseRow.index.desc()).limit(1))
    return None if phase_id is None else session.get(PhaseRow, phase_id)


def _apply(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
           game: Game, seat: Seat, now: datetime, by: User | None,
           reply_to_addr: str | None = None, reply_lang: str | None = None) -> Outcome:
    lang = reply_lang or seat.user.lang
    outcome = Outcome("processed")
    phase = _current_phase(session, game)
    for error in parsed.errors:
        key = error.get("command")
        if error.get("code") == "unknown_name" and key in ("vote", "target", "appoint", "elect"):
            # The parser knows every name; the reply lists only those valid now.
            valid = operations.legal_choices(game, phase, seat, key)
            if valid is not None:
                error = {**error, "candidates": valid}
        outcome.errors.append(describe_error(error, lang, game.ruleset))
    aimed = _aimed_phase(session, parsed, game)
    stale = aimed is not None and phase is not None and aimed.id != phase.id
    # An answer window's answer counts only for its own window (a stale "pass" must not
    # answer the next challenge); a calendar game's reply to any of its mails counts for
    # the phase open when it arrived, if its commands fit that phase (issue 22), never for
    # a phase that opened after it arrived (a mail read late).
    windowed = stale and not operations.timing.moments(game).replies_carry_over
    arrived_before = (stale and row.received_at is not None
                      and _aware(row.received_at) < _aware(phase.starts_at))
    done = carry_out(session, config, game, seat, parsed.commands, lang=lang, now=now, phase=phase,
                     too_late=windowed or arrived_before, origin=Origin(
                         by=by, source="master" if by else "mail",
                         detail=(parsed.source or "email") if by else "",
                         inbound_id=row.id, arrived_at=row.received_at))
    outcome.applied += done.applied
    outcome.errors += done.errors
    tz = operations.game_tz(game)
    late = windowed or arrived_before
    if stale and not late and done.errors:
        outcome.errors.append(newest_mail_hint(config, game, phase, lang, tz))
    commands_receipt(session, config, row, parsed, to=reply_to_addr or seat.user.email, lang=lang, now=now,
                     game=game, seat=seat, by=by, phase=phase, shown=aimed if late else phase, late=late,
                     tz=tz, applied=outcome.applied, errors=outcome.errors)
    return outcome


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)
