"""Who sits at a game, as read: its seats with their users in one query, and who held
each seat from which phase (substitutes; ``SeatHolder``). Only reads: the operations
change the seats (``pbm.operations.seats``); they, the archive and the pages read them
here."""
from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from .models import Game, Seat, SeatHolder


def load_seats(session: Session, game: Game) -> list[Seat]:
    """The game's seats with their users, read in one query and handed to the game as
    loaded: a boundary, or the Masters' desk, reads every seat's user, and lazy
    loading would ask for them one at a time."""
    seats = list(session.scalars(_SEATS_WITH_USERS, {"game_id": game.id}))
    set_committed_value(game, "seats", seats)
    return seats


# Built once: building a statement costs about as much as running it.
_SEATS_WITH_USERS = (select(Seat).where(Seat.game_id == bindparam("game_id")).options(joinedload(Seat.user))
                     .order_by(Seat.position))


def substitutions(session: Session, game: Game) -> list[SeatHolder]:
    """Every substitute's arrival, in order (a seat's first holder is not one)."""
    rows = session.scalars(select(SeatHolder).join(Seat, Seat.id == SeatHolder.seat_id)
                           .where(Seat.game_id == game.id).order_by(SeatHolder.id)).all()
    firsts: set[int] = set()
    out = []
    for row in rows:
        if row.seat_id in firsts:
            out.append(row)
        firsts.add(row.seat_id)
    return out


def holders(session: Session, game: Game) -> dict[str, list[SeatHolder]]:
    """Each substituted seat's holders in order (seats never substituted are absent)."""
    out: dict[str, list[SeatHolder]] = {}
    for row in session.scalars(select(SeatHolder).join(Seat, Seat.id == SeatHolder.seat_id)
                               .where(Seat.game_id == game.id).order_by(SeatHolder.id)):
        out.setdefault(row.seat.name, []).append(row)
    return out
