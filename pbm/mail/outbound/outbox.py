"""The outbox: composed messages stored as rows, inside the caller's transaction, for
send.py to deliver. Nothing is sent here: a resolution that fails queues nothing, and
one that commits has queued all its mail.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from ...models import Game, OutboxPart, OutboxRow, Seat
from .composer import compose


def queue(session: Session, config: dict[str, Any], *, to: str, template: str, lang: str,
          now: datetime, game: Game | None = None, seat: Seat | None = None,
          kind: str | None = None, auto_reply: bool = False, in_reply_to: str | None = None,
          references: str | None = None, context: dict[str, Any] | None = None,
          phase_id: int | None = None) -> OutboxRow:
    """Queue one message (see ``compose``)."""
    row = OutboxRow(**compose(config, to=to, template=template, lang=lang, now=now, game=game, seat=seat,
                              kind=kind, auto_reply=auto_reply, in_reply_to=in_reply_to,
                              references=references, context=context, phase_id=phase_id))
    session.add(row)
    return row


def store_part(session: Session, now: datetime, html: str) -> int:
    """Store the shared end of many messages' HTML alternative (an OutboxPart, to
    give ``compose`` as ``html_part_id``); its id."""
    return session.execute(insert(OutboxPart.__table__).values(created_at=now, html=str(html))
                           .returning(OutboxPart.__table__.c.id)).scalar_one()


def queue_all(session: Session, messages: list[dict[str, Any]]) -> None:
    """Store messages made by ``compose``, in their order, with one INSERT (the
    table's own statement: nothing needs the rows as objects, and the ORM's bulk
    path would split it in two at the first mail that is about no phase)."""
    if messages:
        session.execute(insert(OutboxRow.__table__), messages)
