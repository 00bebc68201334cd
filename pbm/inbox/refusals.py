"""The refusals of a message that speaks for nobody (identify.py says why), as one table:
for each reason, whom it concerns (told at their registered address, never the sender
as such, so a stranger gets no backscatter and cannot make the service mail words of
their choosing), what they are told in their language, what the Masters' log keeps, and
what the message's row records."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import N_
from ..i18n import gettext_in
from ..mail.outbound import master_address
from ..mail.reading.parse import ParsedMessage
from ..models import Game, GameMaster, GameStatus, InboundRow, Seat, User
from .identify import Refused, same_address, seat_by_token, user_by_address


@dataclass(frozen=True)
class Told:
    """Whom a refusal concerns: the reader told, the game and seat it is about."""

    user: User | None
    game: Game | None = None
    seat: Seat | None = None
    master: bool = False  # the reader is told as the game's Master


@dataclass(frozen=True)
class Refusal:
    told: Callable[[Session, InboundRow, ParsedMessage, Refused], Told]
    says: Callable[[Session, dict[str, Any], ParsedMessage, Refused, str], str]
    logged: str | None  # the reason the Masters' log gives (None: not logged)
    recorded: Callable[[ParsedMessage], list[str]]
    # Whether the reader told is the message's proven sender (then the answer threads
    # under it), which no refusal is.
    proven: bool = False


def _claimed(session: Session, row: InboundRow, parsed: ParsedMessage, who: Refused) -> Told:
    """The seat or Master whose code the message carries, else the owner of the address it
    came from."""
    if who.seat is not None and who.seat.mailable:
        return Told(who.seat.user, who.seat.game, who.seat)
    if who.master is not None:
        return Told(who.master.user, who.master.game, master=True)
    return Told(user_by_address(session, row.from_addr))


def _claimed_or_named(session: Session, row: InboundRow, parsed: ParsedMessage, who: Refused) -> Told:
    """As ``_claimed``, else the owner of the address a display name shows."""
    told = _claimed(session, row, parsed, who)
    if told.user is None and parsed.from_named:
        return Told(user_by_address(session, parsed.from_named))
    return told


def _doubtful(session: Session, config: dict[str, Any], parsed: ParsedMessage, who: Refused, lang: str) -> str:
    if parsed.from_doubtful == "named_other":
        return gettext_in(lang, "A message arrived whose sender's name shows an address other than the one "
                                "it was sent from: it was not applied. Commands count only from your "
                                "registered address, with no other address in the sender's name.")
    return gettext_in(lang, "A message arrived whose sender field names more than one sender: it was "
                            "not applied. Send your commands from your registered address alone.")


def _master_without_token(session: Session, config: dict[str, Any], parsed: ParsedMessage, who: Refused,
                          lang: str) -> str:
    """Which address each of the Master's running games takes their commands at."""
    games = [gm for gm in session.scalars(select(GameMaster).where(GameMaster.user_id == who.user.id))
             if gm.game.status == GameStatus.RUNNING]
    lines = "; ".join(f"{gm.game.name}: {master_address(config, gm)}" for gm in games)
    return (gettext_in(lang, "A Master's commands by mail count only when sent to your own address for "
                             "the game (reply to a mail of the game, or write to the address shown on "
                             "your desk): this message was not applied.")
            + (" " + gettext_in(lang, "Your addresses: %(addresses)s.", addresses=lines) if lines else ""))


def _says(msgid: str) -> Callable[[Session, dict[str, Any], ParsedMessage, Refused, str], str]:
    return lambda _session, _config, _parsed, _who, lang: gettext_in(lang, msgid)


REFUSALS: dict[str, Refusal] = {
    # A display name showing another address, or several senders.
    "doubtful": Refusal(_claimed_or_named, _doubtful, "display name",
                        lambda parsed: [f"doubtful From ({parsed.from_doubtful})"]),
    # The receiving server found the From forged (DMARC), Masters included.
    "forged": Refusal(_claimed, _says(N_("A message in your name arrived that the mail server found forged: it "
                                      "was not applied.")), "dmarc", lambda parsed: ["dmarc fail"]),
    # A Master's reply address, from another address.
    "master_spoof": Refusal(lambda s, r, p, who: Told(who.master.user, who.master.game, master=True),
                            _says(N_("A message to your Master's address came from an address that is not "
                                  "yours: it was not applied. The desk's log says which.")), "",
                            lambda parsed: ["master token from another address"]),
    # A Master's address, without their reply address for a game.
    "master_without_token": Refusal(lambda s, r, p, who: Told(who.user, master=True), _master_without_token,
                                    None, lambda parsed: ["master without token"]),
    # A player's code, from another address.
    "spoof": Refusal(lambda s, r, p, who: Told(who.seat.user, who.seat.game, who.seat),
                     _says(N_("A message with your code came from an address that is not yours: it was not "
                           "applied. Use your registered address.")), "", lambda parsed: []),
    # No code at all: a registered address is told how to reach its game.
    "unknown": Refusal(lambda s, r, p, who: Told(user_by_address(s, r.from_addr)),
                       _says(N_("I cannot tell the game: reply to a mail you received from the game, without "
                             "changing the reply address.")), None, lambda parsed: []),
}


def seat_also_spoofed(session: Session, parsed: ParsedMessage, who: Refused) -> Seat | None:
    """A Master writing without their own address but with a player's token (a Master of
    another game using Bruno's reply address) spoofs that seat too: its owner is told."""
    if who.why != "master_without_token":
        return None
    seat = seat_by_token(session, parsed.token)
    if seat is not None and seat.mailable and not same_address(seat.user.email, who.user.email):
        return seat
    return None

