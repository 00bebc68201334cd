"""Mail that must never get an answer: bounces, complaints, auto-replies, list traffic.

Order matters. Strong bounce evidence (a delivery-status report) wins over everything;
then complaints; then the RFC 3834 auto-reply headers; then the weak bounce hints
(MAILER-DAEMON/postmaster sender, empty Return-Path, 'Undeliverable' subjects); then
auto-reply subjects; then mailing lists. A mailer's own notice with Auto-Submitted but
no report (sisimai's rb-issue-368 control) therefore ends as 'auto-reply', never as a
bounce, and is still not answered.
"""
from __future__ import annotations

import email.message
import re
from email.utils import collapse_rfc2231_value

from .author import author_of
from .parse_body import content_type, header_all, header_text, part_text, subparts

AUTO_SUBJECT = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*)?(?:risposta automatica|automatic reply|auto(?:matic)?[ -]?reply|"
    r"autoreply|auto-?risposta|messaggio automatico|automatische antwort|auto:|out of (?:the )?office|fuori sede|fuori ufficio|assente|absence|"
    r"r\u00e9ponse automatique|abwesenheitsnotiz|respuesta autom\u00e1tica|autorespons|"
    r"vacation reply|away from|"
    # read and delivery receipts sent as plain mail, without a disposition report
    r"letto\s*:|non letto\s*:|read\s*:|not read\s*:|recapitato\s*:|delivered\s*:|"
    r"ricevuta di (?:lettura|ritorno)|read receipt|"
    # PEC (Italian certified mail) receipts; a failed delivery is a bounce, caught earlier
    r"accettazione\s*:|consegna\s*:|presa in carico\s*:)", re.IGNORECASE)
BOUNCE_SUBJECT = re.compile(
    r"(?:undeliverable|undelivered mail|non recapitabile|mancato recapito|delivery status "
    r"notification|delivery (?:has )?failed|mail delivery failed|returned mail|failure notice|"
    r"delivery failure|could not send message|delayed mail|mail system error|"
    r"non recapitato|non consegnato|mancata consegna)", re.IGNORECASE)
_ADDRESS = re.compile(r"[\w.+'=-]+@[\w-]+(?:\.[\w-]+)+")


def _report_type(msg: email.message.Message) -> str:
    try:
        return collapse_rfc2231_value(msg.get_param("report-type") or "").lower().strip('"')
    except Exception:
        return ""


def _walk(msg: email.message.Message, depth: int = 0):
    """Every part, including inside attached messages (a DSN nests them)."""
    if depth > 20:
        return
    yield msg
    for sub in subparts(msg):
        yield from _walk(sub, depth + 1)


def _recipient(field) -> str:
    """The failed address of one per-recipient DSN block; `field(name)` reads a field.

    Original-Recipient (RFC 3464 2.3.1) is the address as we sent it; Final-Recipient is
    where it ended after aliases and forwarding ('r@host' for our 'player@example.org').
    Only the first names a player we know, so it wins when present and usable."""
    def address(name: str) -> str:
        words = (field(name) or "").split(";", 1)[-1].split()
        return words[0].strip("<>") if words else ""

    original = address("Original-Recipient")
    return original if "@" in original else address("Final-Recipient")


def _delivery_status_recipients(msg: email.message.Message) -> tuple[bool, list[str]]:
    found = False
    failed: list[str] = []
    others: list[str] = []
    for part in _walk(msg):
        if content_type(part) != "message/delivery-status":
            continue
        found = True
        blocks = subparts(part)
        if not blocks:  # unparsed: read 'Final-Recipient:' lines from the text
            text = part_text(part)
            blocks_text = re.split(r"\n\s*\n", text)
            for block in blocks_text:
                addr = _recipient(lambda name, block=block: " ".join(re.findall(
                    rf"^{name}:\s*(.*)$", block, re.I | re.M)[:1]))
                act = re.search(r"^Action:\s*(\S+)", block, re.I | re.M)
                if addr:
                    (failed if not act or act.group(1).lower() == "failed" else others).append(addr)
            continue
        for block in blocks:
            addr = _recipient(lambda name, block=block: header_text(block, name))
            if not addr:
                continue
            action = header_text(block, "Action").lower()
            (failed if not action or action.startswith("failed") else others).append(addr)
    return found, failed


def _clean_addresses(values) -> list[str]:
    out = []
    for v in values:
        m = _ADDRESS.search(v or "")
        if m and m.group(0).lower() not in out:
            out.append(m.group(0).lower())
    return out


def _text_bounce_recipients(msg: email.message.Message, exclude: set[str]) -> list[str]:
    """Best effort for bounces without a report: addresses opening a line of the notice."""
    first = None
    for part in _walk(msg):
        if content_type(part) == "text/plain" and not part.is_multipart():
            first = part
            break
    if first is None:
        return []
    text = part_text(first)
    # The notice ends where the returned message begins.
    text = re.split(r"\n(?:[-\s]*(?:original message|below this line|messaggio originale)|Received:|"
                    r"Return-Path:)", text, maxsplit=1, flags=re.IGNORECASE)[0]
    found = []
    for line in text.split("\n"):
        m = re.match(r"^\s*<?([\w.+'=-]+@[\w-]+(?:\.[\w-]+)+)>?", line)
        if m and m.group(1).lower() not in exclude and m.group(1).lower() not in found:
            found.append(m.group(1).lower())
    return found


def _is_auto_submitted(msg: email.message.Message) -> bool:
    auto = header_text(msg, "Auto-Submitted").lower()
    if auto and re.split(r"[;(\s]", auto, maxsplit=1)[0] != "no":
        return True
    for name in ("Precedence", "X-Precedence"):
        if header_text(msg, name).lower().strip() in ("bulk", "junk", "list", "auto_reply"):
            return True
    if re.search(r"\bvacation\b", header_text(msg, "X-Mailer").lower()):
        return True  # the Unix vacation(1) program
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Autogenerated", "X-Apple-Action"):
        value = header_text(msg, name).lower().strip()
        if value and value != "no":
            return True
    suppress = header_text(msg, "X-Auto-Response-Suppress").lower()
    if re.search(r"\b(?:oof|all|autoreply)\b", suppress):
        return True
    return False


def classify(msg: email.message.Message, subject: str) -> tuple[str | None, list[str]]:
    """(reason to ignore or None, bounced recipient addresses)."""
    top_type = content_type(msg)
    report = _report_type(msg) if top_type == "multipart/report" else ""
    has_dsn, failed = _delivery_status_recipients(msg)
    failed_header = _clean_addresses(header_all(msg, "X-Failed-Recipients"))
    if report == "feedback-report":
        return "complaint", []
    if report == "delivery-status" or has_dsn or top_type == "message/delivery-status" or failed_header:
        return "bounce", _merge(failed, failed_header)
    if report == "disposition-notification" or any(
            content_type(p) == "message/disposition-notification" for p in _walk(msg)):
        return "auto-reply", []  # a read receipt: automatic, never answered
    if _is_auto_submitted(msg):
        return "auto-reply", []
    pec_receipt = header_text(msg, "X-Ricevuta").lower().strip()
    if pec_receipt in ("errore-consegna", "preavviso-errore-consegna", "non-accettazione", "rilevazione-virus"):
        return "bounce", _text_bounce_recipients(msg, set())
    if pec_receipt:
        return "auto-reply", []  # accettazione, avvenuta-consegna, presa-in-carico
    author = author_of(msg)
    from_name, from_addr = author.name, author.address
    local = from_addr.split("@", 1)[0]
    return_path = header_text(msg, "Return-Path")
    null_path = bool(msg.get("Return-Path") is not None and return_path.strip() in ("", "<>"))
    daemon = local in ("mailer-daemon", "postmaster") or "mailer-daemon" in from_name.lower()
    robot = local.replace("-", "").replace("_", "") in ("noreply", "donotreply", "mailer", "mailerdaemon", "maildaemon")
    if daemon or null_path or (BOUNCE_SUBJECT.search(subject) and (not from_addr or robot)):
        exclude = {from_addr}
        return "bounce", _text_bounce_recipients(msg, exclude)
    if AUTO_SUBJECT.search(subject):
        return "auto-reply", []
    if header_text(msg, "List-Id"):
        return "list", []
    return None, []


def _merge(*lists: list[str]) -> list[str]:
    out: list[str] = []
    for values in lists:
        for v in values:
            v = v.strip().strip("<>").lower()
            if v and v not in out:
                out.append(v)
    return out

