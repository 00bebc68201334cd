"""Keeping only what the player wrote now: quoted mail, reply headers and signatures go.

The maintained library (mail-parser-reply) does the work first; a small safety net
follows for '>' lines and for Italian/English reply headers the library misses
(wrapped 'Il giorno ... ha scritto:', '-----Messaggio originale-----', ...). This must
run BEFORE commands are looked for, so a vote quoted from an earlier mail never counts.
"""
from __future__ import annotations

import re

from mailparser_reply.parser import EmailMessage

REPLY_LANGUAGES = ["it", "en", "de", "fr", "es", "nl"]

# Lines that start the quoted history, whatever follows. Anchored at line start.
_SEPARATOR_LINES = [
    r"-{2,}\s*(?:messaggio originale|original message|messaggio inoltrato|forwarded message"
    r"|mensaje original|message d'origine|urspr\u00fcngliche nachricht)\s*-{2,}",
    r"_{10,}",                       # Outlook's rule above the header block
    r"-{5,}",                        # a bare dashed rule before an Outlook header block
]
_ATTRIBUTION_END = re.compile(
    r"(?:ha scritto|wrote|a \u00e9crit|schrieb|escribi\u00f3|schreef)\s*(?::|-{2,})\s*$", re.IGNORECASE)
_ATTRIBUTION_START = re.compile(
    r"^(?:il giorno|il\s+\w+|in data|on\s|le\s|am\s|el\s|op\s)", re.IGNORECASE)
_HEADER_FIELD = re.compile(
    r"^[*\s]*(?:da|from|mittente|inviato|sent|data|date|a|to|cc|oggetto|subject|risposta"
    r"|reply-to|rispondi a)\s*:", re.IGNORECASE)
_FROM_FIELD = re.compile(r"^[*\s]*(?:da|from|mittente)\s*:", re.IGNORECASE)
_SIGNATURE_DELIMITER = re.compile(r"^--\s*$")
# Phone footers the library's 'Sent from my' rule misses ('Sent from Outlook Mobile<...>').
_PHONE_FOOTER = re.compile(
    r"^(?:sent from|sent with|sent via|inviato da|inviato dal|inviato con|get outlook for"
    r"|scarica outlook per)\b.{0,80}$", re.IGNORECASE)


# The library's attribution regexes backtrack badly (cubic) on a long line starting with
# 'On ' or 'Il ', so lines longer than any real attribution travel through it as
# placeholders; and only the head of a huge body is read (commands sit at the top, the
# rest is quoted history).
MAX_LINE = 500
MAX_TEXT = 200_000
_PLACEHOLDER = "LUPUSLONGLINE{}X"
_PLACEHOLDER_RE = re.compile(r"(?:> )?LUPUSLONGLINE\d+X")


def _hide_long_lines(text: str, *, quoted: bool = False) -> tuple[str, dict[str, str]]:
    """Long lines, and with quoted=True every '>' line, become placeholders.

    '>' lines are the quote filter's to drop, never the library's to read: its header
    and signature rules match inside quotes too ('> On ... wrote:', '> -- '), and then
    take everything below as history or signature, the unquoted text the player wrote
    under the quote included. A quoted placeholder stays quoted ('> KEY')."""
    hidden: dict[str, str] = {}
    lines = text.split("\n")
    for i, line in enumerate(lines):
        is_quoted = quoted and _is_quoted(line) and not _wrapped_attribution_tail(lines, i)
        if len(line) > MAX_LINE or is_quoted:
            key = _PLACEHOLDER.format(i)
            hidden[("> " if is_quoted else "") + key] = line.strip()
            lines[i] = ("> " if is_quoted else "") + key
    return "\n".join(lines), hidden


def _wrapped_attribution_tail(lines: list[str], i: int) -> bool:
    """'Am ... schrieb "X" <x@y.de\n>:' : a '>' line that only ends the attribution above
    (the address's '>' wrapped to the line start). The library must see it to find
    the attribution."""
    if i == 0 or not lines[i - 1].strip() or _is_quoted(lines[i - 1]):
        return False
    inner = lines[i].strip().lstrip(">").strip()
    return inner == ":" or bool(_ATTRIBUTION_END.fullmatch(inner))


def _restore_long_lines(text: str, hidden: dict[str, str]) -> str:
    if not hidden:
        return text
    return _PLACEHOLDER_RE.sub(lambda m: hidden.get(m.group(0), m.group(0)), text)


def _library_reply(text: str) -> str:
    """The latest reply according to mail-parser-reply, without signature/disclaimer.

    Hyphen lists are kept: a phone user writing '- VOTO Carla' must not lose it to
    the library's '-Name' signature rule."""
    message = EmailMessage(text=text, languages=list(REPLY_LANGUAGES), keep_hyphen_lists=True).read()
    if not message.replies:
        return ""
    first = message.replies[0]
    body = _reply_body(first, message.SIGNATURE_REGEX)
    if first.headers:
        # The text opens with a reply header: nothing was written above it. Whatever
        # is not '>'-quoted below it (bottom or inline posting) is the reply; an
        # unquoted Outlook-style block is all history.
        own = [ln for ln in body.split("\n") if ln.strip() and not ln.lstrip().startswith(">")]
        quoted = [ln for ln in body.split("\n") if ln.lstrip().startswith(">")]
        return "\n".join(own) if quoted else ""
    return body


def _reply_body(reply, signature_regex: re.Pattern) -> str:
    """The library's reply body, but with its signature rule applied per unquoted run.

    The library takes everything from the first signature-looking line to the end of
    the reply as signature, quoted lines included: the bulletin's own '> -- ' footer,
    or a quoted 'Inviato da iPhone', swallowed whatever the player wrote below the
    quote. A signature is the writer's: it starts on an unquoted line and ends where
    quoted text starts again, so unquoted text below a quote always survives."""
    text = reply.content
    for disclaimer in reply.disclaimers:
        text = text.replace(disclaimer, "")
    text = _cut_signatures(text, signature_regex)
    return text.replace(reply.headers or "", "").strip()


def _cut_signatures(text: str, signature_regex: re.Pattern) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if _is_quoted(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and not _is_quoted(lines[j]):
            j += 1
        run = lines[i:j]
        # A run after quoted text does not open the message, so a closing on its first
        # line counts ('(?<!\A)' in the library's rule): a leading newline says so.
        lead = "" if i == 0 else "\n"
        m = signature_regex.search(lead + "\n".join(run))
        if not m:
            out.extend(run)
            i = j
            continue
        kept = (lead + "\n".join(run))[:m.start()][len(lead):]
        kept_lines = kept.rstrip().split("\n") if kept.strip() else []
        out.extend(kept_lines)
        signature = run[len(kept_lines):]
        # An attribution the library missed may sit inside what it took for signature
        # ('Regards,\nAnna\n\nOn ... w=\nrote:'): then the quote below is history, as
        # the safety net would have said, and nothing after it is read.
        probe = signature + lines[j:j + 5]
        if len(_cut_at_history(probe)) < len(signature):
            break
        i = j
    return "\n".join(out)


_DATE_ATTRIBUTION = re.compile(r"^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b.*(?:<|@|GMT|:\s*$)")
_YEARISH = re.compile(r"@|\b(?:19|20)\d{2}\b")
_DECORATION_ONLY = re.compile(r"^[\s\-_=*~#+.\u1427|]*$")


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _cut_at_history(lines: list[str]) -> list[str]:
    """Safety net: stop at the first reply header the library let through.

    Works on lines that still carry their '>' quotes, so that an attribution line
    right above quoted text can be recognised in any language. A signature is not
    history and is read past here (_drop_signatures removes it): 'Inviato da iPhone'
    above 'Begin forwarded message:' must not make the forward look quoted."""
    seen_quote = False

    def attribution_cut(start: int, end: int) -> list[str]:
        # Bottom posting: an attribution opening the text, then '>' quotes, then the
        # reply. Drop the attribution and read on instead of discarding everything.
        if not any(ln.strip() for ln in lines[:start]) and any(_is_quoted(ln) for ln in lines[end + 1:]):
            return [""] * (end + 1) + _cut_at_history(lines[end + 1:])
        return lines[:start]

    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if _is_quoted(stripped):
            inner = stripped.lstrip("> ").strip()
            if _ATTRIBUTION_END.fullmatch(inner) or inner.lower() in ("wrote:", "ha scritto:"):
                # '<addr\n> wrote:' : the attribution wrapped into a quoted line.
                for back in range(1, 6):
                    if i - back >= 0 and _ATTRIBUTION_START.match(lines[i - back].strip()):
                        return attribution_cut(i - back, i)
            seen_quote = True
            continue
        low = stripped.strip("*").strip().lower()
        if re.fullmatch(_SEPARATOR_LINES[0], low) or re.fullmatch(_SEPARATOR_LINES[1], low):
            return lines[:i]
        if _DATE_ATTRIBUTION.match(stripped):
            return attribution_cut(i, i)
        if _ATTRIBUTION_END.search(stripped):
            # A wrapped attribution starts up to two lines above.
            start = i
            for back in (1, 2):
                if i - back >= 0 and _ATTRIBUTION_START.match(lines[i - back].strip()):
                    start = i - back
            return attribution_cut(start, i)
        if re.match(r"^(?:il giorno|in data)\b", low):
            ahead = " ".join(ln.strip() for ln in lines[i:i + 3])
            if re.search(r"ha scritto\s*:", ahead, re.IGNORECASE):
                end = next((j for j in range(i, min(i + 3, len(lines)))
                            if re.search(r"ha scritto\s*:", lines[j], re.IGNORECASE)), i)
                return attribution_cut(i, end)
        if _FROM_FIELD.match(stripped):
            following = [ln for ln in lines[i + 1:i + 5] if ln.strip()]
            if following and _HEADER_FIELD.match(following[0]):
                return lines[:i]
        if re.fullmatch(_SEPARATOR_LINES[2], low):
            following = [ln for ln in lines[i + 1:i + 4] if ln.strip()]
            if following and _FROM_FIELD.match(following[0]):
                return lines[:i]
        if not seen_quote and stripped.endswith(":"):
            following = [ln for ln in lines[i + 1:i + 4] if ln.strip()]
            if following and _is_quoted(following[0]):
                # Any-language attribution ('... napisał:', '... schrieb am ...:').
                start = i
                if i >= 1 and lines[i - 1].strip() and _YEARISH.search(lines[i - 1]):
                    start = i - 1
                return attribution_cut(start, i)
    return lines


def _drop_signatures(lines: list[str]) -> list[str]:
    """Safety net for signatures the library missed ('Sent with Proton Mail', a '-- '
    on the last line): an unquoted delimiter or phone footer starts the writer's
    signature, which ends where quoted text starts again."""
    out: list[str] = []
    in_signature = False
    for line in lines:
        stripped = line.strip()
        if _is_quoted(stripped):
            in_signature = False
        elif _SIGNATURE_DELIMITER.match(stripped) or _PHONE_FOOTER.match(stripped):
            in_signature = True
        if not in_signature:
            out.append(line)
    return out


def strip_reply(text: str) -> str:
    """The part of a message body the sender wrote in this message."""
    # Every line separator Python knows (\v, \f, \x1c-\x1e, \u2028...) becomes '\n', so the
    # quote filter and the command reader see the same lines.
    text = "\n".join((text or "")[:MAX_TEXT].splitlines())
    if not text.strip():
        return ""
    safe, hidden = _hide_long_lines(text, quoted=True)
    try:
        reply = _library_reply(safe)
    except Exception:  # the library's regexes are not ours to trust on hostile input
        reply = safe
    reply = _restore_long_lines(reply, hidden)
    lines = _drop_signatures(_cut_at_history(reply.split("\n")))
    lines = [ln for ln in lines if not _is_quoted(ln)]
    while lines and _DECORATION_ONLY.match(lines[-1]):
        lines.pop()
    return "\n".join(lines).strip()


def history_starts_before(text: str, position: int) -> bool:
    """True when quoted history (by the library's header regex or the safety net) begins
    before `position` in `text`: a forward marker after that point is only quoted.

    A signature is not history: 'Inviato da iPhone' or '-- \nMara' above 'Begin
    forwarded message:' is how a phone or a client with a signature forwards."""
    prefix, _ = _hide_long_lines(text[:min(position, MAX_TEXT)])
    if not prefix.strip():
        return False
    if any(ln.lstrip().startswith(">") for ln in prefix.split("\n") if ln.strip()):
        return True
    try:
        header_regex = EmailMessage(text="", languages=list(REPLY_LANGUAGES)).HEADER_REGEX
        if header_regex.search(prefix):
            return True
    except Exception:
        pass
    lines = prefix.split("\n")
    return len(_cut_at_history(lines)) < len(lines)
