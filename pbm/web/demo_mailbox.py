"""The demo's local mailbox: every message the embedded SMTP server kept, for
the Masters to read, and a reply as its recipient would send it.

Registered only on the embedded mail set-up (``embedded_mail``): elsewhere
the mail really leaves, and there is no local copy to show. Each Master sees
only the mail of the games they master (and mail to their own address): a
role letter or a private result of another game is none of their business.
"""
from __future__ import annotations

import email
import email.message
import email.parser
import email.policy
import email.utils
import mailbox
import smtplib
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import and_, or_, select

from ..i18n import request_lang
from .. import operations, render
from ..mail import smtpd
from ..models import Game, GameMaster, OutboxRow
from . import config, db, now
from .forms import CsrfForm

bp = Blueprint("mailbox", __name__)

# What the page reads of the local mailbox: the newest messages only.
SHOWN = 200


def embedded_mail(cfg: dict[str, Any]) -> bool:
    """Is mail in and out the embedded demo's (nothing leaves the machine)?"""
    return smtpd.is_embedded_relay(cfg)


def _my_game_ids() -> set[int]:
    return set(db().scalars(select(GameMaster.game_id).where(GameMaster.user_id == current_user.id)))


def _require_a_master() -> set[int]:
    if not current_user.is_admin:
        abort(403)
    return _my_game_ids()


def _visible(game_ids: set[int]):
    """The outbox rows this Master may read: mail to them, and their games' mail but
    for a mail carrying a link that logs its reader in (a sign-up's confirmation, a
    set-password or reset link): whoever reads that link becomes its addressee, so
    only the addressee may."""
    return or_(OutboxRow.to_addr == current_user.email,
               and_(OutboxRow.game_id.in_(game_ids), OutboxRow.login_link.is_(False)))


def _readable_keys(box: mailbox.Maildir, game_ids: set[int], shown: int = SHOWN
                   ) -> tuple[list[tuple[str, email.message.EmailMessage, OutboxRow]], int]:
    """The local mailbox's newest messages this Master may read, each tied to the outbox
    row that sent it (by Message-ID), and how many there are in all. Only the headers of
    each file are read to tell which (a whole parse of every message made the page take
    1.5 s at 259 messages: issue 31); only the ``shown`` newest are parsed whole."""
    keys = sorted(box.keys(), reverse=True)  # Maildir keys start with the time
    heads = []
    for key in keys:
        with box.get_file(key) as f:
            # mailbox's file proxy reads like a binary file; typeshed asks for more than parse uses
            head = _HEADERS.parse(f, headersonly=True)  # type: ignore[arg-type]
        heads.append((key, " ".join(str(head.get("Message-ID", "")).split())))
    ids = {mid for _, mid in heads if mid}
    rows = {r.message_id: r for r in db().scalars(
        select(OutboxRow).where(OutboxRow.message_id.in_(ids), _visible(game_ids)))} if ids else {}
    readable = [(key, mid) for key, mid in heads if mid in rows]
    out = [(key, email.message_from_bytes(box.get_bytes(key), policy=email.policy.default), rows[mid])
           for key, mid in readable[:shown]]
    return out, len(readable)


_HEADERS = email.parser.BytesParser(policy=email.policy.compat32)


def _when(header: str) -> str:
    """A mail's Date header as the reader's language writes it, on their clock (a
    header the mail program could not read is shown as it came)."""
    try:
        sent = email.utils.parsedate_to_datetime(str(header))
    except (TypeError, ValueError):
        return str(header)
    if sent is None:
        return str(header)
    tz = current_user.tz or config()["DEFAULT_TIMEZONE"]
    return render.when_text(sent, request_lang(), tz)


def _example(row: OutboxRow) -> str:
    """The reply's hint: a command of that mail's game, in the reader's language."""
    game = db().get(Game, row.game_id) if row.game_id else None
    if game is None:
        return ""
    from engine.registry import get_ruleset
    return get_ruleset(game.ruleset).welcome(request_lang())["example"]


def _body(msg: email.message.EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return part.get_content() if part is not None else ""


@bp.route("/master/mailbox")
@login_required
def index():
    game_ids = _require_a_master()
    path = Path(config()["LOCAL_MAILBOX"])
    messages, total = [], 0
    if path.exists():
        box = mailbox.Maildir(str(path), create=False)
        readable, total = _readable_keys(box, game_ids)
        for key, msg, row in readable:
            messages.append({"key": key, "date": _when(msg.get("Date", "")), "to": msg.get("To", ""),
                             "from": msg.get("From", ""), "subject": msg.get("Subject", ""),
                             "reply_to": msg.get("Reply-To", ""), "seat_mail": row.game_id is not None,
                             "body": _body(msg), "example": _example(row)})
    outbox = db().scalars(select(OutboxRow).where(_visible(game_ids))
                          .order_by(OutboxRow.id.desc()).limit(100)).all()
    return render_template("mailbox.html", messages=messages, total=total, outbox=outbox, csrf_form=CsrfForm())


@bp.route("/master/mailbox/reply", methods=["POST"])
@login_required
def reply():
    """Answer a message of the local mailbox as its recipient would, through the
    embedded SMTP server: the demo's way to play by mail from the browser.
    Only for the viewer's own games, and written in that game's log."""
    game_ids = _require_a_master()
    if not CsrfForm().validate_on_submit():
        abort(400)
    try:
        box = mailbox.Maildir(str(Path(config()["LOCAL_MAILBOX"])), create=False)
        raw = box.get_bytes(request.form.get("key", ""))
    except (KeyError, mailbox.NoSuchMailboxError):
        abort(404)
    original = email.message_from_bytes(raw, policy=email.policy.default)
    message_id = " ".join(str(original.get("Message-ID", "")).split())
    row = db().scalar(select(OutboxRow).where(OutboxRow.message_id == message_id, _visible(game_ids)))
    if row is None or row.game_id not in game_ids:
        abort(404)  # not a message of this Master's games: as if it were not there
    answer = email.message.EmailMessage()
    answer["From"] = original["To"]
    answer["To"] = original.get("Reply-To") or original["From"]
    answer["Subject"] = "Re: " + str(original.get("Subject", ""))
    answer["Message-ID"] = email.utils.make_msgid(domain="lupus.localhost")
    answer["In-Reply-To"] = original["Message-ID"]
    answer["References"] = original["Message-ID"]
    quoted = "\n".join("> " + line for line in _body(original).splitlines())
    text = request.form.get("body", "")
    answer.set_content(f"{text}\n\n{original.get('Date', '')}, Lupus ha scritto:\n{quoted}\n")
    session = db()
    game = session.get(Game, row.game_id)
    operations.log(session, game, current_user, "mailbox_reply", now(), to=row.to_addr,
                   body=text[:500])
    session.commit()
    with smtplib.SMTP(config()["EMBEDDED_SMTP_HOST"], int(config()["EMBEDDED_SMTP_PORT"]), timeout=10) as smtp:
        smtp.send_message(answer)
    flash(_("Reply sent as %(who)s; the worker reads it within a few seconds.", who=str(answer["From"])),
          "receipt")
    return redirect(url_for("mailbox.index"))
