"""A queued row as the relay is given it: the message written as mail programs read
it. Flask-Mail builds the MIME structure; the From, the Subject, an HTML alternative
and long lines are then written as they must be on the wire (issues 21 and 31).
"""
from __future__ import annotations

import email.policy
import logging
from email.charset import QP, Charset
from email.headerregistry import Address
from email.mime.text import MIMEText
from functools import lru_cache

from flask_mail import Message

from ...models import OutboxRow

log = logging.getLogger(__name__)


class WireMessage(Message):
    """Flask-Mail's message, but text with an HTML alternative is sent as one
    multipart/alternative (Flask-Mail wraps it in a multipart/mixed of one part,
    which some clients show as an attachment)."""

    def _message(self):  # Flask-Mail's own signature
        # Flask-Mail encodes the From and the Subject, both written again below: it is
        # given stand-ins, so that the work is not done twice (a good part of a
        # message's making, for each of a boundary's thousands).
        subject, sender = self.subject, self.sender
        self.subject, self.sender = ("-" if subject else subject), _STAND_IN_SENDER
        try:
            msg = super()._message()
        finally:
            self.subject, self.sender = subject, sender
        # Flask-Mail leaves its message with the SMTP policy, under which every header
        # read or written is parsed and decoded: the headers copied below would lose
        # their encoding, and a From set here would be encoded whole, address and all.
        msg.policy = SMTP_LINES
        if self.alts and not self.attachments:
            alternative = msg.get_payload()[0]
            alternative.policy = SMTP_LINES
            # Quoted-printable: HTML lines may be longer than SMTP's 998 characters.
            alternative.set_payload([_quoted_printable(part) if part.get_content_type() == "text/html"
                                     else part for part in alternative.get_payload()])
            for key, value in msg.items():
                if key.lower() not in ("content-type", "mime-version"):
                    alternative[key] = value
            msg = alternative
        # Flask-Mail encodes the display name whatever it holds: its own From goes.
        msg.replace_header("From", from_header(self.sender))
        if self.subject:
            msg.replace_header("Subject", subject_header(self.subject))
        _fit_lines(msg)
        return msg

    # An address with letters outside ASCII before the @ (sent only with SMTPUTF8):
    # Flask-Mail cannot write it, so the message is written for a stand-in, whose To
    # line is then given the address as RFC 6532 writes it, in UTF-8.
    utf8_to: str | None = None

    def as_bytes(self) -> bytes:
        # SMTP's CRLF line ends: smtplib sends bytes as they are, and a server reading
        # lines by CRLF sees a message written with bare LFs as one long line.
        data = self._message().as_bytes(policy=SMTP_LINES)
        if self.utf8_to is not None:
            head, sep, body = data.partition(b"\r\n\r\n")
            head = head.replace(b"\r\nTo: " + _STAND_IN.encode(), b"\r\nTo: " + self.utf8_to.encode("utf-8"), 1)
            data = head + sep + body
        return data


_STAND_IN = "smtputf8-recipient@invalid"
_STAND_IN_SENDER = "sender@invalid"


SMTP_LINES = email.policy.compat32.clone(linesep="\r\n")


def _quoted_printable(part):  # email.mime parts
    return MIMEText(part.get_payload(decode=True).decode("utf-8"), "html", _qp_utf8())


def _qp_utf8() -> Charset:
    charset = Charset("utf-8")
    charset.body_encoding = QP
    return charset


# RFC 5322: no line of a message longer than 998 characters (octets on the wire),
# its CRLF aside. Relays refuse longer ones ("500 Line too long").
MAX_LINE_OCTETS = 998


def _fit_lines(msg) -> None:  # an email.message.Message
    """A text part written as it is (8bit) with a line too long for SMTP, such as a
    1,000-character note in a Masters' notice, goes as quoted-printable instead,
    whose lines are short and which every mail program reads back unchanged."""
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        if str(part.get("Content-Transfer-Encoding", "")).lower() in ("quoted-printable", "base64"):
            continue
        data = part.get_payload(decode=True) or b""
        if all(len(line) <= MAX_LINE_OCTETS for line in data.splitlines()):
            continue
        text = data.decode(part.get_content_charset() or "utf-8", "replace")
        del part["Content-Transfer-Encoding"]
        part.set_payload(text, _qp_utf8())


# Encoded words as long as a line allows: one word for each run of non-ASCII text.
# RFC 2047 asks for words of 75 characters at most, but a name split into adjacent
# words reads with a space between them in Python's own parser (email.policy.default
# keeps the fold between two words of a display name, which RFC 2047 says to drop),
# and mail programs read long words.
_ONE_WORD = email.policy.SMTP.clone(max_line_length=MAX_LINE_OCTETS)


@lru_cache(maxsize=1024)  # every mail of a game has the same From
def from_header(value: str) -> str:
    """The From field as written on the wire: the display name encoded once, only where
    it is not ASCII (``Lupus =?utf-8?b?4oCT?= Partita``), quoted where it holds a comma
    or a quote, by the standard library's SMTP policy. The outbox keeps it as text
    (``composer._from``); a row queued before kept it encoded already, and is decoded first."""
    try:
        (mailbox,) = email.policy.default.header_factory("From", value).addresses
        if not mailbox.display_name:
            return mailbox.addr_spec
        field = Address(display_name=mailbox.display_name, addr_spec=mailbox.addr_spec)
        folded = _ONE_WORD.header_factory("From", field).fold(policy=_ONE_WORD)
        if any(len(line) > MAX_LINE_OCTETS for line in folded.split("\r\n")):
            folded = email.policy.SMTP.header_factory("From", field).fold(policy=email.policy.SMTP)
    except (ValueError, TypeError, IndexError) as exc:
        log.warning("From %r could not be re-encoded (%s): sent as stored", value, exc)
        return value
    # Unfolded: the message's own policy folds it again, at the spaces between its words.
    return " ".join(folded.split(":", 1)[1].split())


@lru_cache(maxsize=1024)  # every reader of a bulletin has the same Subject
def subject_header(value: str) -> str:
    """The Subject as written on the wire: only its words outside ASCII encoded, in
    words that fit a line, by the standard library's SMTP policy. Flask-Mail encodes a
    subject with any such letter whole, and a whole encoded subject longer than a line
    is folded before its first word, which mail programs then show with a space in
    front (issue 31)."""
    folded = email.policy.SMTP.header_factory("Subject", value).fold(policy=email.policy.SMTP)
    # Unfolded: the message's own policy folds it again, at the spaces between its words.
    return " ".join(folded.split(":", 1)[1].split())


def to_message(row: OutboxRow, to: str | None = None) -> Message:
    """``to``: the address as the relay is given it (its domain in IDNA form)."""
    # With an HTML alternative Flask-Mail writes multipart/alternative, the plain
    # text first: clients that show no HTML (and most screen readers) read it.
    to = to or row.to_addr
    msg = WireMessage(subject=row.subject, recipients=[to if to.isascii() else _STAND_IN], body=row.body,
                  html=row.html or None, sender=row.from_addr, reply_to=row.reply_to,
                  extra_headers=dict(row.headers or {}), charset="utf-8")
    msg.msgId = row.message_id
    if not to.isascii():
        msg.utf8_to = to
    return msg
