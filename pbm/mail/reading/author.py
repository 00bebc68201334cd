"""Who a message says it is from: the address in the From field that the receiving
server checked (SPF, DKIM and DMARC all speak of the bracketed address), and
whether the display name shows another one.

``anna@example.com <mallory@attacker.test>`` passes DMARC for attacker.test, and a
reader that takes the first address it sees reads Anna; so does Outlook's
``Anna [mailto:anna@example.com] <mallory@attacker.test>``. Here the address is the
bracketed one, and a display name naming another address (or a From naming several
senders) makes the message's author ``doubtful``: the service refuses it
(pbm/inbox/identify.py), whoever the bracketed address belongs to.

``email.headerregistry`` (the standard library's RFC 5322 parser) reads a well-formed
field; for a malformed one, where it recovers by taking the first address-like text
(the very reading the attack relies on), the bracketed address is taken instead.
Nothing here raises, whatever the header holds.
"""
from __future__ import annotations

import email.header
import email.policy
import re
from dataclasses import dataclass
from email.errors import InvalidHeaderDefect
from email.message import Message

from .parse_body import decode_bytes, decode_header_value

# An address as a person would read it in a display name (mailto: links included).
_ADDRESS_LIKE = re.compile(r"[^\s<>()\[\]\"',;:@]+@[^\s<>()\[\]\"',;:@]+\.[^\s<>()\[\]\"',;:@]+")
_BRACKETED = re.compile(r"<\s*([^<>\s]*)\s*>")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


@dataclass(frozen=True)
class Author:
    name: str = ""
    address: str = ""          # lower case; "" when the field names no address
    # None, or why the field cannot be taken at its word:
    # "named_other": the display name shows another address (``named``);
    # "several": the field (or several From fields) names more than one sender.
    doubtful: str | None = None
    named: str = ""


def author_of(msg: Message) -> Author:
    try:
        values = msg.get_all("From") or []
    except Exception:
        return Author(doubtful="several")
    if not values:
        return Author()
    authors = {_read(_text(value)) for value in values}
    if len(authors) > 1 or len({a.address for a in authors}) > 1:
        first = min(authors, key=lambda a: (a.address == "", a.address))
        return Author(first.name, first.address, "several")
    return authors.pop()


def _text(value: object) -> str:
    """The field as text, its RFC 2047 words still encoded (they are decoded as parts
    of a display name, never before the field's structure is read), raw 8-bit bytes
    decoded (compat32 hands those out as a Header of unknown-8bit chunks)."""
    if isinstance(value, email.header.Header):
        text = "".join(decode_bytes(chunk, None if charset in (None, "unknown-8bit") else charset)
                       if isinstance(chunk, bytes) else chunk
                       for chunk, charset in email.header.decode_header(value))
    else:
        text = str(value)
    if any("\udc80" <= ch <= "\udcff" for ch in text):
        text = decode_bytes(text.encode("utf-8", "surrogateescape"), None)
    return " ".join(text.split())


def _read(text: str) -> Author:
    try:
        field = email.policy.default.header_factory("From", text)
        mailboxes = list(field.addresses)
        clean = not any(isinstance(d, InvalidHeaderDefect) for d in field.defects)
    except Exception:
        mailboxes, clean = [], False
    if clean and len(mailboxes) == 1 and "@" in mailboxes[0].addr_spec:
        return _checked(mailboxes[0].display_name, mailboxes[0].addr_spec, text)
    if clean and len(mailboxes) > 1:
        return Author(mailboxes[0].display_name, mailboxes[0].addr_spec.lower(), "several")
    return _read_malformed(text, mailboxes)


def _read_malformed(text: str, mailboxes: list) -> Author:
    """A field the RFC 5322 parser had to guess at: the bracketed address, as the
    receiving server read it, the rest of the field its display name."""
    unquoted = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    brackets = [m for m in _BRACKETED.finditer(unquoted) if "@" in m.group(1)]
    if len(brackets) == 1:
        bracket = brackets[0]
        name = (text[:bracket.start()] + " " + text[bracket.end():]).strip().strip('"').strip()
        return _checked(decode_header_value(name), bracket.group(1), text)
    if len(brackets) > 1:
        return Author(decode_header_value(text[:brackets[0].start()]).strip(),
                      brackets[0].group(1).lower(), "several")
    # No brackets: a bare address, perhaps with a comment ('anna@example.com (Anna)')
    # or words around it that the parser would glue into its local part.
    seen = {a.lower() for a in _ADDRESS_LIKE.findall(decode_header_value(text))}
    if len(seen) > 1:
        return Author("", min(seen), "several")
    if len(seen) == 1:
        return _checked("", seen.pop(), text)
    found = [m for m in mailboxes if "@" in m.addr_spec]
    if len(found) == 1:
        return _checked(found[0].display_name, found[0].addr_spec, text)
    return Author()


def _checked(name: str, address: str, field: str) -> Author:
    """The author, doubtful if anything a mail program may show of the field (its
    display name, a comment) holds an address other than ``address``."""
    name = " ".join((name or "").split())
    address = address.strip().lower()
    for shown in _ADDRESS_LIKE.findall(name + " " + decode_header_value(field)):
        shown = shown.lower().strip(".")
        if shown != address:
            return Author(name, address, "named_other", shown)
    return Author(name, address)
