"""Complots replies as players write them, in the shapes of real mail clients.

Each case is a real reply from ../shared/email-corpus (read, never copied in: the
twelve clients of mailgun-talon's standard_replies, and three Italian shapes from
crisp-oss, Discourse's Italian webmail and an Italian Outlook header block) with the
player's words put where the client's own reply was, and the service's own mail put
where the client quoted: a window mail offering a *different* command (the decoy).
The parser must read the player's line, in the game's words, and nothing of the quote.
"""
from __future__ import annotations

import email
import html
import re
from email import policy
from pathlib import Path

import pytest

from pbm.mail.reading.parse import parse_message

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "email-corpus"
TALON = CORPUS / "mailgun-talon" / "tests" / "fixtures" / "standard_replies"
pytestmark = pytest.mark.skipif(not TALON.is_dir(), reason=f"external mail corpus not found at {CORPUS}")
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]

CLIENTS = ["android.eml", "aol.eml", "apple_mail.eml", "apple_mail_2.eml", "comcast.eml", "gmail.eml",
           "hotmail.eml", "iphone.eml", "outlook.eml", "sparrow.eml", "thunderbird.eml", "yahoo.eml"]
ITALIAN_BODIES = {  # body-only fixtures: (path, the reply written there, the text quoted there)
    "crisp_italian": ("crisp-oss-email-reply-parser/test/fixtures/email_italian.txt",
                      re.compile(r"\A.*?(?=\n\nIn data)", re.S), "Buongiorno!"),
    "discourse_webmail_it": ("discourse-email_reply_trimmer/test/emails/embedded_email_italian.txt",
                             re.compile(r"\AOk, will do\. As a test, this is a reply from a webmail client\."),
                             "> Posted by sam on 03/26/2016"),
    "outlook_it_headers": ("discourse-email_reply_trimmer/test/emails/email_headers_4.txt",
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
    m = list(re.finditer(r"^([> \t]*)Hi\b.*$", text, re.M))[-1]
    prefix = m.group(1)
    return text[:m.start()] + "\n".join(prefix + line for line in lines) + text[m.end():]


def _quote_html(text: str, lines: list[str]) -> str:
    found = list(re.finditer(r"((?:&gt;\s*)*)Hi\b", text))
    if not found:
        return text
    m = found[-1]
    joined = "<br>".join(m.group(1) + html.escape(line) for line in lines)
    return text[:m.start()] + joined + text[m.end():]


def from_client(client: str, reply: str, quoted: list[str]) -> bytes:
    msg = email.message_from_bytes((TALON / client).read_bytes(), policy=policy.default)
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


def from_body(name: str, reply: str, quoted: list[str]) -> bytes:
    path, written, quote_at = ITALIAN_BODIES[name]
    text = (CORPUS / path).read_text(encoding="utf-8")
    prefix = "> " if quote_at.startswith("> ") else ""
    assert quote_at in text and written.search(text), name
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
SHAPES = CLIENTS + list(ITALIAN_BODIES)


def _cases():
    italian = [c for c in CASES if c[0] == "it"]
    english = [c for c in CASES if c[0] == "en"]
    out = []
    # Every client carries Italian and English lines; the Italian bodies carry Italian.
    for i, case in enumerate(english):
        out.append((CLIENTS[i % len(CLIENTS)], *case))
    shapes = CLIENTS + list(ITALIAN_BODIES)
    for i, case in enumerate(italian):
        out.append((shapes[(i * 7) % len(shapes)], *case))
    return out


def test_the_corpus_of_complots_replies_is_wide():
    cases = _cases()
    assert len(cases) >= 30
    assert {shape for shape, *_ in cases} == set(SHAPES)
    assert {lang for _s, lang, *_ in cases} == {"it", "en"}


@pytest.mark.parametrize("shape, lang, written, meant, decoy", _cases(),
                         ids=[f"{c[0]}-{c[2]}" for c in _cases()])
def test_a_complots_reply_is_read_and_the_quoted_service_mail_is_not(shape, lang, written, meant, decoy):
    quoted = service_mail(lang, decoy)
    raw = from_client(shape, written, quoted) if shape in CLIENTS else from_body(shape, written, quoted)
    # The message really carries both: the player's line and the service's offer.
    text = raw.decode("utf-8", "replace")
    assert decoy.split()[0] in text or decoy.split()[0] in email.message_from_bytes(
        raw, policy=policy.default).get_body(("plain", "html")).get_content()
    result = parse_message(raw, PLAYERS, vocabulary="complots")
    assert result.ignored is None
    assert result.commands == [meant], (result.commands, result.errors, result.reply_text)
    assert not result.errors
