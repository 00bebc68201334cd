"""A Master forwarding a player's mail: find the forwarded sender and body.

Recognised inline forms (the marker must not sit inside quoted history):
  Gmail       ---------- Forwarded message --------- / ---------- Messaggio inoltrato ---------
  Thunderbird -------- Forwarded Message -------- / -------- Messaggio Inoltrato --------
  Apple Mail  Begin forwarded message: / Inizio messaggio inoltrato:
  Outlook     -----Original Message----- / -----Messaggio originale-----, or a bare
              'Da:/Inviato:/A:/Oggetto:' ('From:/Sent:/To:/Subject:') block, these two only
              when the subject says it is a forward (Fwd:, Fw:, I:, Inoltro:, TR:, WG:),
              since the same blocks head ordinary quoted replies.
Followed by a block of header fields (From/Da/Mittente, Date/Data/Inviato/Sent,
Subject/Oggetto, To/A, Cc). A message/rfc822 attachment is handled by the caller.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .parse_body import address_of
from .parse_reply import history_starts_before

_EXPLICIT_MARKER = re.compile(
    r"^[ \t*>]*(?:-{2,}\s*(?:forwarded message|messaggio inoltrato|mensaje reenviado|"
    r"message transf\u00e9r\u00e9|weitergeleitete nachricht)\s*-{2,}|"
    r"begin forwarded message\s*:|inizio (?:del )?messaggio inoltrato\s*:)[ \t*]*$",
    re.IGNORECASE | re.MULTILINE)
_ORIGINAL_MARKER = re.compile(
    r"^[ \t*]*-{2,}\s*(?:original message|messaggio originale)\s*-{2,}[ \t*]*$",
    re.IGNORECASE | re.MULTILINE)
FORWARD_SUBJECT = re.compile(r"^\s*(?:\[[^\]]*\]\s*)?(?:fwd?|fw|i|inoltro|inoltrato|tr|wg|rv)\s*:",
                             re.IGNORECASE)

_FIELD = re.compile(
    r"^[ \t*]*(from|da|mittente|de|von|sent|inviato|date|data|envoy\u00e9|gesendet|to|a|"
    r"\u00e0|an|cc|ccn|bcc|subject|oggetto|objet|betreff|reply-to|rispondi a|risposta)"
    r"[ \t*]*:[ \t*]*(.*)$", re.IGNORECASE)
_SENDER_FIELDS = ("from", "da", "mittente", "de", "von")
_OUTLOOK_BLOCK_START = re.compile(r"^[ \t*]*(?:from|da|mittente)[ \t*]*:", re.IGNORECASE | re.MULTILINE)


@dataclass
class Forward:
    sender_name: str
    sender_address: str
    subject: str
    body: str
    note: str  # what the forwarding person wrote above the forwarded message


def _read_header_block(lines: list[str]) -> tuple[dict[str, str], int]:
    """Header fields at the top of `lines` (blank lines between fields allowed, as Gmail
    does). Returns the fields and the index of the first body line."""
    fields: dict[str, str] = {}
    i = 0
    last_key = None
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            # A blank line ends the block unless another field follows right after.
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if fields and j < len(lines) and _FIELD.match(lines[j]) and j - i <= 2:
                i = j
                continue
            if not fields:
                i += 1
                continue
            break
        m = _FIELD.match(line)
        if m:
            key = m.group(1).lower()
            fields.setdefault(key, m.group(2).strip().strip("*").strip())
            last_key = key
        elif fields and last_key in ("subject", "oggetto", "to", "a", "cc") and len(fields) < 6:
            # A wrapped subject or recipient list ('Subject: Some subject that\nspans...').
            fields[last_key] += " " + line.strip()
        else:
            break
        i += 1
    return fields, i


def _block_is_headers(fields: dict[str, str]) -> bool:
    return any(k in fields for k in _SENDER_FIELDS) and len(fields) >= 2


_RULE_LINE = re.compile(r"^[ \t*]*(?:_{10,}|-{5,}|-{2,}\s*(?:original message|messaggio originale)\s*-{2,})[ \t*]*$",
                        re.IGNORECASE)


def _written_below(text: str, start: int) -> bool:
    """Whether text of the writer's own follows the '>'-quoted block from `start` on:
    then the block is history they answer below, not a mail they forward (Apple Mail
    puts a forward's own note above it)."""
    return any(line.strip() and not line.lstrip().startswith(">") for line in text[start:].split("\n"))


def _dequote_block(text: str, start: int) -> str:
    """The '>'-quoted block from `start` on, one quote level removed (Apple Mail quotes
    a plain-text forward, its marker included)."""
    out = []
    for line in text[start:].split("\n"):
        stripped = line.lstrip()
        if not stripped.startswith(">"):
            if stripped:
                break
            out.append("")
            continue
        stripped = stripped[1:]
        out.append(stripped[1:] if stripped.startswith(" ") else stripped)
    return "\n".join(out)


def _start_with_rule(text: str, start: int) -> int:
    """Move an Outlook block's start up over the rule line drawn above it."""
    head = text[:start].rstrip("\n \t")
    cut = head.rfind("\n") + 1
    if head[cut:] and _RULE_LINE.match(head[cut:]):
        return cut
    return start


def find_forward(text: str, subject: str) -> Forward | None:
    candidates = list(_EXPLICIT_MARKER.finditer(text))
    if FORWARD_SUBJECT.search(subject or ""):
        candidates += list(_ORIGINAL_MARKER.finditer(text))
        candidates += list(_OUTLOOK_BLOCK_START.finditer(text))
    for m in sorted(candidates, key=lambda m: m.start()):
        marker = text[m.start():m.end()]
        is_block = bool(_OUTLOOK_BLOCK_START.fullmatch(marker))
        start = _start_with_rule(text, m.start()) if is_block else m.start()
        if history_starts_before(text, start):
            break  # the marker belongs to quoted history, not to this message
        if marker.lstrip(" \t*").startswith(">"):
            if _written_below(text, m.start()):
                continue  # quoted history with the reply below it
            block = _dequote_block(text, m.start())
            inner = _EXPLICIT_MARKER.match(block)
            if not inner:
                continue
            rest = block[inner.end():].split("\n")
        else:
            rest = text[m.start() if is_block else m.end():].split("\n")
            first = next((ln for ln in rest if ln.strip()), "")
            if not is_block and first.lstrip().startswith(">"):
                # iPhone Mail: the marker plain, the forwarded headers and body quoted.
                after = m.end() + len(text[m.end():]) - len(text[m.end():].lstrip("\n \t"))
                rest = _dequote_block(text, after).split("\n")
        if rest and not rest[0].strip():
            rest = rest[1:]
        fields, body_start = _read_header_block(rest)
        if not _block_is_headers(fields):
            continue
        sender = next(fields[k] for k in _SENDER_FIELDS if k in fields)
        name, address = address_of(sender)
        subject_field = fields.get("subject") or fields.get("oggetto") or ""
        body = "\n".join(rest[body_start:]).strip("\n")
        return Forward(name, address, subject_field, body, text[:start].strip())
    return None
