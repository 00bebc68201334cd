"""Who speaks for whom in a message to the Master: the player whose reply it is (their
token and their registered address), a Master writing through their own reply address
for a game, or nobody: a bounce, our own mail, mail to the no-reply address (ignored),
or a message whose From cannot be taken at its word (refused, receipts.py words it).

A From is no proof on its own: the reply token names the seat, and the address the
receiving server checked must be the seat's; the topmost Authentication-Results may
still say it is forged (DMARC), and a display name may show another address
(reading/author.py).
"""
from __future__ import annotations

import email.utils
import re
from dataclasses import dataclass
from datetime import datetime
from email.message import Message
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from .. import operations
from ..models import GameMaster, GameStatus, InboundRow, OutboxRow, Seat, User
from ..mail.reading.parse import ParsedMessage, header_token
from ..mail.sources.mailbox import headers_of


@dataclass(frozen=True)
class Ignored:
    """A message nobody is told about (a bounce, our own mail, mail to the no-reply
    address, an automatic answer): why, as the row records it."""
    errors: list[str]


@dataclass(frozen=True)
class Refused:
    """A message that speaks for nobody: why, and whom it concerns (the seat or the
    Master whose code it carries, the Master whose address it came from), to be told
    at their registered address, never the sender as such."""
    why: str  # doubtful | forged | master_spoof | master_without_token | unknown | spoof
    seat: Seat | None = None
    master: GameMaster | None = None
    user: User | None = None


def speaker(session: Session, config: dict[str, Any], row: InboundRow, message: Message,
            first: ParsedMessage, hinted: Seat | None, sender: str, now: datetime
            ) -> Seat | GameMaster | Ignored | Refused:
    """Who this message speaks for: the seat whose player sent it (the common case), the
    Master who sent it through their own reply address for the game, or nobody (a message
    to ignore, or one to refuse), the row's sender then recorded."""
    seat = hinted if hinted is not None and hinted.token == first.token else seat_by_token(session, first.token)
    own_reply = (not first.ignored and not first.from_doubtful and seat is not None and seat.mailable
                 and same_address(seat.user.email, sender))
    if own_reply and not (sender == config["NOREPLY_ADDRESS"].lower() or is_master_address(sender, config)
                          or sent_to_noreply(message, config) or failed_dmarc(message)):
        return seat  # the common case: a player's own reply
    row.from_addr = sender
    if first.ignored:
        if first.ignored == "bounce":
            failing = _mark_bounced(session, row.raw, now)
            return Ignored(["bounce"] + [f"failing: {a}" for a in failing])
        return Ignored([first.ignored])
    if sender == config["NOREPLY_ADDRESS"].lower() or is_master_address(sender, config):
        return Ignored(["own address"])  # never answer ourselves: no loops
    if sent_to_noreply(message, config):
        # The receipts' address takes no commands, even with a token in the subject.
        return Ignored(["to no-reply"])
    by_token = _game_master_by_token(session, first.token) if seat is None else None
    if first.from_doubtful:
        return Refused("doubtful", seat, by_token)
    if failed_dmarc(message):
        return Refused("forged", seat, by_token)
    if by_token is not None:
        if not same_address(by_token.user.email, sender):
            return Refused("master_spoof", master=by_token)
        return by_token
    master = None if own_reply else _master_user(session, sender)
    if master is not None:
        # A From is no proof: a Master's commands count only through their
        # own reply address for the game, which only their mailbox receives.
        return Refused("master_without_token", user=master)
    if seat is None or not seat.mailable:  # a table player's seat takes no mail
        return Refused("unknown")
    if not same_address(seat.user.email, sender):
        return Refused("spoof", seat)
    raise AssertionError("a player's own reply is the common case above")


def same_address(a: str, b: str) -> bool:
    # Local parts are case-sensitive in theory; no real mailbox relies on it,
    # and players type their address in every case.
    return a.strip().lower() == b.strip().lower()


_ENVELOPE_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To")


def _message(raw: bytes | Message) -> Message:
    """A message with its headers parsed (or as given, already parsed)."""
    return raw if isinstance(raw, Message) else headers_of(raw)


def sent_to_noreply(raw: bytes | Message, config: dict[str, Any]) -> bool:
    """Was this message addressed to the no-reply address rather than the Master's?

    The envelope headers an MTA adds are trusted first; otherwise To/Cc must
    name the no-reply address and not the Master's (a reply-all to both counts).
    """
    noreply = config["NOREPLY_ADDRESS"].lower()
    message = _message(raw)

    def addresses(names: tuple[str, ...]) -> set[str]:
        values = [str(v) for n in names for v in message.get_all(n, [])]
        return {a.lower() for _, a in email.utils.getaddresses(values) if a}

    if noreply in addresses(_ENVELOPE_HEADERS):
        return True
    visible = addresses(("To", "Cc"))
    return noreply in visible and not any(is_master_address(a, config) for a in visible)


def is_master_address(address: str, config: dict[str, Any]) -> bool:
    local, _, domain = address.lower().partition("@")
    m_local, _, m_domain = config["MASTER_ADDRESS"].lower().partition("@")
    return domain == m_domain and local.split("+", 1)[0] == m_local


def master_local_part(config: dict[str, Any]) -> str:
    return config["MASTER_ADDRESS"].split("@", 1)[0]


def failed_dmarc(raw: bytes | Message) -> bool:
    """Did our own mail server find the From address forged?

    Only the topmost Authentication-Results counts: the receiving server adds
    it last, and a sender can forge any header below it. Only a failure is
    acted on; a 'pass' proves nothing when the server adds no header at all.
    """
    message = _message(raw)
    results = message.get_all("Authentication-Results") or []
    if not results:
        return False
    return re.search(r"\bdmarc\s*=\s*fail\b", " ".join(str(results[0]).split()).lower()) is not None


def token_in_headers(raw: bytes | Message, config: dict[str, Any]) -> str | None:
    """The token as the parser reads it from the headers (plus-address, then
    subject tag); a token only inside a forwarded message needs the full parse."""
    return header_token(_message(raw), master_local_part(config))


def seat_by_token(session: Session, token: str | None) -> Seat | None:
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


def user_by_address(session: Session, address: str) -> User | None:
    return session.scalar(select(User).where(func.lower(User.email) == address.strip().lower()))


def _master_user(session: Session, address: str) -> User | None:
    user = user_by_address(session, address)
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
    top = headers_of(raw).get("Message-ID")
    returned = {m.decode("ascii", "replace") for m in _INNER_MESSAGE_ID.findall(raw)}
    returned.discard(" ".join(str(top).split()) if top else "")
    addresses: set[str] = set()
    if returned:
        for sent in session.scalars(select(OutboxRow).where(OutboxRow.message_id.in_(returned))):
            addresses.add(sent.to_addr.lower())
            sent.last_error = f"bounced ({now.isoformat()})"
    failing = []
    for address in sorted(addresses):
        user = user_by_address(session, address)
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
