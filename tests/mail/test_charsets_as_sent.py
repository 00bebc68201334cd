"""Charsets as clients send them (issue 32): a part labelled iso-8859-1 or us-ascii is
read as browsers read it (windows-1252, the WHATWG Encoding standard), and no character
nobody sees survives into a name."""
from __future__ import annotations

import pytest

from pbm.mail.reading.names import fold
from pbm.mail.reading.parse import parse_message
from pbm.mail.reading.parse_body import decode_bytes

PLAYERS = ["Anna", "D'Angelo", "Nicolò", "Lucia", "Carla"]


def mail(body: bytes, charset: str, encoding: str = "8bit") -> bytes:
    head = (f"From: Anna <anna@example.it>\nSubject: Re: [Villaggio] Bollettino [lupus:tok3n12345]\n"
            f"Content-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: {encoding}\n\n")
    return head.encode("ascii") + body


@pytest.mark.parametrize("label", ["iso-8859-1", "ISO-8859-1", "latin1", "\"iso-8859-1\"", "us-ascii"])
def test_a_windows_apostrophe_under_a_latin1_label_is_an_apostrophe(label):
    # 0x92 is windows-1252's right single quote: Outlook's "D’Angelo".
    parsed = parse_message(mail(b"Voto D\x92Angelo\n", label), PLAYERS, vocabulary="lupus-live-12")
    assert parsed.commands == [{"vote": "D'Angelo"}], parsed.errors


def test_windows_quotes_and_dashes_are_read_as_such():
    assert decode_bytes(b"\x93Ciao\x94 \x96 Nicol\xf2", "iso-8859-1") == "\u201cCiao\u201d \u2013 Nicol\u00f2"


def test_utf8_under_an_ascii_label_is_utf8():
    parsed = parse_message(mail("Voto Nicolò\n".encode("utf-8"), "us-ascii"), PLAYERS, vocabulary="lupus-live-12")
    assert parsed.commands == [{"vote": "Nicolò"}]


@pytest.mark.parametrize("invisible", ["\u200b", "\u200e", "\u00ad", "\u2060", "\ufeff", "\u200d", "\u202c"])
def test_no_invisible_character_survives_into_a_name(invisible):
    body = f"Voto Lu{invisible}cia{invisible}\n".encode("utf-8")
    parsed = parse_message(mail(body, "utf-8"), PLAYERS, vocabulary="lupus-live-12")
    assert parsed.commands == [{"vote": "Lucia"}], parsed.errors
    assert fold(f"Lu{invisible}cia") == "lucia"


def test_a_c1_control_left_by_a_latin1_decoder_is_not_in_a_name():
    # A part with no charset at all and a stray C1 byte: never a hidden character in the name.
    parsed = parse_message(mail("Voto Lucia\u0085\n".encode("utf-8"), "utf-8"), PLAYERS, vocabulary="lupus-live-12")
    assert parsed.commands == [{"vote": "Lucia"}]
