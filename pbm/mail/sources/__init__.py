"""The Master's mailbox, where mail in comes from (pbm/inbox reads it): a real IMAP
account (imap.py) or the Maildir the embedded SMTP server writes to (maildir.py),
both a ``MailSource`` (mailbox.py); ``open_source`` opens the one the configuration
names (MAIL_SOURCE). Below the operations: nothing here knows a game.
"""
from __future__ import annotations

from .imap import ImapSource
from .mailbox import IncomingMail, MailSource, MailSourceError
from .maildir import MaildirSource

__all__ = ["ImapSource", "IncomingMail", "MailSource", "MailSourceError", "MaildirSource", "open_source"]


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
