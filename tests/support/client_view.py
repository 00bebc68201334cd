"""Mail as a mail program shows it: the raw bytes a relay received, parsed with
``email.policy.default`` (the standard library's RFC 5322 and RFC 2047 reading, as
Thunderbird, Gmail or a phone read a message), with what would go wrong on the way or
on screen listed in ``problems``.

    view = parse_as_client(received.raw)
    assert view.problems == []
    assert view.from_name == "Lupus – Partita"

Reusable for any template's mail (a test per template is another day's work)."""
from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass, field

# RFC 5322 2.1.1: a line is at most 998 characters, its CRLF aside.
MAX_LINE_OCTETS = 998
SHOWN_HEADERS = ("From", "To", "Reply-To", "Subject", "Date", "Message-ID")


@dataclass
class ClientView:
    from_name: str = ""
    from_address: str = ""
    reply_to: str = ""
    subject: str = ""
    text: str = ""               # the text/plain part, decoded
    html: str | None = None      # the text/html part, decoded, if any
    longest_line: int = 0        # octets, without the line end
    problems: list[str] = field(default_factory=list)


def parse_as_client(raw: bytes) -> ClientView:
    view = ClientView()
    lengths = [len(line.rstrip(b"\r")) for line in raw.split(b"\n")]
    view.longest_line = max(lengths)
    for number, length in enumerate(lengths, 1):
        if length > MAX_LINE_OCTETS:
            view.problems.append(f"line {number} is {length} octets (at most {MAX_LINE_OCTETS})")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for name in SHOWN_HEADERS:
        try:
            header = msg[name]
        except Exception as exc:  # what a client would choke on
            view.problems.append(f"{name}: cannot be read ({exc})")
            continue
        if header is None:
            continue
        if header.defects:
            view.problems.append(f"{name}: {[str(d) for d in header.defects]}")
        if "=?" in str(header):
            view.problems.append(f"{name} still shows encoded words once decoded: {str(header)!r}")
    sender = msg["From"]
    if sender is None or len(sender.addresses) != 1:
        view.problems.append(f"From names {0 if sender is None else len(sender.addresses)} senders")
    else:
        view.from_name, view.from_address = sender.addresses[0].display_name, sender.addresses[0].addr_spec
    view.reply_to = str(msg["Reply-To"] or "")
    view.subject = str(msg["Subject"] or "")
    for kind in ("plain", "html"):
        part = msg.get_body((kind,))
        if part is None:
            continue
        if part.defects:
            view.problems.append(f"text/{kind} part: {[str(d) for d in part.defects]}")
        try:
            content = part.get_content()
        except Exception as exc:
            view.problems.append(f"text/{kind} part cannot be decoded: {exc}")
            continue
        if kind == "plain":
            view.text = content
        else:
            view.html = content
    if msg.get_body(("plain",)) is None:
        view.problems.append("no text/plain part")
    return view
