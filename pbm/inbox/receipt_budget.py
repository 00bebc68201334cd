"""How many receipts the service sends a day: to one address, and about one game.

Every mail to the Master gets a receipt, and receipts go first in the outbox
(classes.py): 30 mails from one player made 30 receipts, and a player who wanted to
could spend the relay's daily quota. So receipts (of commands, and the refusals told
to a registered address) count a rolling day, per address (RECEIPTS_PER_ADDRESS_PER_DAY)
and per game (RECEIPTS_PER_GAME_PER_DAY). The last receipt within a budget says so
(kind ``receipt_capped``): until when no message gets a receipt of its own, and
that the commands still count, as they do (only their receipt is not sent). After
it, nothing, until the day's count falls below the budget again. A Master's own
receipts (their forwards and entries for a player) count for the game, not for
their address: a Master typing in a table's SMS is not a flood.

The counts read the outbox (its index on kind and time): every worker sees them.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..models import Game, OutboxRow

KINDS = ("receipt", "receipt_error", "receipt_capped")
CAPPED = "receipt_capped"
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Budget:
    """Whether to send this receipt: ``send``; ``last`` (send it, saying no more come
    until ``until``); ``none``."""
    verdict: str
    until: datetime | None = None


def _receipts(session: Session, now: datetime, *where: Any) -> tuple[int, datetime | None, bool]:
    """(how many in the last day, the oldest of them, whether one said the budget was spent)."""
    count, oldest, capped = session.execute(
        select(func.count(), func.min(OutboxRow.created_at),
               func.count().filter(OutboxRow.kind == CAPPED))
        .where(OutboxRow.kind.in_(KINDS), OutboxRow.created_at >= now - DAY, *where)).one()
    return count or 0, oldest, bool(capped)


def check(session: Session, config: dict[str, Any], to: str, game: Game | None, now: datetime,
          master: bool) -> Budget:
    """The budget's answer for one more receipt to ``to`` about ``game`` (``master``:
    a Master's own receipt, counted for the game only)."""
    over: list[datetime] = []
    capped = False
    if not master:
        count, oldest, capped = _receipts(session, now, func.lower(OutboxRow.to_addr) == to.strip().lower())
        if count >= int(config["RECEIPTS_PER_ADDRESS_PER_DAY"]) - 1:
            over.append((oldest or now) + DAY)
    if game is not None:
        count, oldest, _ = _receipts(session, now, OutboxRow.game_id == game.id)
        if count >= int(config["RECEIPTS_PER_GAME_PER_DAY"]) - 1:
            over.append((oldest or now) + DAY)
            # The game's budget is spent: was this address told already?
            capped = capped or _receipts(session, now, OutboxRow.game_id == game.id,
                                         func.lower(OutboxRow.to_addr) == to.strip().lower())[2]
    if not over:
        return Budget("send")
    return Budget("none") if capped else Budget("last", max(over))
