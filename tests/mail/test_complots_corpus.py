"""Complots replies as players write them, in the shapes of real mail clients.

Each case is a client's reply with the player's words put where the client's own reply
was, and the service's own mail put where the client quoted: a window mail offering a
*different* command (the decoy). The parser must read the player's line, in the game's
words, and nothing of the quote. The shapes are the project's own (tests/data/mail: twelve
clients, and four Italian reply bodies: Gmail's wrapped attribution, a webmail's "In
data", a quoted attribution, Outlook for Mac's header block); as an extra check, the same
cases in real replies from ../shared/email-corpus (read, never copied in: the twelve
clients of mailgun-talon's standard_replies, and three Italian shapes from crisp-oss,
Discourse's Italian webmail and an Italian Outlook header block).
"""
from __future__ import annotations

import email
import html
import re
from email import policy
from pathlib import Path

import pytest

from pbm.mail.reading.parse import parse_message

from tests.support.external import EMAIL_CORPUS, params

DATA = Path(__file__).resolve().parents[1] / "data" / "mail"
TALON = EMAIL_CORPUS / "mailgun-talon" / "tests" / "fixtures" / "standard_replies"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]

# The project's clients (tests/data/mail/clients) and its Italian reply bodies: (path, the
# reply written there, the text quoted there).
CLIENTS = sorted(str(p.relative_to(DATA)) for p in (DATA / "clients").glob("*.eml"))
ITALIAN_BODIES = {
    "gmail_it_wrapped": (DATA / "bodies" / "gmail_it_wrapped.txt",
                         re.compile(r"\AStasera non ci sono, votate senza di me\."), "> Partita: Villaggio"),
    "in_data_it": (DATA / "bodies" / "in_data_it.txt", re.compile(r"\ARicevuto, grazie!"), "> Partita: Villaggio"),
    "quoted_attribution_it": (DATA / "bodies" / "quoted_attribution_it.txt",
                              re.compile(r"\AVa bene, ci penso io\."), "> Partita: Villaggio"),
    "outlook_mac_it": (DATA / "bodies" / "outlook_mac_it.txt", re.compile(r"\AConfermo la mia presenza\."),
                       "Partita: Villaggio"),
}
# The same, real (an extra check): mailgun-talon's clients and three Italian shapes.
TALON_CLIENTS = ["android.eml", "aol.eml", "apple_mail.eml", "apple_mail_2.eml", "comcast.eml", "gmail.eml",
                 "hotmail.eml", "iphone.eml", "outlook.eml", "sparrow.eml", "thunderbird.eml", "yahoo.eml"]
REAL_ITALIAN_BODIES = {
    "crisp_italian": (EMAIL_CORPUS / "crisp-oss-email-reply-parser/test/fixtures/email_italian.txt",
                      re.compile(r"\A.*?(?=\n\nIn data)", re.S), "Buongiorno!"),
    "discourse_webmail_it": (EMAIL_CORPUS / "discourse-email_reply_trimmer/test/emails/embedded_email_italian.txt",
                             re.compile(r"\AOk, will do\. As a test, this is a reply from a webmail client\."),
                             "> Posted by sam on 03/26/2016"),
    "outlook_it_headers": (EMAIL_CORPUS / "discourse-email_reply_trimmer/test/emails/email_headers_4.txt",
                           re.compile(r"\Atest"), "[@example](http://example.com/u/example)"),
}


def service_mail(lang: str, decoy: str) -> list[str]:
    """The part of the service's window mail a reply quotes, offering the decoy."""
    if lang == "it":
        return ["TOCCA A TE: Dubiti, blocchi o passi?", "Rispondi entro il 27/11/2026 10:00 (CET).",
                "Rispondi con una di queste righe:", f"  {decoy}", "Si attende ancora: Bruno, Carla."]
    return ["YOUR MOVE: Challenge, block or pass?", "Answer by 27/11/2026 10:00 (CET).",
            "Answer with one of these lines:", f"  {decoy}", "Still waiting for: Bruno, Carla."]


def _quote_plain(text: str, lines: list[str]) -> str:
    """The service's lines where the client quoted "Hi", with that line's quote marks."""
    m = list(re.finditer(r"^([> \t]*)\ufeff?Hi\b.*$", text, re.M))[-1]
    prefix = m.group(1)
    return text[:m.start()] + "\n".join(prefix + line for line in lines) + text[m.end():]


def _quote_html(text: str, lines: list[str]) -> str:
    found = list(re.finditer(r"((?:&gt;\s*)*)Hi\b", text))
    if not found:
        return text
    m = found[-1]
    joined = "<br>".join(m.group(1) + html.escape(line) for line in lines)
    return text[:m.start()] + joined + text[m.end():]


def from_client(client: Path, reply: str, quoted: list[str]) -> bytes:
    msg = email.message_from_bytes(client.read_bytes(), policy=policy.default)
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        subtype = part.get_content_subtype()
        text = part.get_content()
        if subtype == "html":
            text = re.sub(r"Hello", html.escape(reply), _quote_html(text, quoted), count=1)
        else:
            text = re.sub(r"Hello", reply, _quote_plain(text, quoted), count=1)
        part.set_content(text, subtype=subtype, charset="utf-8")
    return bytes(msg)


def from_body(body: tuple[Path, re.Pattern, str], reply: str, quoted: list[str]) -> bytes:
    path, written, quote_at = body
    text = path.read_text(encoding="utf-8")
    prefix = "> " if quote_at.startswith("> ") else ""
    assert quote_at in text and written.search(text), path
    text = text.replace(quote_at, "\n".join(prefix + line for line in quoted), 1)
    text = written.sub(reply, text, count=1)
    head = ("From: Anna Rossi <anna@players.test>\nTo: lupus+tok@lupus.test\nSubject: Re: Il turno\n"
            "Message-ID: <c1@players.test>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: 8bit\n\n")
    return head.encode() + text.encode("utf-8")


def _turn(action, target=None):
    return {"kind": "turn", "action": action, **({"target": target} if target else {})}


ANSWER = {"pass": {"kind": "answer", "answer": "pass"}, "challenge": {"kind": "answer", "answer": "challenge"}}
# (language, what the player wrote, what it means, the decoy in the quoted service mail)
CASES = [
    ("it", "Rubo a Carla", _turn("steal", "Carla"), "REDDITO"),
    ("it", "Furto a Carla", _turn("steal", "Carla"), "ASSASSINIO Dario"),
    ("it", "Assassino Dario", _turn("assassinate", "Dario"), "FURTO Carla"),
    ("it", "Blocco con la Contessa", {"kind": "answer", "answer": "block", "as": "Contessa"}, "SFIDO"),
    ("it", "prendo il reddito", _turn("income"), "TASSA"),
    ("it", "Ti sfido!", ANSWER["challenge"], "PASSO"),
    ("it", "ok per me", ANSWER["pass"], "SFIDO"),
    ("it", "nessuna obiezione", ANSWER["pass"], "BLOCCO Contessa"),
    ("it", "perdo il Duca", {"kind": "lose", "card": "Duchessa"}, "PERDO Contessa"),
    ("it", "tengo Duca e Contessa", {"kind": "keep", "cards": ["Duchessa", "Contessa"]},
     "TENGO Capitano Assassino"),
    ("it", "ASSASSINIO Bruno", _turn("coup", "Bruno"), "ASSASSINO Carla"),
    ("it", "omicidio di Bruno", _turn("coup", "Bruno"), "REDDITO"),
    ("it", "Colpo di stato su Carla", _turn("coup", "Carla"), "AIUTI STRANIERI"),
    ("it", "Uccido Carla", _turn("assassinate", "Carla"), "ASSASSINIO Carla"),
    ("it", "SEMPRE PASSO", {"kind": "standing", "on": True, "standing": "pass_not_me"}, "SFIDO"),
    ("it", "Sempre sfido la Duchessa", {"kind": "standing", "on": True, "standing": "challenge:Duchessa"},
     "PASSO"),
    ("it", "Non passo più", {"kind": "standing", "on": False, "standing": "pass_not_me"}, "PASSO"),
    ("it", "Le mie risposte permanenti", {"kind": "standing", "on": True, "standing": None, "list": True}, "SFIDO"),
    ("it", "Più tempo per favore", {"kind": "more_time"}, "PASSO"),
    ("it", "Passo", ANSWER["pass"], "SFIDO"),
    ("it", "Scopro l'Assassino", {"kind": "lose", "card": "Assassino"}, "PERDO Duchessa"),
    ("it", "Mostro la Contessa", {"kind": "show", "card": "Contessa"}, "MOSTRO Capitano"),
    ("it", "Restituisco la carta", {"kind": "discard", "discard": "return"}, "SCARTO"),
    ("it", "Blocco con l'Ambasciatore", {"kind": "answer", "answer": "block", "as": "Ambasciatore"},
     "BLOCCO Capitano"),
    ("it", "Aiuti stranieri", _turn("foreign_aid"), "REDDITO"),
    ("it", "Tassa", _turn("tax"), "REDDITO"),
    ("en", "Steal from Carla", _turn("steal", "Carla"), "INCOME"),
    ("en", "Block with the Countess", {"kind": "answer", "answer": "block", "as": "Contessa"}, "CHALLENGE"),
    ("en", "I challenge you", ANSWER["challenge"], "PASS"),
    ("en", "No objection", ANSWER["pass"], "CHALLENGE"),
    ("en", "I lose the Duke", {"kind": "lose", "card": "Duchessa"}, "LOSE Countess"),
    ("en", "Keep Duke and Countess", {"kind": "keep", "cards": ["Duchessa", "Contessa"]},
     "KEEP Captain Assassin"),
    ("en", "Assassination Bruno", _turn("coup", "Bruno"), "ASSASSIN Carla"),
    ("en", "Kill Carla", _turn("assassinate", "Carla"), "ASSASSINATION Carla"),
    ("en", "Always pass", {"kind": "standing", "on": True, "standing": "pass_not_me"}, "PASS"),
    ("en", "Take income", _turn("income"), "TAX"),
    ("en", "Fine by me", ANSWER["pass"], "BLOCK Countess"),
    ("en", "Give the card back", {"kind": "discard", "discard": "return"}, "DISCARD"),
]
def _cases(clients: list[str], bodies: list[str]) -> list[tuple]:
    italian = [c for c in CASES if c[0] == "it"]
    english = [c for c in CASES if c[0] == "en"]
    out = []
    # Every client carries Italian and English lines; the Italian bodies carry Italian.
    for i, case in enumerate(english):
        out.append((clients[i % len(clients)], *case))
    shapes = clients + bodies
    for i, case in enumerate(italian):
        out.append((shapes[(i * 7) % len(shapes)], *case))
    return out


OWN_CASES = _cases(CLIENTS, list(ITALIAN_BODIES))
REAL_CASES = _cases(TALON_CLIENTS, list(REAL_ITALIAN_BODIES)) if TALON.is_dir() else []


def test_the_corpus_of_complots_replies_is_wide():
    assert len(OWN_CASES) >= 30
    assert {shape for shape, *_ in OWN_CASES} == set(CLIENTS) | set(ITALIAN_BODIES)
    assert {lang for _s, lang, *_ in OWN_CASES} == {"it", "en"}
    assert len(CLIENTS) == 12


def check(raw: bytes, meant: dict, decoy: str) -> None:
    # The message really carries both: the player's line and the service's offer.
    text = raw.decode("utf-8", "replace")
    assert decoy.split()[0] in text or decoy.split()[0] in email.message_from_bytes(
        raw, policy=policy.default).get_body(("plain", "html")).get_content()
    result = parse_message(raw, PLAYERS, vocabulary="complots")
    assert result.ignored is None
    assert result.commands == [meant], (result.commands, result.errors, result.reply_text)
    assert not result.errors


@pytest.mark.parametrize("shape, lang, written, meant, decoy", OWN_CASES,
                         ids=[f"{c[0].removeprefix('clients/')}-{c[2]}" for c in OWN_CASES])
def test_a_complots_reply_is_read_and_the_quoted_service_mail_is_not(shape, lang, written, meant, decoy):
    quoted = service_mail(lang, decoy)
    raw = (from_client(DATA / shape, written, quoted) if shape in CLIENTS
           else from_body(ITALIAN_BODIES[shape], written, quoted))
    check(raw, meant, decoy)


@pytest.mark.parametrize("shape, lang, written, meant, decoy",
                         params(REAL_CASES, EMAIL_CORPUS, ids=[f"{c[0]}-{c[2]}" for c in REAL_CASES], arity=5))
def test_a_complots_reply_in_a_real_clients_shape(shape, lang, written, meant, decoy):
    quoted = service_mail(lang, decoy)
    raw = (from_client(TALON / shape, written, quoted) if shape in TALON_CLIENTS
           else from_body(REAL_ITALIAN_BODIES[shape], written, quoted))
    check(raw, meant, decoy)
