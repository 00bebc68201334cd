"""Stored messages applied, as Mailman's runners work through their queue: each handed
to its handler by the router (router.py), in the transaction that records the outcome
on its row.

Messages are applied a batch at a time, a transaction per game (``apply_many``), each in a
savepoint of its own, so that one that fails is recorded as an error and the others
still count; ``process`` applies one alone. Where a message goes is router.py's
question, who it speaks for identify.py's, what it is answered receipts.py's.
"""
from __future__ import annotations

import logging
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .. import operations
from ..models import Game, GameMaster, InboundRow, Seat
from ..mail.reading.parse import header_token
from ..mail.sources.mailbox import headers_of
from .identify import master_local_part
from .outcome import Outcome
from .router import route

log = logging.getLogger(__name__)


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
                    outcome = route(session, config, row, now)
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
            outcome = route(session, config, row, now)
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
