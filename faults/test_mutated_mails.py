"""A hundred thousand mutated mails through the parser (and the inbox's own
header reading): none may raise. Seeds are the project's own mail (the parser's
fixtures and tests/data/mail) and, when it is beside the checkout, the shared corpus
of real mail (tests/support/external.py); each mutation flips, cuts, repeats or splices bytes
where mail is fragile (headers, boundaries, encoded words, charsets)."""
from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

from pbm.inbox import identify
from pbm.mail.reading.parse import parse_message

from tests.support.external import EMAIL_CORPUS as CORPUS

ROOT = Path(__file__).resolve().parents[1]
COUNT = int(os.environ.get("FAULTS_MUTATIONS", 100_000))
PLAYERS = ["Anna", "Bruno", "Carla", "Maria Luisa", "Nicolò"]
CONFIG = {"MASTER_ADDRESS": "lupus@lupus.localhost"}

SPLICES = [
    b"\r\n", b"\n\n", b"\r\n\r\n", b"--", b"\r\n--boundary--\r\n", b"=?utf-8?b?", b"=?iso-8859-1?q?=E0?=",
    b"=?unknown-7?Q?x?=", b"Content-Type: multipart/mixed; boundary=\"b\"\r\n", b"Content-Type: text/html\r\n",
    b"Content-Transfer-Encoding: base64\r\n", b"Content-Transfer-Encoding: quoted-printable\r\n",
    b"charset=\"utf-7\"", b"\x00", b"\xff\xfe", b"<html><body><blockquote>", b"</div></td>",
    b"VOTO ", b"PER: ", b"URLO ", b"> VOTO Anna\r\n", b"-----Original Message-----\r\n",
    b"Message-ID: <x@y>\r\n", b"Content-Type: message/rfc822\r\n\r\n", b"=\r\n", b"=3D", b"%s" * 3,
    b"A" * 5000, b"\t", b"\x1b$B", b"+lupus+@", b"[lupus:" + b"x" * 16 + b"]",
]


def seeds() -> list[bytes]:
    found = [p.read_bytes() for folder in ("mail/fixtures", "data/mail") for p in (ROOT / "tests" / folder).rglob("*.eml")]
    manifest = CORPUS / "manifest.json"
    if manifest.is_file():
        for entry in json.loads(manifest.read_text()):
            if entry.get("kind") == "rfc822" and entry.get("size", 0) < 60_000:
                path = CORPUS / entry["path"]
                if path.is_file():
                    found.append(path.read_bytes())
    assert found, "no seed mail"
    return found


def mutate(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        if not data:
            data.extend(rng.choice(SPLICES))
            continue
        at = rng.randrange(len(data))
        how = rng.randrange(6)
        if how == 0:
            data[at] = rng.randrange(256)
        elif how == 1:
            del data[at:at + rng.randint(1, 200)]
        elif how == 2:
            data[at:at] = rng.choice(SPLICES)
        elif how == 3:
            chunk = data[at:at + rng.randint(1, 400)]
            data[at:at] = chunk * rng.randint(1, 5)
        elif how == 4:
            del data[at:]
        else:
            other = rng.randrange(len(data))
            data[at:at] = data[other:other + rng.randint(1, 300)]
    return bytes(data)


def test_mutated_mails_never_crash_the_parser(report):
    rng = random.Random(int(os.environ.get("FAULTS_SEED", 2026)))
    pool = seeds()
    crashes: list[str] = []
    slowest = 0.0
    started = time.monotonic()
    for n in range(COUNT):
        raw = mutate(rng.choice(pool), rng)
        began = time.monotonic()
        try:
            parse_message(raw, PLAYERS, {"Anna": "anna@example.org"}, reply_localpart="lupus")
            identify.token_in_headers(raw, CONFIG)
            identify.failed_dmarc(raw)
            identify.sent_to_noreply(raw, {**CONFIG, "NOREPLY_ADDRESS": "noreply@lupus.localhost"})
        except Exception as exc:  # counting what escapes is the point
            if len(crashes) < 20:
                crashes.append(f"#{n}: {type(exc).__name__}: {exc}"[:300])
            else:
                crashes.append("")
        slowest = max(slowest, time.monotonic() - began)
    report("mutated mails through the parser",
           **{"seed mails": len(pool), "mutated mails parsed": COUNT, "crashes": len(crashes),
              "slowest parse (s)": f"{slowest:.2f}",
              "total (s)": f"{time.monotonic() - started:.0f}"})
    assert [c for c in crashes if c] == [] and not crashes
