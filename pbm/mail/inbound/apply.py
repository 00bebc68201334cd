"""Mail to the Master: store it, work out who speaks for whom, apply, answer.

Order of work, so nothing is lost and nothing counts twice (docs/mail-channel.md):
1. store the raw messages of a fetched batch (one commit), each unless its
   source key is known; a second copy of a Message-ID is kept as 'duplicate';
2. apply every message's commands and queue its receipt, all in one commit,
   each message in a savepoint of its own so that one that fails is recorded
   as an error and the others still count;
3. only then mark the batch processed in the mailbox (one IMAP STORE).
A message stored but not yet applied (a crash between 1 and 2) is applied
when it comes back, and by ``process_stored`` on the worker's every round.
A message over INBOUND_MAX_BYTES is never downloaded: the source hands out
its headers and size, which are stored, and its sender is told once.
"""
from __future__ import annotations

import email.parser
import email.policy
import email.utils
import hashlib
import logging
import re
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import Message
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, object_session, selectinload, sessionmaker

from engine.core import GameState
from engine.registry import get_ruleset

from ... import operations, render
from ...i18n import gettext_in
from ..outbound import master_address, queue
from ..reading.author import author_of
from ..reading.commands import describe_error, examples
from ..reading.parse import ParsedMessage, header_token, parse_message, without_reply_prefix
from ..reading.parse_body import body_text, parse_bytes
from .carry_out import Origin, abridge, carry_out
from .mailbox import HEADER_LIMIT, IncomingMail, MailSource, header_section
from ...models import (
    Game, GameMaster, GameStatus, InboundRow, OutboxRow, PhaseRow, PhaseStatus, Seat, User,
)

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    status: str  # processed | ignored | refused | duplicate | error
    applied: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def dedupe_key(mail: IncomingMail) -> str:
    """Message-ID, or a hash of the bytes for a message without one (so a
    UIDVALIDITY change, which renames every message, still finds it)."""
    if not mail.message_id:
        return "sha256:" + hashlib.sha256(mail.raw).hexdigest()
    return fit_key(mail.message_id)


def fit_key(key: str, limit: int = 400) -> str:
    """The key itself, or its hash when it is longer than the column: anyone
    can send a 1,000-character Message-ID, and a database that refused to
    store it would stop the mailbox at that message for ever."""
    if len(key) <= limit:
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def store_many(factory: sessionmaker[Session], mails: list[IncomingMail],
               now: datetime) -> list[int | None]:
    """Keep the raw messages, in one commit (the commit that must reach the disk
    before anything else happens is paid once per batch, not per message); for
    each, the id of a row still to be applied, or None if this message was
    already applied (same source key or same Message-ID). A row stored by a run
    that died before applying it is returned again, so ingest alone never loses it."""
    try:
        return _store_many(factory, mails, now)
    except IntegrityError:
        # Another worker reading the same mailbox stored some of these between
        # our look and our insert: look again, now that they are there.
        return _store_many(factory, mails, now)


def _store_many(factory: sessionmaker[Session], mails: list[IncomingMail],
                now: datetime) -> list[int | None]:
    # Two looks for the whole batch (its source keys, then the Message-IDs of
    # the new ones) and one flush of the new rows, not three statements a message.
    with factory() as session, session.begin():
        source_keys = [fit_key(mail.source_key) for mail in mails]
        known = {key: (row_id, status) for key, row_id, status in session.execute(
            select(InboundRow.source_key, InboundRow.id, InboundRow.status)
            .where(InboundRow.source_key.in_(source_keys)))}
        keys = {i: dedupe_key(mail) for i, mail in enumerate(mails) if source_keys[i] not in known}
        firsts: dict[str, tuple[int, str]] = {}
        if keys:
            for key, row_id, status in session.execute(
                    select(InboundRow.message_id, InboundRow.id, InboundRow.status)
                    .where(InboundRow.message_id.in_(set(keys.values()))).order_by(InboundRow.id)):
                firsts.setdefault(key, (row_id, status))
        out: list[int | None | InboundRow] = []
        seen: set[str] = set()
        for i, mail in enumerate(mails):
            if i not in keys:
                row_id, status = known[source_keys[i]]
                out.append(row_id if status == "stored" else None)
                continue
            key = keys[i]
            first = None if key in seen else firsts.get(key)
            duplicate = key in seen or first is not None
            seen.add(key)
            row = InboundRow(source_key=source_keys[i], message_id=key, raw=mail.raw,
                             size=mail.full_size, received_at=arrival(mail, now),
                             status="duplicate" if duplicate else "stored")
            session.add(row)
            if not duplicate:
                out.append(row)  # its id once flushed
            elif first is not None and first[1] == "stored":
                # The first copy was stored by a run that died before applying
                # it, and now comes back renamed (UIDVALIDITY): apply that one.
                out.append(first[0])
            else:
                out.append(None)
        session.flush()
        return [entry.id if isinstance(entry, InboundRow) else entry for entry in out]


def arrival(mail: IncomingMail, now: datetime) -> datetime:
    """When the mailbox received the message: what the deadline is compared to.
    Never later than now (a clock ahead of ours cannot push a vote forward)."""
    return min(mail.arrived_at, now) if mail.arrived_at is not None else now


# Messages fetched, stored and applied together: a mailbox of 10,000 unread
# messages is read 50 at a time, never all into memory at once.
FETCH_BATCH = 50


def ingest(factory: sessionmaker[Session], config: dict[str, Any], source: MailSource,
           now: datetime, lock: AbstractContextManager[Any] | None = None) -> int:
    """Read every new message from the source, a batch at a time; return how
    many new (not duplicate) messages were processed, whatever their outcome.

    Per batch: fetch it (a message over INBOUND_MAX_BYTES as its headers only)
    and turn its HTML into text (the slow part, with a time budget) outside
    ``lock``, the lock a boundary waits on to read the mail first; then,
    holding it, store every raw message (one commit), apply them (one commit)
    and only then mark the batch processed in the mailbox.
    """
    lock = lock or nullcontext()
    cap = int(config["INBOUND_MAX_BYTES"])
    count = 0
    seen: set[str] = set()
    while True:
        fetched = source.fetch_new(limit=FETCH_BATCH, max_bytes=cap)
        batch = [m for m in fetched if m.source_key not in seen]
        if not batch:
            return count  # nothing new (or only what could not be marked: next round)
        seen.update(m.source_key for m in batch)
        for mail in batch:
            if not mail.headers_only:
                prepare(mail.raw, config)
        with lock:
            ids = [i for i in store_many(factory, batch, now) if i is not None]
            apply_many(factory, config, ids, now)
            count += len(ids)
            # Stored and applied, committed: now the mailbox may forget them.
            source.mark_processed_many(batch)
        if len(fetched) < FETCH_BATCH:
            return count


def prepare(raw: bytes, config: dict[str, Any]) -> None:
    """Do the slow part of reading a message (HTML to text, within its time
    budget) ahead of the parse, which then finds the text converted."""
    if len(raw) > int(config["INBOUND_MAX_BYTES"]) or not _may_hold_html(raw):
        return
    try:
        msg = parse_bytes(raw)
        _, attached, _ = body_text(msg)
        for inner in attached[:2]:
            body_text(inner)
    except Exception:  # the parse proper will meet it again, and deal with it
        log.debug("could not prepare a message", exc_info=True)


def _may_hold_html(raw: bytes) -> bool:
    """False for a message that is one plain-text part (most replies from a
    mail program): nothing to convert, and no need to parse it twice."""
    kind = _headers(header_section(raw[:HEADER_LIMIT])).get_content_type()
    return kind != "text/plain"


def process_stored(factory: sessionmaker[Session], config: dict[str, Any], now: datetime) -> int:
    with factory() as session:
        ids = list(session.scalars(select(InboundRow.id).where(InboundRow.status == "stored")
                                   .order_by(InboundRow.id)))
    for start in range(0, len(ids), FETCH_BATCH):
        apply_many(factory, config, ids[start:start + FETCH_BATCH], now)
    return len(ids)


def apply_many(factory: sessionmaker[Session], config: dict[str, Any], ids: list[int],
               now: datetime) -> dict[int, Outcome]:
    """Apply stored messages, oldest first, in one transaction: the commit that
    must reach the disk is paid once for the batch, not once per message.

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
    todo = sorted(set(ids))
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
    return game is not None and operations.timing.windowed(game)


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


# --------------------------------------------------------------------------- who speaks

def _process(session: Session, config: dict[str, Any], row: InboundRow, now: datetime) -> Outcome:
    if _size(row) > int(config["INBOUND_MAX_BYTES"]) or _size(row) > len(row.raw):
        # (Over the cap when it was read: only its headers are here, even if
        # the cap has been raised since.)
        return _refuse_oversized(session, config, row, now)
    # The token in the headers names the game before the parse, so the
    # common case (a player's reply) is parsed once, with that game's names.
    headers = parse_bytes(row.raw)  # read once: asked four questions below, then parsed
    token = header_token(headers, _local(config))
    hinted = _seat_by_token(session, token)
    names, addresses = _names_of(session, hinted.game) if hinted is not None else ([], None)
    first = parse_message(headers, names, addresses, reply_localpart=_local(config),
                          vocabulary=hinted.game.ruleset if hinted is not None else None, token=token)
    # No real address is longer than 254 characters (RFC 5321), and none of
    # that length is registered: keep what fits, for the Masters to read.
    sender = (first.from_address or "").strip().lower()[:254]
    seat = _speaker(session, config, row, headers, first, hinted, sender, now)
    if isinstance(seat, Outcome):
        return seat
    game = seat.game
    parsed = first if seat is hinted else _parse_for(row, game)
    outcome = _apply(session, config, row, parsed, game, seat, now, by=None)
    # Written with the outcome, in the one UPDATE of the row at the end of
    # its savepoint: set before the commands, they cost a flush of their own.
    row.from_addr, row.game_id = sender, game.id
    return outcome


def _speaker(session: Session, config: dict[str, Any], row: InboundRow, headers: Message,
             first: ParsedMessage, hinted: Seat | None, sender: str, now: datetime) -> Seat | Outcome:
    """The seat whose player sent this message, or the outcome of one that applies
    nothing (ignored, refused, a Master's), the row's sender then recorded."""
    seat = hinted if hinted is not None and hinted.token == first.token else _seat_by_token(session, first.token)
    own_reply = (not first.ignored and not first.from_doubtful and seat is not None and seat.mailable
                 and _same_address(seat.user.email, sender))
    if own_reply and not (sender == config["NOREPLY_ADDRESS"].lower() or _is_master(sender, config)
                          or _sent_to_noreply(headers, config) or _failed_dmarc(headers)):
        return seat  # the common case: a player's own reply
    row.from_addr = sender
    if first.ignored:
        if first.ignored == "bounce":
            failing = _mark_bounced(session, row.raw, now)
            return Outcome("ignored", errors=["bounce"] + [f"failing: {a}" for a in failing])
        return Outcome("ignored", errors=[first.ignored])
    if sender == config["NOREPLY_ADDRESS"].lower() or _is_master(sender, config):
        return Outcome("ignored", errors=["own address"])  # never answer ourselves: no loops
    if _sent_to_noreply(headers, config):
        # The receipts' address takes no commands, even with a token in the subject.
        return Outcome("ignored", errors=["to no-reply"])
    by_token = _game_master_by_token(session, first.token) if seat is None else None
    if first.from_doubtful:
        return _refuse_doubtful_author(session, config, row, first, seat, by_token, now)
    if _failed_dmarc(headers):
        return _refuse_forged(session, config, row, first, seat, now, master=by_token)
    if by_token is not None:
        if not _same_address(by_token.user.email, sender):
            return _refuse_master_spoof(session, config, row, first, by_token, now)
        return _from_master(session, config, row, by_token, now)
    master = None if own_reply else _master_user(session, sender)
    if master is not None:
        # A From is no proof: a Master's commands count only through their
        # own reply address for the game, which only their mailbox receives.
        return _refuse_master_without_token(session, config, row, first, master, now)
    if seat is None or not seat.mailable:  # a table player's seat takes no mail
        return _refuse_unknown(session, config, row, first, now)
    if not _same_address(seat.user.email, sender):
        return _refuse_spoof(session, config, row, first, seat, now)
    raise AssertionError("a player's own reply is the common case above")


def _size(row: InboundRow) -> int:
    return row.size if row.size is not None else len(row.raw)


def _refuse_oversized(session: Session, config: dict[str, Any], row: InboundRow, now: datetime) -> Outcome:
    """A message over INBOUND_MAX_BYTES is never downloaded nor parsed (a 67 MB
    message took 630 MB to parse): its headers and size are kept, the message
    itself stays in the mailbox, and its sender, if registered, is told once."""
    head = row.raw[:64 * 1024].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    headers = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(head)
    author = author_of(headers)
    row.from_addr = author.address[:254]
    seat = _seat_by_token(session, _header_token(head, config))
    if seat is not None:
        row.game_id = seat.game_id
    size, cap = _size(row), int(config["INBOUND_MAX_BYTES"])
    user = _user_by_address(session, row.from_addr) if row.from_addr and not author.doubtful else None
    if user is not None and not (row.from_addr == config["NOREPLY_ADDRESS"].lower()
                                 or _is_master(row.from_addr, config)):
        _receipt(session, config, row, ParsedMessage(), to=user.email, lang=user.lang, now=now,
                 game=seat.game if seat is not None else None, seat=None, context={
                     "phase_label": None, "deadline": None, "applied": [], "ignored": [],
                     "errors": [gettext_in(user.lang,
                                           "The message is too large (%(size)s MB; at most %(cap)s MB): it "
                                           "was not read. Send the commands again in a short message, "
                                           "without attachments.", size=_mb(size), cap=_mb(cap))]},
                 is_error=True, proven=False)
    return Outcome("refused", errors=[f"too large: {size} bytes (at most {cap})"])


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f}"


def _same_address(a: str, b: str) -> bool:
    # Local parts are case-sensitive in theory; no real mailbox relies on it,
    # and players type their address in every case.
    return a.strip().lower() == b.strip().lower()


_ENVELOPE_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To")


def _headers(raw: bytes | Message) -> Message:
    """A message's headers, parsed (or as given, already parsed)."""
    if isinstance(raw, Message):
        return raw
    return email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)


def _sent_to_noreply(raw: bytes | Message, config: dict[str, Any]) -> bool:
    """Was this message addressed to the no-reply address rather than the Master's?

    The envelope headers an MTA adds are trusted first; otherwise To/Cc must
    name the no-reply address and not the Master's (a reply-all to both counts).
    """
    noreply = config["NOREPLY_ADDRESS"].lower()
    headers = _headers(raw)

    def addresses(names: tuple[str, ...]) -> set[str]:
        values = [str(v) for n in names for v in headers.get_all(n, [])]
        return {a.lower() for _, a in email.utils.getaddresses(values) if a}

    if noreply in addresses(_ENVELOPE_HEADERS):
        return True
    visible = addresses(("To", "Cc"))
    return noreply in visible and not any(_is_master(a, config) for a in visible)


def _is_master(address: str, config: dict[str, Any]) -> bool:
    local, _, domain = address.lower().partition("@")
    m_local, _, m_domain = config["MASTER_ADDRESS"].lower().partition("@")
    return domain == m_domain and local.split("+", 1)[0] == m_local


def _local(config: dict[str, Any]) -> str:
    return config["MASTER_ADDRESS"].split("@", 1)[0]


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


def _header_token(raw: bytes | Message, config: dict[str, Any]) -> str | None:
    """The token as the parser reads it from the headers (plus-address, then
    subject tag); a token only inside a forwarded message needs the full parse."""
    return header_token(_headers(raw), _local(config))


def _seat_by_token(session: Session, token: str | None) -> Seat | None:
    if not token:
        return None
    known = session.info.setdefault("seat_by_token", {})
    if token not in known:
        seat = known[token] = _find_seat(session, token)
        if seat is not None and ("game", seat.game_id) not in known:
            # A batch brings mail from many players of one game: read all its
            # seats and their players at once, not two queries each.
            known[("game", seat.game_id)] = True
            for other in session.scalars(select(Seat).where(Seat.game_id == seat.game_id)
                                         .options(selectinload(Seat.user))):
                known.setdefault(other.token, other)
    return known[token]


def _find_seat(session: Session, token: str) -> Seat | None:
    seat = session.scalar(select(Seat).where(Seat.token == token))
    if seat is not None:
        return seat
    # Some mail systems lower-case the local part of an address on the way;
    # the token still names one seat if only one matches without case.
    matches = list(session.scalars(select(Seat).where(func.lower(Seat.token) == token.lower()).limit(2)))
    return matches[0] if len(matches) == 1 else None


def _game_master_by_token(session: Session, token: str | None) -> GameMaster | None:
    if not token:
        return None
    master = session.scalar(select(GameMaster).where(GameMaster.token == token))
    if master is not None:
        return master
    matches = list(session.scalars(select(GameMaster).where(func.lower(GameMaster.token) == token.lower())
                                   .limit(2)))
    return matches[0] if len(matches) == 1 else None


def _user_by_address(session: Session, address: str) -> User | None:
    return session.scalar(select(User).where(func.lower(User.email) == address.strip().lower()))


def _master_user(session: Session, address: str) -> User | None:
    user = _user_by_address(session, address)
    if user is None:
        return None
    is_master = session.scalar(select(func.count()).select_from(GameMaster)
                               .where(GameMaster.user_id == user.id))
    return user if is_master else None


_INNER_MESSAGE_ID = re.compile(rb"^Message-ID:[ \t]*(<[^<>\s]+>)", re.IGNORECASE | re.MULTILINE)


def _mark_bounced(session: Session, raw: bytes, now: datetime) -> list[str]:
    """Mark as failing the address of the mail a bounce returns, so the Masters see it.

    A bounce is believed only when it quotes the Message-ID of a mail the
    service sent (a random identifier nobody else has seen), and then names
    exactly the address that mail went to. The recipients the delivery report
    lists are not believed on their own: anyone can write a delivery report,
    and one naming a player would mark their address as failing.
    """
    top = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw).get("Message-ID")
    returned = {m.decode("ascii", "replace") for m in _INNER_MESSAGE_ID.findall(raw)}
    returned.discard(" ".join(str(top).split()) if top else "")
    addresses: set[str] = set()
    if returned:
        for sent in session.scalars(select(OutboxRow).where(OutboxRow.message_id.in_(returned))):
            addresses.add(sent.to_addr.lower())
            sent.last_error = f"bounced ({now.isoformat()})"
    failing = []
    for address in sorted(addresses):
        user = _user_by_address(session, address)
        if user is None:
            continue
        failing.append(user.email)
        if not user.address_failing:
            user.address_failing = True
            for seat in session.scalars(select(Seat).where(Seat.user_id == user.id)):
                if seat.game.status == GameStatus.RUNNING:
                    operations.log(session, seat.game, None, "address_failing", now,
                                   player=seat.name, address=user.email)
    return failing


# --------------------------------------------------------------------------- applying

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
    windowed = stale and operations.timing.windowed(game)
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
        outcome.errors.append(_newest_mail_hint(config, game, phase, lang, tz))
    shown = aimed if late else phase
    open_now = phase is not None and phase.status == PhaseStatus.OPEN
    # The deadline as it stands now that the mail is applied (an extension moved it; an
    # answer that completed a window closed it, and then there is no time left to give).
    settled = open_now and not late and operations.timing.windowed(game) and phase.ends_at <= now
    _receipt(session, config, row, parsed, to=reply_to_addr or seat.user.email, lang=lang, now=now,
             game=game, seat=seat if by is None else None, context={
                 "phase_label": render.phase_label(shown, lang, tz) if shown else None,
                 "deadline": (render.deadline_text(shown.ends_at, lang, tz)
                              if shown is not None and shown.status == PhaseStatus.OPEN
                              and not settled else None),
                 "window_closed": settled,
                 # A reply to a moment that has passed: which one is open now, and until when.
                 "open_label": render.phase_label(phase, lang, tz) if late and open_now else None,
                 "open_deadline": (render.deadline_text(phase.ends_at, lang, tz)
                                   if late and open_now else None),
                 "applied": outcome.applied, "errors": outcome.errors,
                 "ignored": _ignored(parsed, lang),
                 "examples": [] if outcome.applied else _examples(game, phase, seat, lang),
             }, is_error=bool(outcome.errors) and not outcome.applied)
    return outcome


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


def _newest_mail_hint(config: dict[str, Any], game: Game, phase: PhaseRow, lang: str, tz: str) -> str:
    """For a reply to an older mail whose commands did not fit the phase open now: which
    phase that is, until when, and where to act on it."""
    page = f"{config['BASE_URL']}/g/{game.slug}/me"
    if phase.status != PhaseStatus.OPEN or phase.ends_at is None:
        return gettext_in(lang, "You replied to an older mail of the game, and no phase takes commands "
                                "now: wait for the next mail, or see the game's page: %(page)s",
                          page=page)
    return gettext_in(lang, "You replied to an older mail of the game. The phase open now: %(phase)s, "
                            "until %(deadline)s. Reply to its newest mail, or use the game's page: "
                            "%(page)s", phase=render.phase_label(phase, lang, tz),
                      deadline=render.deadline_text(phase.ends_at, lang, tz), page=page)


def _ignored(parsed: ParsedMessage, lang: str) -> list[str]:
    """What the receipt lists as not read: the lines that were no command, then the prose
    written after a command's arguments ("Sbrano Dario, secondo me è la guardia")."""
    lines = [abridge(line) for line in parsed.ignored_lines[:20]]
    lines += [gettext_in(lang, "“%(text)s” (after the command on the line “%(line)s”)",
                         text=abridge(item["text"], 200), line=abridge(item["line"], 80))
              for item in parsed.ignored_text[:20]]
    return lines


def _examples(game: Game, phase: PhaseRow | None, seat: Seat, lang: str) -> list[str]:
    """Example lines of what this player can send now (none when nothing; all the
    game's commands when no phase is open), for a receipt that recorded nothing."""
    keys = None
    if phase is not None and phase.status == PhaseStatus.OPEN:
        forms = get_ruleset(game.ruleset).forms(GameState.from_dict(phase.state_before), seat.name)
        keys = {f.name for form in forms for f in form.fields}
    return examples(game.ruleset, lang, keys)


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
        _master_receipt(session, config, row, parsed, master, game, errors, now)
        return Outcome("refused", errors=errors)
    target = game.seat_by_name(parsed.on_behalf_of) if parsed.on_behalf_of else None
    if target is None:
        errors = [gettext_in(lang, "I cannot find which player this is for: forward the player's mail "
                                 "or write FOR: Name above the SMS.")]
        _master_receipt(session, config, row, parsed, master, game, errors, now)
        return Outcome("refused", errors=errors)
    return _apply(session, config, row, parsed, game, target, now, by=master,
                  reply_to_addr=master.email, reply_lang=lang)


def _master_receipt(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                    master: User, game: Game | None, errors: list[str], now: datetime,
                    proven: bool = True) -> None:
    ignored = [abridge(x) for x in parsed.ignored_lines[:20]] if proven else []
    _receipt(session, config, row, parsed, to=master.email, lang=master.lang, now=now, game=game,
             seat=None, context={"phase_label": None, "deadline": None, "applied": [],
                                 "errors": errors, "ignored": ignored},
             is_error=True, proven=proven)


def _refuse_master_without_token(session: Session, config: dict[str, Any], row: InboundRow,
                                 parsed: ParsedMessage, master: User, now: datetime) -> Outcome:
    """From a Master's address but not through their reply address: refused,
    and the Master (at the registered address, never the sender) is told
    which address each of their running games takes commands at. A player's
    token in it (a Master of another game using Bruno's reply address) is a
    spoof of that seat: its owner is told too."""
    seat = _seat_by_token(session, parsed.token)
    if seat is not None and seat.mailable and not _same_address(seat.user.email, master.email):
        _tell_seat_owner(session, config, row, parsed, seat, now)
    lang = master.lang
    games = [gm for gm in session.scalars(select(GameMaster).where(GameMaster.user_id == master.id))
             if gm.game.status == GameStatus.RUNNING]
    lines = "; ".join(f"{gm.game.name}: {master_address(config, gm)}" for gm in games)
    errors = [gettext_in(lang, "A Master's commands by mail count only when sent to your own address for "
                               "the game (reply to a mail of the game, or write to the address shown on "
                               "your desk): this message was not applied.")
              + (" " + gettext_in(lang, "Your addresses: %(addresses)s.", addresses=lines) if lines else "")]
    _master_receipt(session, config, row, parsed, master, None, errors, now, proven=False)
    return Outcome("refused", errors=["master without token"])


def _refuse_master_spoof(session: Session, config: dict[str, Any], row: InboundRow,
                         parsed: ParsedMessage, gm: GameMaster, now: datetime) -> Outcome:
    """A Master's reply address from another address: refused; the Master is told."""
    master, game = gm.user, gm.game
    row.game_id = game.id
    _master_receipt(session, config, row, parsed, master, game, [gettext_in(
        master.lang, "A message to your Master's address came from an address that is not yours "
                     "(%(address)s): it was not applied.", address=row.from_addr)], now, proven=False)
    operations.log(session, game, None, "refused_spoof", now, player=master.name, role="master",
                   sender=row.from_addr)
    return Outcome("refused", errors=["master token from another address"])


def _refuse_spoof(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                  seat: Seat, now: datetime) -> Outcome:
    """Commands with a player's token from another address: refused, and the
    refusal goes to the registered address, never to the sender."""
    _tell_seat_owner(session, config, row, parsed, seat, now)
    return Outcome("refused")


def _tell_seat_owner(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                     seat: Seat, now: datetime) -> None:
    """Tell a seat's owner, at the registered address, that a message with their token
    came from another address, and log it for the Masters."""
    lang = seat.user.lang
    row.game_id = seat.game_id
    _receipt(session, config, row, parsed, to=seat.user.email, lang=lang, now=now, game=seat.game,
             seat=seat, context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                                 "errors": [gettext_in(lang,
                                               "A message with your code came from an address that is not "
                                               "yours (%(address)s): it was not applied. Use your registered "
                                               "address.", address=row.from_addr)]},
             is_error=True, proven=False)
    operations.log(session, seat.game, None, "refused_spoof", now, player=seat.name, sender=row.from_addr)


def _failed_dmarc(raw: bytes | Message) -> bool:
    """Did our own mail server find the From address forged?

    Only the topmost Authentication-Results counts: the receiving server adds
    it last, and a sender can forge any header below it. Only a failure is
    acted on; a 'pass' proves nothing when the server adds no header at all.
    """
    headers = _headers(raw)
    results = headers.get_all("Authentication-Results") or []
    if not results:
        return False
    return re.search(r"\bdmarc\s*=\s*fail\b", " ".join(str(results[0]).split()).lower()) is not None


def _refuse_forged(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                   seat: Seat | None, now: datetime, master: GameMaster | None = None) -> Outcome:
    """A From that the mail server says is forged speaks for nobody, Masters
    included; the registered address it claims is told, never the sender."""
    user = (seat.user if seat is not None and seat.mailable else master.user if master is not None
            else _user_by_address(session, row.from_addr))
    if user is None:
        return Outcome("refused", errors=["dmarc fail"])
    lang = user.lang
    game = seat.game if seat is not None else master.game if master is not None else None
    if seat is not None:
        row.game_id = seat.game_id
        operations.log(session, seat.game, None, "refused_spoof", now, player=seat.name,
                       sender=row.from_addr, reason="dmarc")
    elif master is not None:
        row.game_id = master.game_id
        operations.log(session, master.game, None, "refused_spoof", now, player=user.name, role="master",
                       sender=row.from_addr, reason="dmarc")
    _receipt(session, config, row, parsed, to=user.email, lang=lang, now=now, game=game, seat=seat,
             context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                      "errors": [gettext_in(lang,
                                    "A message in the name of %(address)s arrived that the mail server "
                                    "found forged: it was not applied.", address=row.from_addr)]},
             is_error=True, proven=False)
    return Outcome("refused", errors=["dmarc fail"])


def _refuse_doubtful_author(session: Session, config: dict[str, Any], row: InboundRow,
                            parsed: ParsedMessage, seat: Seat | None, master: GameMaster | None,
                            now: datetime) -> Outcome:
    """A From whose display name shows an address other than the one the message was
    sent from (the one the receiving server checked), or that names several senders,
    speaks for nobody. Told, at the registered address, in their language: the player
    or Master whose code it carries, else the owner of the address it came from, else
    the owner of the address it shows; never the sender as such."""
    user = (seat.user if seat is not None and seat.mailable else master.user if master is not None
            else _user_by_address(session, row.from_addr)
            or (_user_by_address(session, parsed.from_named) if parsed.from_named else None))
    game = seat.game if seat is not None else master.game if master is not None else None
    if game is not None:
        row.game_id = game.id
        operations.log(session, game, None, "refused_spoof", now,
                       player=seat.name if seat is not None else user.name, sender=row.from_addr,
                       reason="display name", **({"role": "master"} if seat is None else {}))
    if user is None:
        return Outcome("refused", errors=[f"doubtful From ({parsed.from_doubtful})"])
    lang = user.lang
    if parsed.from_doubtful == "named_other":
        error = gettext_in(lang, "A message arrived whose sender's name shows the address %(named)s, but "
                                 "which was sent from %(address)s: it was not applied. Commands count only "
                                 "from your registered address, with no other address in the sender's name.",
                           named=parsed.from_named, address=row.from_addr or "?")
    else:
        error = gettext_in(lang, "A message arrived whose sender field names more than one sender "
                                 "(%(address)s and others): it was not applied. Send your commands from "
                                 "your registered address alone.", address=row.from_addr or "?")
    _receipt(session, config, row, parsed, to=user.email, lang=lang, now=now, game=game, seat=seat,
             context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                      "errors": [error]}, is_error=True, proven=False)
    return Outcome("refused", errors=[f"doubtful From ({parsed.from_doubtful})"])


def _refuse_unknown(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                    now: datetime) -> Outcome:
    """No valid token: answer only a registered address, so strangers get no backscatter."""
    user = _user_by_address(session, row.from_addr)
    if user is not None:
        _receipt(session, config, row, parsed, to=user.email, lang=user.lang, now=now, game=None,
                 seat=None, context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                                     "errors": [gettext_in(user.lang,
                                                   "I cannot tell the game: reply to a mail you received from "
                                                   "the game, without changing the reply address.")]},
                 is_error=True, proven=False)
    return Outcome("refused")


def _receipt(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage, *,
             to: str, lang: str, now: datetime, game: Game | None, seat: Seat | None,
             context: dict[str, Any], is_error: bool, proven: bool = True) -> None:
    """Queue the answer. ``proven``: the message came from ``to`` itself (its
    token and its address). Otherwise the answer tells the registered owner
    of an address about a message someone else may have written: it neither
    repeats that message's subject nor threads under it, so a forger cannot
    make the service mail a player words of the forger's choosing."""
    if is_error and _error_replies_today(session, to, now) >= int(config["ERROR_REPLIES_PER_DAY"]):
        log.info("error replies to %s capped for today", to)
        return
    queue(session, config, to=to, template="receipt", lang=lang, now=now, game=game,
                 kind="receipt_error" if is_error else "receipt", auto_reply=True,
                 in_reply_to=parsed.message_id if proven else None,
                 references=(" ".join(parsed.references or []) or None) if proven else None,
                 context={"original_subject": without_reply_prefix(parsed.subject or "") if proven else "",
                          "seat": seat, "examples": [], **context})


def _error_replies_today(session: Session, address: str, now: datetime) -> int:
    return session.scalar(select(func.count()).select_from(OutboxRow).where(
        OutboxRow.to_addr == address, OutboxRow.kind == "receipt_error",
        OutboxRow.created_at >= now - timedelta(days=1))) or 0
