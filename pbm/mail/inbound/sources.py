"""The mailbox the configuration names (MAIL_SOURCE), opened: a real IMAP account or the
Maildir the embedded SMTP server writes to, both a ``MailSource`` (mailbox.py).
"""
from __future__ import annotations

from .imap import ImapSource
from .mailbox import MailSource
from .maildir import MaildirSource


def open_source(config: dict, ca_file: str | None = None) -> MailSource:
    """Build a source from a config dict.

    IMAP: {"kind": "imap", "host", "port", "username", "password", "ssl": bool,
    "folder": "INBOX", "processed_folder": None, ...optional tuning keys of
    ImapSource}.  Maildir: {"kind": "maildir", "path": ...}.  ``ca_file``
    (the service's MAIL_CA_FILE) is the IMAP source's unless it names its own.
    """
    options = dict(config)
    kind = options.pop("kind", None)
    if kind == "imap":
        if ca_file and not options.get("ca_file"):
            options["ca_file"] = ca_file
        return ImapSource(**options)
    if kind == "maildir":
        return MaildirSource(**options)
    raise ValueError(f"unknown mail source kind {kind!r} (expected 'imap' or 'maildir')")
