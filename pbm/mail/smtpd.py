"""The embedded SMTP server of the default set-up (aiosmtpd).

Mail to the Master's address (any +token variant) lands in the local Maildir
that the poller reads exactly as it reads IMAP; every other message, i.e. all
the mail the service sends, lands in the local mailbox the Masters can browse
at /master/mailbox. Nothing leaves the machine, and it relays nothing: mail for
another address is taken only from the service's own addresses.
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
    """Takes mail for the service's own addresses from anyone (players' replies),
    and mail for any other address only from the service's own addresses (the
    mail it sends, kept in the local mailbox): it relays nothing for others."""

    def __init__(self, master_address: str, inbox: Path, outbox: Path,
                 noreply_address: str | None = None) -> None:
        self.master_address = master_address
        self.noreply_address = (noreply_address or "").lower()
        self.inbox = mailbox.Maildir(str(inbox), create=True)
        self.outbox = mailbox.Maildir(str(outbox), create=True)

    def is_own(self, address: str) -> bool:
        address = parseaddr(address)[1].lower()
        return is_master_address(address, self.master_address) or (
            bool(self.noreply_address) and address == self.noreply_address)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if not self.is_own(address) and not self.is_own(envelope.mail_from or ""):
            return "550 5.7.1 Relaying denied: this server takes mail for the Lupus service only"
        envelope.rcpt_tos.append(address)
        return "250 OK"

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
                            Path(config["LOCAL_MAILBOX"]), config.get("NOREPLY_ADDRESS"))
    controller = Controller(handler, hostname=config["EMBEDDED_SMTP_HOST"],
                            port=int(config["EMBEDDED_SMTP_PORT"]))
    controller.start()
    return controller
