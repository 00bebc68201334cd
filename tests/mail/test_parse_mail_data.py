"""The parser against the project's own corpus of mail (tests/data/mail, README there):
replies in the shapes of twelve clients, reply bodies with the text a person wrote, a
reply with commands above a quote, bounces of nine mail servers, automatic answers,
complaints, a read receipt, and mail that only looks automatic.

What tests/mail/test_parse_corpus.py checks on real mail from ../shared (an extra check),
checked here on mail that is always in the repository."""
from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest

from pbm.mail.reading.parse import parse_message, strip_reply

DATA = Path(__file__).resolve().parents[1] / "data" / "mail"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
RESULT_KEYS = {"ignored", "on_behalf_of", "commands", "errors", "ignored_lines", "token",
               "message_id", "in_reply_to", "references", "from_address", "from_name",
               "subject", "date", "reply_text", "source", "bounced_recipients"}
NAME_KEYS = ("vote", "target", "target2", "appoint", "elect")


def messages(folder: str) -> list[Path]:
    return sorted((DATA / folder).glob("*.eml"))


def every_file() -> list[Path]:
    return sorted(p for p in DATA.rglob("*") if p.suffix in (".eml", ".txt"))


def as_message(path: Path) -> bytes:
    """A reply body becomes the body of a minimal message; a message stays as it is."""
    raw = path.read_bytes()
    return raw if path.suffix == ".eml" else b"Content-Type: text/plain; charset=utf-8\n\n" + raw


@pytest.mark.parametrize("path", every_file(), ids=lambda p: str(p.relative_to(DATA)))
def test_every_file_parses(path):
    result = parse_message(as_message(path), PLAYERS).to_json()
    assert RESULT_KEYS <= set(result)
    assert result["ignored"] in (None, "auto-reply", "bounce", "complaint", "list")
    json.dumps(result)  # the service stores it as JSON
    for command in result["commands"]:
        for key in NAME_KEYS:
            assert command.get(key, PLAYERS[0]) in PLAYERS


def _shapes(path: Path) -> set[str]:
    """What a message is made of: its transfer encodings, charsets, parts, line ends."""
    raw = path.read_bytes()
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    found = {"crlf"} if b"\r\n" in raw else set()
    types = [p.get_content_type() for p in msg.walk()]
    if "text/html" in types and "text/plain" not in types:
        found.add("html-only")
    for part in msg.walk():
        found.add(str(part.get("Content-Transfer-Encoding", "7bit")).lower())
        found.add(str(part.get_content_charset() or "us-ascii").lower())
    return found


def test_the_corpus_holds_the_shapes_its_readme_promises():
    shapes = set().union(*(_shapes(p) for p in DATA.rglob("*.eml")))
    assert {"base64", "quoted-printable", "8bit", "html-only", "crlf"} <= shapes
    assert {"windows-1252", "iso-8859-1", "utf-8", "us-ascii"} <= shapes
    assert len(messages("clients")) == 12
    assert len(messages("bounces")) >= 12 and len(messages("automatic")) >= 12


# --- replies: what the person wrote, and nothing of the quote ----------------------------------

@pytest.mark.parametrize("path", messages("clients"), ids=lambda p: p.stem)
def test_each_clients_reply_is_read(path):
    """Each client's reply says "Hello" above (or, in Thunderbird, below) the mail it quotes."""
    result = parse_message(path.read_bytes(), PLAYERS)
    assert result.ignored is None
    assert result.reply_text == "Hello"
    assert result.in_reply_to == "<bulletin-12-d1@lupus-pbm.example>"


def bodies() -> list[Path]:
    return sorted(p for p in (DATA / "bodies").glob("*.txt") if not p.name.endswith(".trimmed.txt"))


def _normalised(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("path", bodies(), ids=lambda p: p.stem)
def test_stripped_text_is_what_the_person_wrote(path):
    """Each body's .trimmed.txt, written beside it, holds what its writer wrote."""
    expected = path.with_name(path.stem + ".trimmed.txt").read_text(encoding="utf-8")
    assert _normalised(strip_reply(path.read_text(encoding="utf-8"))) == _normalised(expected)


def test_commands_above_a_quote_count_and_the_quoted_vote_does_not():
    raw = (DATA / "replies" / "commands_above_gmail_quote.eml").read_bytes()
    result = parse_message(raw, PLAYERS)
    assert result.ignored is None
    assert result.commands == [{"vote": "Carla"}]  # the quote's "VOTO Anna" is history
    assert result.ignored_lines == ["Ciao a tutti!", "Ci vediamo stasera."]
    assert "Partita" not in result.reply_text
    assert result.token == "Qm7xT2vB9kLp"
    assert result.in_reply_to == "<bulletin-12-d1@lupus-pbm.example>"
    assert result.references == ["<bulletin-12-d0@lupus-pbm.example>", "<bulletin-12-d1@lupus-pbm.example>"]


# --- mail that must never be answered -----------------------------------------------------------

# Each bounce and the address it says failed (as we sent it: an alias's target is not ours).
FAILED = {
    "postfix": ["bruno.bianchi@example.org"],
    "postfix_crlf": ["bruno.bianchi@example.org"],
    "exim": ["carla.verdi@example.net"],
    "sendmail": ["dario.neri@example.com"],
    "qmail": ["elena.gallo@example.it"],
    "gmail": ["nicolo.esposito.typo@gmail.example"],
    "office365": ["francesca.ricci@contoso.example"],
    "exchange_it": ["gianluca.moretti@comune.example"],
    "mailbox_full": ["luisa.ferrari@example.com"],
    "two_recipients": ["mario.greco@chiuso.example", "stefano.romano@chiuso.example"],
    "truncated_report": ["paolo.marino@old-mta.example.net"],
    "delayed": [],  # still being retried: a report, but nothing failed yet
}


def test_every_bounce_says_which_address_failed():
    assert sorted(FAILED) == sorted(p.stem for p in messages("bounces"))


@pytest.mark.parametrize("name", sorted(FAILED))
def test_bounces_are_ignored_and_name_the_failed_recipient(name):
    result = parse_message((DATA / "bounces" / f"{name}.eml").read_bytes(), PLAYERS)
    assert result.ignored == "bounce"
    assert result.commands == [] and result.errors == []
    assert result.bounced_recipients == FAILED[name]


AUTOMATIC = {
    "sieve_vacation_it": "auto-reply",
    "exchange_ooo_en": "auto-reply",
    "exchange_ooo_it": "auto-reply",
    "icloud_vacation": "auto-reply",
    "gmail_vacation": "auto-reply",
    "unix_vacation": "auto-reply",
    "x_autoreply": "auto-reply",
    "read_receipt": "auto-reply",
    "mailer_notice": "auto-reply",  # automatic, but no report: never a bounce
    "arf_webmail": "complaint",
    "arf_isp": "complaint",
    "list_post": "list",
    "not_a_bounce_subject": None,  # a player asking about a lost vote: read
}


def test_every_automatic_message_has_its_expectation():
    assert sorted(AUTOMATIC) == sorted(p.stem for p in messages("automatic"))


@pytest.mark.parametrize("name", sorted(AUTOMATIC))
def test_automatic_mail_is_told_from_a_persons(name):
    result = parse_message((DATA / "automatic" / f"{name}.eml").read_bytes(), PLAYERS)
    assert result.ignored == AUTOMATIC[name]
    assert result.bounced_recipients == []
    if AUTOMATIC[name] is None:
        assert result.commands == [{"vote": "Bruno"}]
    else:
        # A vote inside an out-of-office or a complaint is never carried out.
        assert result.commands == [] and result.errors == []
