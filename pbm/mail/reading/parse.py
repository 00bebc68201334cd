"""One raw RFC 822 message (bytes) -> what its sender asks for.

Pure: no game, no database, no clock. The steps, in order:
  1. decode headers; extract the reply token (plus-address or [lupus:TOKEN] subject tag);
  2. classify mail that must never be answered (bounce, complaint, auto-reply, list);
  3. pick the text (text/plain preferred, HTML through html2text);
  4. a forward by the Master (inline forward or message/rfc822 attachment) or an SMS
     pasted under 'PER: Nome' / 'FOR: Name' yields `on_behalf_of`;
  5. quoted history and signatures are stripped (mail-parser-reply first, then a safety
     net) BEFORE commands are looked for, so a quoted earlier vote never counts;
  6. command lines are parsed against the players' names and the game's vocabulary
     (commands.py; every ruleset's words while the game is not known);
  7. a message that is not ignored and holds neither commands nor errors gets the
     error ``no_command`` (with ``empty: true`` when nothing was written but the quoted
     mail or a signature), so its sender is told; unless it asks what to do ("cosa devo
     fare?", "aiuto": ``help``), which the service answers with the player's role card.

A command is never read from a subject the service wrote (one carrying the game's
``[Name]`` or the ``[lupus:TOKEN]`` tag, under any Re:/R:/AW:/Fwd:/I:), nor from a
subject that asks something: "Re: [Partita] Challenge, block or pass?" is our question,
not the player's answer.

Whether the sender may act (is a player, is a Master) is the service's decision.
"""
from __future__ import annotations

import email.utils
import re
from dataclasses import asdict, dataclass, field
from email.message import Message
from typing import cast

from .commands import find_behalf_line, is_question, looks_like_command, parse_commands, parse_line, read_commands
from .grammar import Grammar, VocabularyLike, grammar
from .help_request import asks_for_help
from .names import fold, resolve_name
from .wording import describe_error
from .author import author_of
from .parse_body import address_of, body_text, header_all, header_text, parse_bytes
from .parse_classify import classify
from .parse_forward import Forward, find_forward
from .parse_reply import strip_reply

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{6,64}$")
SUBJECT_TOKEN_RE = re.compile(r"\[lupus:([A-Za-z0-9_-]{6,64})\]", re.IGNORECASE)
# Re:, R: and RIF: (Outlook in Italian), AW: (German), SV: (Nordic), repeated, Outlook's "RE[2]:" too.
_REPLY_WORDS = r"re|r|rif|aw|sv"
_REPLY_PREFIX = re.compile(rf"^\s*(?:(?:{_REPLY_WORDS})\s*(?:\[\d+\])?\s*:\s*)+", re.I)
# The same with forwards (Fwd:, Fw:, I: in Italian Outlook, Inoltro:) and the game's [tag].
_SUBJECT_DECORATION = re.compile(
    rf"^\s*(?:(?:{_REPLY_WORDS}|fwd?|i|inoltro|wg|tr)\s*(?:\[\d+\])?\s*:\s*|\[[^\]]*\]\s*)+", re.I)
# The service's own subjects: every mail to a player opens with the game's "[Name]" and
# ends with its "[lupus:TOKEN]"; the account mails open with "Lupus PBM:" or "Lupus:".
_OWN_SUBJECT = re.compile(
    rf"^\s*(?:(?:{_REPLY_WORDS}|fwd?|i|inoltro|wg|tr)\s*(?:\[\d+\])?\s*:\s*)*(?:\[|lupus(?:\s+pbm)?\s*:)",
    re.I)
_RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To",
                      "X-Envelope-To", "Resent-To")


@dataclass
class ParsedMessage:
    ignored: str | None = None              # None | "auto-reply" | "bounce" | "complaint" | "list"
    on_behalf_of: str | None = None         # player name, for a forward or a pasted SMS
    source: str | None = None               # None | "forward" | "sms"
    forwarded_from_name: str | None = None
    forwarded_from_address: str | None = None
    commands: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    ignored_lines: list[str] = field(default_factory=list)
    # Prose written after a command's arguments, never read: {"line", "text"} each.
    ignored_text: list[dict] = field(default_factory=list)
    token: str | None = None
    message_id: str | None = None
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    from_address: str | None = None         # the bracketed address (pbm.mail.reading.author)
    from_name: str | None = None
    from_doubtful: str | None = None        # None | "named_other" | "several": see Author
    from_named: str | None = None           # the other address the display name shows
    subject: str = ""
    date: str | None = None
    reply_text: str = ""
    bounced_recipients: list[str] = field(default_factory=list)
    body_format: str = "none"               # "plain" | "html" | "none"
    help: bool = False                      # no command, but asks what to do (help_request.py)

    def to_json(self) -> dict:
        return asdict(self)


def without_reply_prefix(subject: str) -> str:
    """The subject a receipt answers, so that its own 'Re:' is the only one."""
    return _REPLY_PREFIX.sub("", subject)


def subject_commands(subject: str, players: list[str], vocabulary: VocabularyLike | Grammar = None
                     ) -> tuple[list[dict], list[dict]]:
    """Commands a player typed in the subject ("VOTO Carla", empty body): what a
    phone makes easy. Read only when the body has none; see parse_message.
    Commands whose argument is free text stay out of the subject: "Domanda sul
    regolamento" is a question to the Masters, not a command, and "Note" a title."""
    g = grammar(vocabulary)
    if is_own_subject(subject):
        return [], []
    line = _SUBJECT_DECORATION.sub("", SUBJECT_TOKEN_RE.sub("", subject or "")).strip()
    if not looks_like_command(line, g) or is_question(line):
        return [], []
    commands, errors, _ignored = parse_commands(line, players, g)
    if any(g.text_keys & set(c) for c in commands):
        return [], []
    return commands, errors


def is_own_subject(subject: str) -> bool:
    """Did the service write this subject (a reply or forward of one of its mails)?"""
    return bool(SUBJECT_TOKEN_RE.search(subject or "") or _OWN_SUBJECT.match(subject or ""))


def _message_ids(value: str) -> list[str]:
    return re.findall(r"<[^<>\s]+>", value or "")


def _iso_date(value: str) -> str | None:
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(value)
        return parsed.isoformat() if parsed else value
    except Exception:
        return value


def extract_token(msg, subject: str, reply_localpart: str | None = None) -> str | None:
    """Plus-addressed recipient first (the service made it), then the subject tag."""
    values: list[str] = []
    for name in _RECIPIENT_HEADERS:
        values.extend(header_all(msg, name))
    try:
        addresses = [addr for _, addr in email.utils.getaddresses(values)]
    except Exception:
        addresses = re.findall(r"[\w.+=-]+@[\w.-]+", " ".join(values))
    for addr in addresses:
        local = addr.split("@", 1)[0]
        if "+" not in local:
            continue
        base, token = local.split("+", 1)
        if reply_localpart and base.lower() != reply_localpart.lower():
            continue
        if TOKEN_RE.match(token):
            return token
    m = SUBJECT_TOKEN_RE.search(subject or "")
    return m.group(1) if m else None


def resolve_sender(name: str, address: str, players: list[str],
                   player_addresses: dict[str, str] | None) -> tuple[str | None, dict | None]:
    """Which player wrote a forwarded mail: by address, then display name, then local part."""
    if address and player_addresses:
        by_address = [p for p, a in player_addresses.items()
                      if a and a.strip().lower() == address.lower() and p in players]
        if len(by_address) == 1:
            return by_address[0], None
    folded_name = fold(name or "")
    local = fold(re.sub(r"[._\-+]+", " ", (address or "").split("@", 1)[0]))
    if folded_name:
        exact = [p for p in players if fold(p) == folded_name]
        if len(exact) == 1:
            return exact[0], None
    candidates: list[str] = []
    for key in (folded_name, local):
        if not key:
            continue
        # 'Anna Rossi' or 'anna.rossi' -> Anna; the longest player name that fits wins.
        fits = [p for p in players if key == fold(p) or key.startswith(fold(p) + " ")]
        if fits:
            longest = max(len(fold(p)) for p in fits)
            fits = [p for p in fits if len(fold(p)) == longest]
        if not fits and key == folded_name:
            fits = [p for p in players if fold(p).startswith(key)]
        if fits:
            candidates = fits
            break
    if not candidates and folded_name:
        # 'Rossi Anna', 'Verdi, Dario': directories put the surname first; the player's
        # whole name among the display name's words is enough when only one fits.
        words = " " + " ".join(re.sub(r"[^\w']+", " ", folded_name).split()) + " "
        inside = [p for p in players if " " + fold(p) + " " in words]
        longest = max((len(fold(p)) for p in inside), default=0)
        candidates = [p for p in inside if len(fold(p)) == longest]
    if len(candidates) == 1:
        return candidates[0], None
    shown = name or address or ""
    if candidates:
        return None, {"code": "ambiguous_name", "name": shown, "candidates": candidates}
    return None, {"code": "unknown_sender", "name": shown, "candidates": list(players)}


def _outside_lines(text: str, players: list[str], g: Grammar) -> tuple[list[dict], list[str]]:
    """Lines written by the forwarding person: commands there belong to nobody known."""
    errors, ignored = [], []
    for line in (text or "").split("\n"):
        if not line.strip():
            continue
        # Only a line that reads as a whole command is refused: prose such as 'Voto di
        # Bruno, arrivato a me' written above a forward is the Master's note.
        command, _, _ = parse_line(line, players, g)
        if command:
            errors.append({"code": "command_outside_behalf", "line": line.strip()})
        else:
            ignored.append(line.strip())
    return errors, ignored


# A pasted SMS or chat keeps its time stamp and sender: '[20:58] VOTO Dario',
# '23/11/26, 20:58 - Carla: VOTO Dario', '[23/11/26, 20:58:12] Carla Gialli: VOTO Dario'.
_CHAT_STAMP = re.compile(r"^\s*(?:\[[^\]\n]{3,40}\]|\d{1,2}[/.]\d{1,2}[/.]\d{2,4},?\s+\d{1,2}[:.]\d{2}(?::\d{2})?"
                         r"\s*[-\u2013]|\d{1,2}[:.]\d{2}(?::\d{2})?\s*[-\u2013]?)\s*")
_CHAT_SENDER = re.compile(r"^[^:\n]{1,40}:\s+")


def _without_chat_prefix(line: str, g: Grammar) -> str:
    if looks_like_command(line, g):
        return line
    m = _CHAT_STAMP.match(line)
    if not m:
        return line
    rest = line[m.end():]
    for candidate in (rest, _CHAT_SENDER.sub("", rest, count=1)):
        if looks_like_command(candidate, g):
            return candidate
    return line


def _second_forward(forward: Forward, attached) -> list[dict]:
    """One message acts for one player: a second forwarded mail, inline below the first
    or attached beside it, is refused aloud rather than dropped in silence."""
    inner = find_forward(forward.body, "")  # explicit markers only, never in quoted history
    if inner is not None:
        return [{"code": "multiple_behalf", "line": f"{inner.sender_name} <{inner.sender_address}>".strip()}]
    if len(attached) > 1:
        name, address = address_of(header_text(attached[1], "From"))
        return [{"code": "multiple_behalf", "line": f"{name} <{address}>".strip()}]
    return []


def _attached_forward(attached, outer_text: str) -> Forward | None:
    if not attached:
        return None
    inner = attached[0]
    name, address = address_of(header_text(inner, "From"))
    body, _, _ = body_text(inner)
    return Forward(name, address, header_text(inner, "Subject"), body, outer_text)


_UNREAD = object()


def parse_message(raw: bytes | Message, players: list[str], player_addresses: dict[str, str] | None = None,
                  *, reply_localpart: str | None = None, vocabulary: VocabularyLike = None,
                  token: str | None | object = _UNREAD, own: bool = False) -> ParsedMessage:
    """``vocabulary``: the game's ruleset key or Vocabulary; None reads every game's words.
    ``raw`` may be the message already parsed (``parse_bytes``), and ``token`` what
    ``header_token`` found in its headers, when the caller has read them already.

    ``own``: the service knows the sender is a player speaking for herself (her token,
    her address). Then a forwarded mail inside is what she quotes (our bulletin, sent on
    to the Master with "VOTO Alessia" on top), and what she wrote above it is her reply;
    a 'PER: Nome' line speaks for nobody, since only a Master acts for another player."""
    result = _parse(raw, list(players or []), player_addresses, reply_localpart, grammar(vocabulary), token, own)
    if not result.ignored and not result.commands and not result.errors:
        typed = "" if is_own_subject(result.subject) else result.subject
        if asks_for_help(result.reply_text, typed):
            result.help = True
            return result
        # Nothing at all written (an empty reply, a signature): say so, never stay silent.
        written = result.reply_text.strip() or result.ignored_lines
        result.errors.append({"code": "no_command"} if written else {"code": "no_command", "empty": True})
    return result


def header_token(msg: Message, reply_localpart: str | None = None) -> str | None:
    """The token in a parsed message's headers, as ``parse_message`` reads it."""
    return extract_token(msg, header_text(msg, "Subject"), reply_localpart)


def _parse(raw: bytes | Message, players: list[str], player_addresses: dict[str, str] | None,
           reply_localpart: str | None, g: Grammar, token: str | None | object, own: bool = False
           ) -> ParsedMessage:
    msg = raw if isinstance(raw, Message) else parse_bytes(raw)
    subject = header_text(msg, "Subject")
    author = author_of(msg)
    in_reply_to = _message_ids(header_text(msg, "In-Reply-To"))
    result = ParsedMessage(
        subject=subject,
        from_name=author.name or None,
        from_address=author.address or None,
        from_doubtful=author.doubtful,
        from_named=author.named or None,
        message_id=(_message_ids(header_text(msg, "Message-ID")) or [None])[0],
        in_reply_to=in_reply_to[0] if in_reply_to else None,
        references=_message_ids(header_text(msg, "References")),
        date=_iso_date(header_text(msg, "Date")),
        token=extract_token(msg, subject, reply_localpart) if token is _UNREAD else cast("str | None", token),
    )
    result.ignored, result.bounced_recipients = classify(msg, subject)
    if result.ignored:
        return result

    text, attached, result.body_format = body_text(msg)
    forward = find_forward(text, subject)
    attached_forward = False
    if forward is None and attached:
        outer = strip_reply(text)
        if not any(looks_like_command(ln, g) for ln in outer.split("\n")):
            forward = _attached_forward(attached, text)
            attached_forward = forward is not None

    if forward is not None and own:
        text = forward.note  # hers: the forwarded mail below it is quoted, never read
    elif forward is not None:
        result.source = "forward"
        result.forwarded_from_name = forward.sender_name or None
        result.forwarded_from_address = forward.sender_address or None
        if result.token is None:
            tagged = SUBJECT_TOKEN_RE.search(forward.subject or "")
            result.token = tagged.group(1) if tagged else None
        result.on_behalf_of, err = resolve_sender(forward.sender_name, forward.sender_address,
                                                  players, player_addresses)
        note_errors, note_lines = _outside_lines(strip_reply(forward.note), players, g)
        # Quote stripping applies to the forwarded mail itself: the player may have
        # replied above an older bulletin.
        result.reply_text = strip_reply(forward.body)
        reading = read_commands(result.reply_text, players, g)
        result.commands = reading.commands
        result.errors = ([err] if err else []) + note_errors + reading.errors + _second_forward(
            forward, attached if attached_forward else [])
        result.ignored_lines = note_lines + reading.ignored_lines
        result.ignored_text = reading.ignored_text
        return result

    result.reply_text = strip_reply(text)
    behalf = find_behalf_line(result.reply_text)
    if behalf is not None and own:
        # A player cannot act for another: nothing from the 'PER:' line on is carried out.
        index = behalf[0]
        lines = result.reply_text.split("\n")
        reading = read_commands("\n".join(lines[:index]), players, g)
        result.commands, result.ignored_lines = reading.commands, reading.ignored_lines
        result.ignored_text = reading.ignored_text
        result.errors = reading.errors + [{"code": "behalf_not_master", "line": lines[index].strip()}]
        return result
    if behalf is None:
        reading = read_commands(result.reply_text, players, g)
        result.commands, result.errors, result.ignored_lines = reading.commands, reading.errors, reading.ignored_lines
        result.ignored_text = reading.ignored_text
        if not result.commands and not result.errors:
            commands, errors = subject_commands(subject, players, g)
            if commands and not errors:
                result.commands = commands
            elif errors and not result.ignored_lines:  # the subject was all they wrote
                result.errors = errors
        return result

    index, typed = behalf
    lines = result.reply_text.split("\n")
    result.source = "sms"
    name, err = resolve_name(typed, players)
    result.on_behalf_of = name
    above_errors, above_lines = _outside_lines("\n".join(lines[:index]), players, g)
    below = lines[index + 1:]
    second = find_behalf_line("\n".join(below))
    tail_errors: list[dict] = []
    if second is not None:
        # One message acts for one player: a second PER: line would silently move its
        # commands to the first player, so they are refused instead.
        cut = second[0]
        tail_errors.append({"code": "multiple_behalf", "line": below[cut].strip()})
        more_errors, more_lines = _outside_lines("\n".join(below[cut + 1:]), players, g)
        tail_errors += more_errors
        above_lines += more_lines
        below = below[:cut]
    reading = read_commands("\n".join(_without_chat_prefix(ln, g) for ln in below), players, g)
    if err:
        err.update({"line": lines[index].strip()})
    result.commands = reading.commands
    result.errors = ([err] if err else []) + above_errors + reading.errors + tail_errors
    result.ignored_lines = above_lines + reading.ignored_lines
    result.ignored_text = reading.ignored_text
    return result


__all__ = ["ParsedMessage", "parse_message", "parse_commands", "describe_error", "extract_token",
           "header_token", "is_own_subject", "resolve_sender", "strip_reply", "subject_commands",
           "without_reply_prefix"]
