"""A reply to a room's mail (lupus+TOKEN@, the token of one reader's place in one
room): its new text, the quoted mail removed by the mail reader, posted into that room
as that reader (operations.rooms.post, the web's path too), threaded under the post it
answers. The sender must be the reader's registered address, as for a player's
commands (identify.py); a room takes no commands, so a mail that reads as commands
only is not posted and the sender is told where commands go. A refused post is
answered with why, and the text, so nothing is lost."""
from __future__ import annotations

import re
from datetime import datetime
from email.message import Message
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import Rejected

from .. import render
from ..i18n import gettext_in
from ..mail.reading.parse import parse_message
from ..mail.reading.parse_body import is_attachment
from ..models import InboundRow
from ..operations import rooms
from ..talk_models import RoomReader
from .game_names import names_of
from .identify import failed_dmarc, is_master_address, master_local_part, same_address, sent_to_noreply
from .outcome import Outcome
from .receipts import talk_receipt

_POST_ID = re.compile(r"<post-(\d+)-\d+@")


def reader_by_token(session: Session, token: str | None) -> RoomReader | None:
    if not token:
        return None
    return session.scalar(select(RoomReader).where(RoomReader.token == token))


def post_by_mail(session: Session, config: dict[str, Any], row: InboundRow, headers: Message,
                 reader: RoomReader, token: str, now: datetime) -> Outcome:
    room, user = reader.room, reader.user
    game = room.game
    names, addresses = names_of(session, game)
    parsed = parse_message(headers, names, addresses, reply_localpart=master_local_part(config),
                           vocabulary=game.ruleset, token=token)
    sender = (parsed.from_address or "").strip().lower()[:254]
    row.from_addr, row.game_id = sender, game.id
    if parsed.ignored:
        return Outcome("ignored", errors=[parsed.ignored])
    if sender == config["NOREPLY_ADDRESS"].lower() or is_master_address(sender, config) or sent_to_noreply(
            headers, config):
        return Outcome("ignored", errors=["own address"])
    lang = user.lang
    if parsed.from_doubtful or failed_dmarc(headers) or not same_address(user.email, sender):
        # Told at the registered address of the place the token names, never the sender.
        talk_receipt(session, config, row, parsed, user, game, [gettext_in(
            lang, "A message for one of your rooms came from an address that is not yours: it was not "
                  "posted. Write from your registered address.")], now, proven=False)
        return Outcome("refused", errors=["room token from another address"])
    seat = next((s for s in game.seats if s.user_id == user.id), None)
    text = parsed.reply_text.strip()
    notes = _attachments_note(headers, lang)
    if parsed.commands and not parsed.ignored_lines and not parsed.ignored_text:
        page = f"{config['BASE_URL'].rstrip('/')}/g/{game.slug}/me"
        talk_receipt(session, config, row, parsed, user, game, [gettext_in(
            lang, "This message reads as game commands, and a room takes none: it was not posted, and "
                  "nothing was recorded. To play, reply to the phase's mail or use your page: %(page)s. "
                  "To talk about it in the room, add a sentence of your own.", page=page)], now)
        return Outcome("refused", errors=["commands in a room"])
    parent = _parent(parsed.in_reply_to, parsed.references)
    try:
        post = rooms.post(session, config, game, room.key, text, user=user, seat=seat, now=now, via="mail",
                          parent_id=parent, inbound_id=row.id)
    except Rejected as exc:
        why = render.rejection(exc.code, exc.params, game.ruleset, lang)
        kept = gettext_in(lang, "Your text, so that nothing is lost: “%(text)s”", text=text[:2000]) if text else ""
        talk_receipt(session, config, row, parsed, user, game, [why] + ([kept] if kept else []) + notes, now)
        return Outcome("refused", errors=[exc.code])
    if notes:
        talk_receipt(session, config, row, parsed, user, game, notes, now)
    return Outcome("processed", applied=[f"post {post.id} in {room.key}"])


def _parent(in_reply_to: str | None, references: list[str] | None) -> int | None:
    for ref in [in_reply_to, *reversed(references or [])]:
        found = _POST_ID.match(ref or "")
        if found:
            return int(found.group(1))
    return None


def _attachments_note(headers: Message, lang: str) -> list[str]:
    if not any(is_attachment(part) for part in headers.walk()):
        return []
    return [gettext_in(lang, "Attachments are not posted in the rooms: only the text of the message.")]
