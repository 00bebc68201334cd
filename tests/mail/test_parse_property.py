"""Property: whatever bytes arrive, the parser returns, and the message ends as commands,
errors, or a stated reason to ignore it.

"Ends" is defined as:
  * ignored is one of the stated reasons, or None; an ignored message carries no
    commands and no errors (nothing will be carried out or answered for it);
  * a message that is not ignored has commands or errors; when its only error is
    "no_command", it has no command-like line (a line starting with a vocabulary
    keyword) in its reply text: a command is never dropped silently;
  * ignored_lines never hold a command-like line; reply_text never holds a '>' line;
  * every name in a command is one of the players;
  * a forward or SMS whose player cannot be told carries an error saying so.
"""
import json
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbm.mail.reading.commands import looks_like_command, parse_line
from pbm.mail.reading.grammar import grammar
from pbm.mail.reading.parse import parse_message

from tests.support.external import EMAIL_CORPUS as CORPUS
from tests.support.external import extra_check

TESTS = Path(__file__).resolve().parents[1]
PLAYERS = ["Anna", "Bruno", "Carla", "Maria Luisa", "Nicolò"]
VOCABULARY = sorted(grammar(None).keywords)  # every game's command words
REASONS = (None, "auto-reply", "bounce", "complaint", "list")
NAME_KEYS = ("vote", "target", "target2", "appoint", "elect")


def own_messages() -> list[Path]:
    """The project's own mail: tests/data/mail and the parser's hand-written fixtures."""
    return sorted([*(TESTS / "data" / "mail").rglob("*.eml"), *(TESTS / "mail" / "fixtures").rglob("*.eml")])


def corpus_messages() -> list[Path]:
    if not (CORPUS / "manifest.json").is_file():
        return []
    entries = json.loads((CORPUS / "manifest.json").read_text())
    return sorted(CORPUS / e["path"] for e in entries if e["kind"] == "rfc822" and e["size"] < 60_000)


def check_invariants(raw: bytes) -> None:
    result = parse_message(raw, PLAYERS)
    data = result.to_json()
    json.dumps(data)
    assert data["ignored"] in REASONS
    if data["ignored"]:
        assert data["commands"] == [] and data["errors"] == []
        return
    for command in data["commands"]:
        assert command, "an empty command"
        for key in NAME_KEYS:
            if key in command:
                assert command[key] in PLAYERS
        for name in command.get("with", []):
            assert name in PLAYERS
    # A request for help is answered too: with the role card (issue 31).
    assert data["commands"] or data["errors"] or data["help"], "a message that is read always gets an answer"
    if not data["commands"] and [e["code"] for e in data["errors"]] == ["no_command"]:
        assert not any(looks_like_command(ln) for ln in data["reply_text"].splitlines()), data["reply_text"]
    if data["source"] is None:
        assert not any(looks_like_command(ln) for ln in data["ignored_lines"])
    else:
        # Above a forward or a PER: line the Master writes notes: prose that merely starts
        # with a keyword is a note, but nothing that reads as a whole command is dropped.
        assert not any(parse_line(ln, PLAYERS)[0] for ln in data["ignored_lines"])
    assert not any(ln.lstrip().startswith(">") for ln in data["reply_text"].splitlines())
    if data["source"] and data["on_behalf_of"] is None:
        assert data["errors"], "a forward or SMS for nobody known must say so"


def mutated(data, messages: list[Path]) -> bytes:
    raw = bytearray(data.draw(st.sampled_from(messages)).read_bytes())
    for _ in range(data.draw(st.integers(0, 3))):
        mutation = data.draw(st.sampled_from(["flip", "truncate", "drop_header", "insert_command"]))
        if not raw:
            break
        if mutation == "flip":
            for _ in range(data.draw(st.integers(1, 20))):
                pos = data.draw(st.integers(0, len(raw) - 1))
                raw[pos] = data.draw(st.integers(0, 255))
        elif mutation == "truncate":
            raw = raw[: data.draw(st.integers(0, len(raw)))]
        elif mutation == "drop_header":
            lines = bytes(raw).split(b"\n")
            header_end = next((i for i, ln in enumerate(lines) if not ln.strip()), len(lines))
            if header_end:
                del lines[data.draw(st.integers(0, header_end - 1))]
            raw = bytearray(b"\n".join(lines))
        else:
            pos = data.draw(st.integers(0, len(raw)))
            word = data.draw(st.sampled_from(sorted(VOCABULARY)))
            raw[pos:pos] = f"\n{word} Anna\n".encode()
    return bytes(raw)


OWN = own_messages()
MESSAGES = corpus_messages()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_messages(data):
    check_invariants(mutated(data, OWN))


@extra_check(CORPUS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_corpus_messages(data):
    check_invariants(mutated(data, MESSAGES))


_WORDS = sorted(VOCABULARY) + ["Anna", "bruno", "CARLA", "Maria", "Luisa", "nicolo", "Zorro", "CON",
                               "SU", "WITH", "ON", "SPETTRO", "Omicidio", "Voto", "diretto", "3",
                               "N=2", ",", "e", "and", "PER:", "FOR:", ">", "> >", "--", "ha scritto:",
                               "wrote:", "-----Original Message-----", "Da:", "From:", "Inviato:",
                               "---------- Forwarded message ---------", "\\end{story}", "ciao", "è",
                               "\u200b", "\u00a0", "**", "<b>", "</div>", "&nbsp;"]
lines_strategy = st.lists(st.lists(st.sampled_from(_WORDS) | st.text(max_size=8), max_size=8)
                          .map(" ".join), max_size=25).map("\n".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=lines_strategy,
       ctype=st.sampled_from(["text/plain", "text/html"]),
       charset=st.sampled_from(["utf-8", "iso-8859-1", "x-nonsense", "", "utf-7"]),
       subject=st.sampled_from(["Re: Giorno 2", "Fwd: Notte", "I: Notte", "Risposta automatica", ""]),
       extra=st.sampled_from([b"", b"Auto-Submitted: auto-replied\n", b"Return-Path: <>\n",
                              b"List-Id: <x.y>\n", b"To: master+tok3n-xyz@l.example\n"]))
def test_random_command_text(body, ctype, charset, subject, extra):
    head = f"From: Anna <anna@example.it>\nSubject: {subject}\nContent-Type: {ctype}"
    head += f"; charset={charset}\n" if charset else "\n"
    encoded = body.encode(charset if charset in ("utf-8", "utf-7") else "latin-1", errors="replace")
    check_invariants(head.encode() + extra + b"\n" + encoded)


# Property: what a player writes below a quoted block is never lost, whatever the quote
# holds (signatures, footers, older history headers, votes).
_QUOTED_LINES = ["", "-- ", "--", "Inviato da iPhone", "Sent from my iPhone", "Best regards,", "Thanks,",
                 "Cordiali saluti", "Get Outlook for Android", "VOTO Bruno", "Ora: giorno di martedì.",
                 "On Mon, 23 Nov 2026, Dario <d@example.it> wrote:", "Il giorno lun 23 nov 2026 Lupus ha scritto:",
                 "-----Original Message-----", "From: Lupus", "Da: Lupus", "Inviato: lunedì", "Oggetto: x",
                 "________________________________", "---------- Forwarded message ---------", "- Nessun evento."]
_OWN = {"VOTO Anna": {"vote": "Anna"}, "VICE Bruno": {"appoint": "Bruno"}, "ELEGGO Carla": {"elect": "Carla"},
        "URLO Auuu": {"shout": "Auuu"}}


@settings(max_examples=200, deadline=None)
# Found by this test: a quoted forward's marker made the reply below it a forwarded mail.
@example(attribution="", prefix="> ", quote=["---------- Forwarded message ---------", "From: Lupus", "Da: Lupus"],
         own=["ELEGGO Carla"])
@given(attribution=st.sampled_from(["", "Il 24/11/26 09:30, Lupus ha scritto:\n",
                                    "On Tue, 24 Nov 2026 at 09:30, Lupus <l@x.it> wrote:\n\n"]),
       prefix=st.sampled_from(["> ", ">", "> > "]),
       quote=st.lists(st.sampled_from(_QUOTED_LINES), min_size=1, max_size=12),
       own=st.lists(st.sampled_from(sorted(_OWN)), min_size=1, max_size=3))
def test_text_below_a_quote_always_counts(attribution, prefix, quote, own):
    body = attribution + "".join(prefix + ln + "\n" for ln in quote) + "\n" + "\n".join(own) + "\n"
    raw = b"From: Anna <anna@example.it>\nSubject: Re: Giorno 2\nContent-Type: text/plain; charset=utf-8\n\n"
    result = parse_message(raw + body.encode(), PLAYERS)
    assert result.commands == [_OWN[line] for line in own], body
