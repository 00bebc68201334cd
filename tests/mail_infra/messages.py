"""Raw test messages, written the way mail arrives (CRLF line ends)."""
from __future__ import annotations

import uuid


def make_raw(subject: str, body: str = "VOTO Mario\r\n", message_id: str | None = None,
             sender: str = "giocatore@example.org", to: str = "master@example.org") -> bytes:
    message_id = message_id or f"<{uuid.uuid4().hex}@test.lupus>"
    text = (
        f"From: {sender}\r\n"
        f"To: {to}\r\n"
        f"Subject: {subject}\r\n"
        f"Message-ID: {message_id}\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "\r\n"
        f"{body}"
    )
    return text.encode("utf-8")


def subject_of(raw: bytes) -> str:
    for line in raw.split(b"\r\n"):
        if line.lower().startswith(b"subject:"):
            return line.split(b":", 1)[1].strip().decode()
    raise AssertionError(f"no Subject in {raw[:200]!r}")
