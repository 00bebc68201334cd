"""The embedded SMTP server of the default set-up (aiosmtpd).

Mail to the Master's address (any +token variant) lands in the local Maildir
that the poller reads exactly as it reads IMAP; every other message, i.e. all
the mail the service sends, lands in the local mailbox the Masters can browse
at /master/mailbox. Nothing leaves the machine.
"""
from __future__ import annotations

import mailbox
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller


def is_master_address(rcpt: str, master_address: str) -> bool:
    local, _, domain = parseaddr(rcpt)[1].lower().partition("@")
    m_local, _, m_domain = master_address.lower().partition("@")
    return domain == m_domain and local.split("+", 1)[0] == m_local


class LocalDelivery:
    def __init__(self, master_address: str, inbox: Path, outbox: Path) -> None:
        self.master_address = master_address
        self.inbox = mailbox.Maildir(str(inbox), create=True)
        self.outbox = mailbox.Maildir(str(outbox), create=True)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        for rcpt in envelope.rcpt_tos:
            # The envelope recipient carries the reply token even when the
            # headers do not (Bcc, list expansion): record it as a header.
            stamped = f"Delivered-To: {rcpt}\r\n".encode() + raw
            if is_master_address(rcpt, self.master_address):
                self.inbox.add(stamped)
            else:
                self.outbox.add(stamped)
        return "250 OK"


def start(config: dict[str, Any]) -> Controller:
    source = config["MAIL_SOURCE"]
    if source.get("kind") != "maildir":
        raise SystemExit("the embedded SMTP server needs MAIL_SOURCE of kind 'maildir'")
    handler = LocalDelivery(config["MASTER_ADDRESS"], Path(source["path"]),
                            Path(config["LOCAL_MAILBOX"]))
    controller = Controller(handler, hostname=config["EMBEDDED_SMTP_HOST"],
                            port=int(config["EMBEDDED_SMTP_PORT"]))
    controller.start()
    return controller
