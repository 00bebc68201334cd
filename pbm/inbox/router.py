"""Mail in by the address it was sent to, as Mailman routes a message by its list's
address: the reply token in the address (lupus+TOKEN@) names a seat (a player's
commands, players.py), a Master's place in a game (a Master's commands, masters.py) or
a reader's place in a room (a post, rooms.py);
mail to the no-reply address, bounces and our own mail are ignored; a message with no
token is answered, if at all, at a registered address (receipts.py).

The token names whom the message claims to speak for; identify.py proves it (the
address the receiving server checked must be that seat's or that Master's, DMARC, a
display name that shows another address) before its handler runs.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..mail.reading.parse import header_token, parse_message
from ..mail.reading.parse_body import parse_bytes
from ..models import GameMaster, InboundRow
from .masters import carry_out_for_master
from .game_names import names_of, parse_for
from .identify import Ignored, Refused, master_local_part, seat_by_token, speaker
from .outcome import Outcome
from .players import carry_out_for
from .receipts import oversized, refuse, refuse_oversized
from .rooms import post_by_mail, reader_by_token


def route(session: Session, config: dict[str, Any], row: InboundRow, now: datetime) -> Outcome:
    """Hand a stored message to its handler and return what became of it."""
    if oversized(row, config):
        return Outcome("refused", errors=refuse_oversized(session, config, row, now))
    # The token in the address names the game before the parse, so the common case
    # (a player's reply) is parsed once, with that game's names.
    message = parse_bytes(row.raw)  # read once: asked four questions below, then parsed
    token = header_token(message, master_local_part(config))
    reader = reader_by_token(session, token)
    if reader is not None:  # a room's reply address: a post, never a command
        return post_by_mail(session, config, row, message, reader, token, now)
    hinted = seat_by_token(session, token)
    names, addresses = names_of(session, hinted.game) if hinted is not None else ([], None)
    first = parse_message(message, names, addresses, reply_localpart=master_local_part(config),
                          vocabulary=hinted.game.ruleset if hinted is not None else None, token=token)
    # No real address is longer than 254 characters (RFC 5321), and none of
    # that length is registered: keep what fits, for the Masters to read.
    sender = (first.from_address or "").strip().lower()[:254]
    who = speaker(session, config, row, message, first, hinted, sender, now)
    if isinstance(who, Ignored):
        return Outcome("ignored", errors=who.errors)
    if isinstance(who, Refused):
        return Outcome("refused", errors=refuse(session, config, row, first, who, now))
    if isinstance(who, GameMaster):
        return carry_out_for_master(session, config, row, who, now)
    game = who.game
    parsed = first if who is hinted else parse_for(row, game)
    if parsed.source is not None:
        # The player's own mail: a forward in it is ours she sends on with her command on
        # top, never a Master's forward; a 'PER:' line in it acts for nobody.
        parsed = parse_for(row, game, own=True)
    outcome = carry_out_for(session, config, row, parsed, game, who, now, by=None)
    # Written with the outcome, in the one UPDATE of the row at the end of
    # its savepoint: set before the commands, they cost a flush of their own.
    row.from_addr, row.game_id = sender, game.id
    return outcome
