"""Getting readable text out of a raw message: charsets, headers, parts, HTML.

Mail from the wild declares charsets Python does not know ("unicode-1-1-utf-7",
"3D,ascii"), lies about them, or breaks MIME outright; nothing here may raise.
"""
from __future__ import annotations

import codecs
import email
import email.header
import email.message
import email.utils
import re
from email.utils import collapse_rfc2231_value

import html2text

from . import html_budget

FALLBACK_CHARSETS = ("utf-8", "cp1252", "latin-1")


# Labels clients put on text that is really windows-1252: its curly apostrophe (0x92) and
# quotes are C1 control characters in iso-8859-1, invisible in a name ("D\x92Angelo").
# Browsers read these labels as windows-1252 (the WHATWG Encoding standard); so do we.
# A part labelled us-ascii that holds 8-bit bytes is UTF-8 first, as phones send it.
_READ_AS_WINDOWS_1252 = {"iso8859-1": ("cp1252",), "ascii": ("utf-8", "cp1252")}


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Declared charset if Python knows it and the bytes fit; else utf-8, cp1252, latin-1.

    latin-1 maps every byte, so the chain always ends with text."""
    tried: list[str] = []
    if charset:
        name = charset.strip().strip('"').strip("'").lower()
        try:
            known = codecs.lookup(name).name
            tried.extend(_READ_AS_WINDOWS_1252.get(known, (name,)))
        except (LookupError, ValueError):
            pass
    for name in tried + list(FALLBACK_CHARSETS):
        try:
            return data.decode(name)
        except Exception:  # 'undefined', 'idna', bytes-to-bytes codecs: all just fall through
            continue
    return data.decode("latin-1", errors="replace")  # unreachable in practice


def header_text(msg: email.message.Message, name: str) -> str:
    """A header as readable text, encoded-words decoded; '' when absent or hopeless."""
    try:
        raw = msg.get(name)
    except Exception:
        return ""
    if raw is None:
        return ""
    return decode_header_value(raw)


def decode_header_value(raw) -> str:
    try:
        if isinstance(raw, email.header.Header):
            chunks = email.header.decode_header(raw)
        else:
            chunks = email.header.decode_header(str(raw))
    except Exception:
        return " ".join(str(raw).split())
    out = []
    for chunk, charset in chunks:
        if isinstance(chunk, bytes):
            out.append(decode_bytes(chunk, charset))
        else:
            out.append(chunk)
    # decode_header keeps surrogate-escaped raw 8-bit bytes; turn them back into text.
    text = "".join(out)
    if any("\udc80" <= ch <= "\udcff" for ch in text):
        text = decode_bytes(text.encode("utf-8", "surrogateescape"), None)
    return " ".join(text.split())


def header_all(msg: email.message.Message, name: str) -> list[str]:
    try:
        values = msg.get_all(name) or []
    except Exception:
        return []
    return [decode_header_value(v) for v in values]


def address_of(value: str) -> tuple[str, str]:
    """(display name, address) from a From-like value; handles Outlook's [mailto:x]."""
    value = value or ""
    m = re.search(r"\[mailto:([^\]\s]+)\]", value)
    if m:
        name = value[: m.start()].strip().strip('"').strip()
        return name, m.group(1).strip().lower()
    try:
        name, addr = email.utils.parseaddr(value)
    except Exception:
        name, addr = "", ""
    if "@" not in addr:
        m = re.search(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", value)
        addr = m.group(0) if m else ""
        if m and not name:
            name = value.replace(m.group(0), "").strip(" <>\"'()")
    return name.strip().strip('"').strip(), addr.strip().lower()


def content_type(part: email.message.Message) -> str:
    try:
        return (part.get_content_type() or "text/plain").lower()
    except Exception:
        return "text/plain"


def is_attachment(part: email.message.Message) -> bool:
    try:
        disposition = (part.get("Content-Disposition") or "").lower()
    except Exception:
        return False
    return disposition.strip().startswith("attachment")


def subparts(part: email.message.Message) -> list[email.message.Message]:
    """Children of a multipart, or [] when the MIME is broken (payload left as a string)."""
    try:
        payload = part.get_payload()
    except Exception:
        return []
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, email.message.Message)]
    return []


def part_text(part: email.message.Message) -> str:
    """Decoded text of a leaf part (transfer encoding and charset), never raising."""
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if not isinstance(data, bytes):  # None: no payload to decode
        try:
            payload = part.get_payload()
        except Exception:
            payload = ""
        if isinstance(payload, list):
            return ""
        data = str(payload).encode("utf-8", "surrogateescape")
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
    text = decode_bytes(data, charset)
    try:
        if collapse_rfc2231_value(part.get_param("format") or "").lower() == "flowed":
            text = unflow(text, collapse_rfc2231_value(part.get_param("delsp") or "").lower() == "yes")
    except Exception:
        pass
    return text


def unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed: join soft-broken lines so a long line of free text stays one line."""
    out: list[str] = []
    buffer = ""
    for line in text.replace("\r\n", "\n").split("\n"):
        if line == "-- ":  # signature separator is never flowed
            if buffer:
                out.append(buffer)
                buffer = ""
            out.append(line)
            continue
        if line.startswith(" "):  # space-stuffing
            line = line[1:]
        if line.endswith(" ") and not line.startswith(">"):
            buffer += line[:-1] if delsp else line
        else:
            out.append(buffer + line)
            buffer = ""
    if buffer:
        out.append(buffer)
    return "\n".join(out)


def _nested_quote_break(converter, tag, attrs, start) -> bool:
    """html2text breaks a line inside nested blockquotes with a single '> ', so the
    line after a <br> in a quoted reply's own quote loses its inner level; after a
    forward is dequoted it would read as unquoted text. Keep the depth."""
    if tag == "br" and start and converter.blockquote > 1:
        converter.o("  \n" + ">" * converter.blockquote + " ")
        return True
    return False


def html_to_text(html: str) -> str:
    converter = html2text.HTML2Text()
    converter.body_width = 0  # never wrap: a command must stay on one line
    converter.ignore_links = True
    converter.ignore_images = True
    converter.ignore_emphasis = True
    converter.ignore_tables = True
    converter.tag_callback = _nested_quote_break  # type: ignore[assignment]  # html2text declares it None
    try:
        text = converter.handle(html)
    except Exception:
        return re.sub(r"<[^>]+>", " ", html)
    # html2text escapes Markdown ('\\- VOTO Carla', '1\\. ...'); players wrote no Markdown.
    return re.sub(r"\\([-+.#*_`\[\]()!>])", r"\1", text)


def _text_leaves(msg: email.message.Message, attached: list[email.message.Message],
                 depth: int = 0) -> list[tuple[str, email.message.Message]]:
    """Inline text parts in order, not descending into attached messages (collected apart)."""
    if depth > 20:
        return []
    ctype = content_type(msg)
    if ctype == "message/rfc822":
        attached.extend(subparts(msg))
        return []
    if msg.is_multipart() or ctype.startswith("multipart/"):
        leaves = []
        for sub in subparts(msg):
            leaves.extend(_text_leaves(sub, attached, depth + 1))
        if not leaves and not subparts(msg) and ctype.startswith("multipart/"):
            # Broken boundary: the whole payload is one string; read it as plain text.
            leaves.append(("text/plain", msg))
        return leaves
    if ctype in ("text/plain", "text/html") and not is_attachment(msg):
        return [(ctype, msg)]
    return []


def body_text(msg: email.message.Message) -> tuple[str, list[email.message.Message], str]:
    """(text of the message, attached messages, 'plain'|'html'|'none').

    text/plain is preferred; HTML is converted only when no usable plain part exists."""
    attached: list[email.message.Message] = []
    leaves = _text_leaves(msg, attached)
    plain = [p for t, p in leaves if t == "text/plain"]
    html = [p for t, p in leaves if t == "text/html"]
    if plain:
        # Apple Mail cuts the text around an inline picture into several text/plain parts
        # (multipart/mixed: text, image, text): the commands may sit in any of them.
        text = "\n".join(part_text(p) for p in plain)
        if text.strip() or not html:
            return normalise_newlines(text), attached, "plain"
    if html:
        return normalise_newlines(html_budget.convert(part_text(html[0]), html_to_text)), attached, "html"
    return "", attached, "none"


# Characters nobody sees: zero-width spaces and joiners, the byte-order mark, soft hyphens,
# direction marks, and control characters (C0 but tab and newline, C1). Editors and phones
# leave them in text; inside a name they would make "Lucia" another word.
_INVISIBLE = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c"
                        "\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e"
                        "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]")


def normalise_newlines(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # The other line separators stay line breaks (strip_reply splits at them too).
    text = re.sub("[\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]", "\n", text)
    # Non-breaking and other wide spaces become spaces; what nobody sees goes.
    text = re.sub("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]", " ", text)
    return _INVISIBLE.sub("", text)


def parse_bytes(raw: bytes) -> email.message.Message:
    """compat32 parsing: the most forgiving the stdlib offers for broken headers."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    return email.message_from_bytes(raw)
