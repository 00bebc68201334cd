"""The embedded SMTP server of the default set-up (aiosmtpd).

Mail to the Master's address (any +token variant) lands in the local Maildir
that the poller reads exactly as it reads IMAP; every other message, i.e. all
the mail the service sends, lands in the local mailbox the Masters can browse
at /master/mailbox. Nothing leaves the machine, and it relays nothing.

Anyone may write to the Master's address (players reply to it; what a message
may do is then the inbound pipeline's question, as for mail from the Internet).
Every other recipient, the no-reply address included, takes mail only from the
service itself: a client that logged in (SMTP AUTH) with the service's own
credentials, which the sender gives (``service_credentials``, derived from the
instance's SECRET_KEY, readable by the service's user alone). An envelope sender
proves nothing: before, anyone on the machine could write MAIL FROM the Master's
address and plant mail in the demo's mailbox, under a row the service did send.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import mailbox
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

SERVICE_LOGIN = "lupus-service"


def is_master_address(rcpt: str, master_address: str) -> bool:
    local, _, domain = parseaddr(rcpt)[1].lower().partition("@")
    m_local, _, m_domain = master_address.lower().partition("@")
    return domain == m_domain and local.split("+", 1)[0] == m_local


def is_embedded_relay(config: dict[str, Any]) -> bool:
    """Is mail in and out the embedded demo's (nothing leaves the machine)?"""
    return (config["MAIL_SOURCE"].get("kind") == "maildir"
            and str(config["MAIL_SERVER"]) == str(config["EMBEDDED_SMTP_HOST"])
            and int(config["MAIL_PORT"]) == int(config["EMBEDDED_SMTP_PORT"]))


def service_credentials(config: dict[str, Any]) -> tuple[str, str]:
    """The login the sender gives the embedded server, and the server expects."""
    secret = str(config["SECRET_KEY"]).encode()
    return SERVICE_LOGIN, hmac.new(secret, b"pbm embedded smtp", hashlib.sha256).hexdigest()


class ServiceLogin:
    """aiosmtpd's authenticator: the service's own credentials, nothing else."""

    def __init__(self, config: dict[str, Any]) -> None:
        login, password = service_credentials(config)
        self._login, self._password = login.encode(), password.encode()

    def __call__(self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
        ok = (isinstance(auth_data, LoginPassword) and hmac.compare_digest(auth_data.login, self._login)
              and hmac.compare_digest(auth_data.password, self._password))
        return AuthResult(success=ok, handled=False)


class LocalDelivery:
    """Takes mail for the Master's addresses from anyone (players' replies), and
    mail for any other address only from the service (logged in): it relays
    nothing for others and keeps no mail the service did not send."""

    def __init__(self, master_address: str, inbox: Path, outbox: Path,
                 noreply_address: str | None = None) -> None:
        self.master_address = master_address
        self.noreply_address = (noreply_address or "").lower()
        self.inbox = mailbox.Maildir(str(inbox), create=True)
        self.outbox = mailbox.Maildir(str(outbox), create=True)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if not is_master_address(address, self.master_address) and not session.authenticated:
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


class _OwnDeprecation(logging.Filter):
    """aiosmtpd (1.4) sets its own deprecated ``Session.login_data`` at every login
    and warns about it: a warning in the service's log at each round of mail that
    nobody here can act on."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Session.login_data is deprecated")


def start(config: dict[str, Any]) -> Controller:
    source = config["MAIL_SOURCE"]
    if source.get("kind") != "maildir":
        raise SystemExit("the embedded SMTP server needs MAIL_SOURCE of kind 'maildir'")
    handler = LocalDelivery(config["MASTER_ADDRESS"], Path(source["path"]),
                            Path(config["LOCAL_MAILBOX"]), config.get("NOREPLY_ADDRESS"))
    aiosmtpd_log = logging.getLogger("mail.log")
    if not any(isinstance(f, _OwnDeprecation) for f in aiosmtpd_log.filters):
        aiosmtpd_log.addFilter(_OwnDeprecation())
    # Login without TLS: the server listens on this machine only, and the
    # credentials are good for this demo's mailbox and nothing else.
    controller = Controller(handler, hostname=config["EMBEDDED_SMTP_HOST"],
                            port=int(config["EMBEDDED_SMTP_PORT"]), authenticator=ServiceLogin(config),
                            auth_require_tls=False)
    controller.start()
    return controller
