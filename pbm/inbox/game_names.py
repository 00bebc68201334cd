"""A game's names and addresses as the parser reads a message with them, read once
for a whole batch of that game's mail."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session

from ..mail.reading.parse import ParsedMessage, parse_message
from ..models import Game, InboundRow, Seat, User


def names_of(session: Session, game: Game) -> tuple[list[str], dict[str, str]]:
    # One query for every seat's address (loading each seat's user lazily
    # cost 40 queries per message in a game of 40), once per batch.
    known = session.info.setdefault("names_of", {})
    if game.id not in known:
        pairs = session.execute(select(Seat.name, User.email).join(User, User.id == Seat.user_id)
                                .where(Seat.game_id == game.id).order_by(Seat.position)).all()
        known[game.id] = ([name for name, _ in pairs], dict(pairs))
    names, addresses = known[game.id]
    return list(names), dict(addresses)


def parse_for(row: InboundRow, game: Game, own: bool = False) -> ParsedMessage:
    names, addresses = names_of(object_session(game), game)
    return parse_message(row.raw, names, addresses, vocabulary=game.ruleset, own=own)
