"""The Master's mailbox as a local Maildir (written by the embedded SMTP server).

Maildir conventions: a delivered message appears atomically in new/; a
processed one is renamed into cur/ with the S (seen) flag in its info
suffix.  Anything in new/, or in cur/ without S, is unprocessed.  A file
larger than the cap ``fetch_new`` is given is read up to the end of its
headers only, as the IMAP source does.
"""
from __future__ import annotations

from datetime import datetime, timezone

import mailbox
import os
import time
from pathlib import Path

from .mailbox import HEADER_LIMIT, IncomingMail, header_section

COLON = mailbox.Maildir.colon
PROCESSED_FLAG = "S"


def deliver_to_maildir(path: str | os.PathLike, raw: bytes) -> str:
    """Store a raw message in new/ (via tmp/, so readers never see half a
    file); returns its key.  For the embedded SMTP server and for tests."""
    return mailbox.Maildir(os.fspath(path), factory=None, create=True).add(raw)


def _split(name: str) -> tuple[str, str]:
    """File name -> (key, flags)."""
    key, _, info = name.partition(COLON)
    flags = info[2:] if info.startswith("2,") else ""
    return key, flags


class MaildirSource:
    """A ``MailSource`` over a Maildir on the local disk."""

    def __init__(self, path: str | os.PathLike, poll_interval: float = 0.5) -> None:
        self.path = Path(path).resolve()
        # The stdlib creates new/, cur/ and tmp/ the standard way.
        mailbox.Maildir(os.fspath(self.path), factory=None, create=True)
        self.poll_interval = poll_interval
        self._returned: set[str] = set()

    def _unprocessed(self) -> list[tuple[int, str, Path, int]]:
        found = []
        for subdir in ("new", "cur"):
            try:
                entries = list(os.scandir(self.path / subdir))
            except FileNotFoundError:
                continue
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                key, flags = _split(entry.name)
                if subdir == "cur" and PROCESSED_FLAG in flags:
                    continue
                try:
                    stat = entry.stat()
                except FileNotFoundError:
                    continue
                found.append((stat.st_mtime_ns, key, Path(entry.path), stat.st_size))
        found.sort()
        return found

    def fetch_new(self, limit: int | None = None, max_bytes: int | None = None) -> list[IncomingMail]:
        mails: list[IncomingMail] = []
        for stamp, key, file, size in self._unprocessed():
            if limit is not None and len(mails) >= limit:
                break
            headers_only = max_bytes is not None and size > max_bytes
            try:
                if headers_only:
                    with open(file, "rb") as fh:
                        raw = header_section(fh.read(HEADER_LIMIT))
                else:
                    raw = file.read_bytes()
            except FileNotFoundError:
                continue  # processed or removed meanwhile
            mails.append(IncomingMail(
                source_key=f"maildir:{self.path}:{key}", raw=raw, maildir_key=key,
                arrived_at=datetime.fromtimestamp(stamp / 1e9, timezone.utc),
                size=size, headers_only=headers_only))
            self._returned.add(key)
        return mails

    def _locate(self, key: str) -> Path | None:
        candidate = self.path / "new" / key
        if candidate.exists():
            return candidate
        for subdir in ("new", "cur"):
            for entry in os.scandir(self.path / subdir):
                if _split(entry.name)[0] == key:
                    return Path(entry.path)
        return None

    def mark_processed(self, mail: IncomingMail) -> bool:
        key = mail.maildir_key
        if key is None:
            raise ValueError(f"{mail.source_key} did not come from a Maildir")
        current = self._locate(key)
        if current is None:
            return False
        _, flags = _split(current.name)
        flags = "".join(sorted(set(flags) | {PROCESSED_FLAG}))
        target = self.path / "cur" / f"{key}{COLON}2,{flags}"
        if current != target:
            try:
                os.rename(current, target)
            except FileNotFoundError:
                return False
        self._returned.discard(key)
        return True

    def mark_processed_many(self, mails: list[IncomingMail]) -> list[bool]:
        # A rename each: nothing to gain from batching on a local disk.
        return [self.mark_processed(mail) for mail in mails]

    def wait_for_mail(self, timeout: float) -> bool:
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            if any(key not in self._returned for _, key, _, _ in self._unprocessed()):
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(self.poll_interval, remaining))

    def close(self) -> None:
        pass
