"""The Master's mailbox on an IMAP server (imapclient).

Processed messages carry the keyword ``$LupusDone`` (and \\Seen); anything
without it is new, whether or not it was fetched before, so nothing is lost
if the service dies between fetching and marking.  Bodies are fetched with
BODY.PEEK[] so reading never sets \\Seen by itself.  Given a cap, the source
asks for every message's RFC822.SIZE first and downloads only the header
section of one above it.
"""
from __future__ import annotations

from datetime import timezone

import logging
import socket
import ssl as ssl_lib
import time
from typing import Callable, TypeVar

from imapclient import IMAPClient
from imapclient import exceptions as imap_errors

from ... import tls
from .mailbox import (
    HEADER_LIMIT, PROCESSED_KEYWORD, IncomingMail, MailSourceError, header_section,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

# RFC 2177 asks clients to leave IDLE before 29 minutes; NAT boxes and
# firewalls often forget idle connections much sooner, so stay under 10.
MAX_IDLE_RENEW = 600.0
FETCH_CHUNK = 200


class _Disconnected(Exception):
    """The connection is gone (EOF or BYE seen while idling)."""


def _is_connection_error(exc: BaseException) -> bool:
    if isinstance(exc, (OSError, socket.timeout, _Disconnected, imap_errors.IMAPClientAbortError,
                        imap_errors.ProtocolError, imap_errors.IllegalStateError)):
        return True
    if isinstance(exc, imap_errors.LoginError):
        # A server that is still starting may refuse logins for a moment, and
        # one that is stopping (a restart) answers LOGIN with "Shutting down";
        # a wrong password (AUTHENTICATIONFAILED) is no reason to retry.
        text = str(exc).upper()
        return "UNAVAILABLE" in text or "SHUTTING DOWN" in text
    if isinstance(exc, imap_errors.IMAPClientError):
        # imaplib's way of saying the server sent BYE and the session is over.
        return "illegal in state" in str(exc)
    return False


class ImapSource:
    """A ``MailSource`` over one IMAP folder.

    Every network call has a timeout; a dropped connection or a restarted
    server is reconnected with exponential back-off for up to
    ``reconnect_timeout`` seconds, after which ``MailSourceError`` is raised
    (the poller logs it and tries again on its next round).
    """

    def __init__(
        self,
        host: str,
        username: str,
        password: str,
        port: int | None = None,
        ssl: bool = True,
        folder: str = "INBOX",
        processed_folder: str | None = None,
        account: str | None = None,
        timeout: float = 30.0,
        keyword: str = PROCESSED_KEYWORD,
        idle_renew_seconds: float = 540.0,
        poll_interval: float = 60.0,
        use_idle: bool = True,
        reconnect_timeout: float = 60.0,
        backoff_initial: float = 0.2,
        backoff_max: float = 10.0,
        ssl_context=None,
        ca_file: str | None = None,
    ) -> None:
        self.host = host
        self.port = port or (993 if ssl else 143)
        self.username = username
        self._password = password
        self.ssl = ssl
        self.folder = folder
        self.processed_folder = processed_folder
        self.account = account or f"{username}@{host}/{folder}"
        self.timeout = timeout
        self.keyword = keyword
        self.idle_renew_seconds = min(float(idle_renew_seconds), MAX_IDLE_RENEW)
        self.poll_interval = poll_interval
        self.use_idle = use_idle
        self.reconnect_timeout = reconnect_timeout
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        # Verified TLS: the system's authorities, or only ca_file when given.
        self._ssl_context = ssl_context or (tls.client_context(ca_file) if ssl else None)
        self._client: IMAPClient | None = None
        self.uidvalidity: int | None = None
        # Highest UID handed out by fetch_new, per UIDVALIDITY; wait_for_mail
        # only wakes for UIDs above it, so an unmarked message cannot keep it
        # spinning.
        self.last_uid: dict[int, int] = {}
        self._keywords_allowed = True
        self._fresh_connection = False
        self.reconnects = 0

    # -- connection ----------------------------------------------------
    def _connect(self) -> IMAPClient:
        client = IMAPClient(self.host, port=self.port, ssl=self.ssl, timeout=self.timeout,
                            ssl_context=self._ssl_context)
        try:
            client.login(self.username, self._password)
            selected = client.select_folder(self.folder)
            uidvalidity = int(selected[b"UIDVALIDITY"])
            permanent = selected.get(b"PERMANENTFLAGS", ())
            self._keywords_allowed = (not permanent or b"\\*" in permanent
                                      or self.keyword.encode() in permanent)
            if self.processed_folder and not client.folder_exists(self.processed_folder):
                client.create_folder(self.processed_folder)
        except BaseException:
            _close_quietly(client)
            raise
        if self.uidvalidity is not None and uidvalidity != self.uidvalidity:
            log.warning("UIDVALIDITY of %s changed from %s to %s: every message is listed again",
                        self.account, self.uidvalidity, uidvalidity)
        self.uidvalidity = uidvalidity
        self._fresh_connection = True
        return client

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _close_quietly(client)

    def _with_retry(self, operation: Callable[[IMAPClient], T]) -> T:
        deadline = time.monotonic() + self.reconnect_timeout
        delay = self.backoff_initial
        while True:
            try:
                if self._client is None:
                    self._client = self._connect()
                return operation(self._client)
            except ssl_lib.SSLCertVerificationError as exc:
                # Not a network blip: retrying cannot help until someone acts.
                self._drop()
                error = tls.not_verified("IMAP server", self.host, self.port, exc, "MAIL_CA_FILE "
                                         "(or \"ca_file\" in MAIL_SOURCE)")
                log.error("%s", error)
                raise MailSourceError(str(error)) from exc
            except Exception as exc:
                if not _is_connection_error(exc):
                    raise
                self._drop()
                if time.monotonic() + delay > deadline:
                    raise MailSourceError(
                        f"IMAP {self.account} at {self.host}:{self.port} unreachable: {exc}") from exc
                log.info("IMAP %s: %s; reconnecting in %.1fs", self.account, exc, delay)
                time.sleep(delay)
                delay = min(delay * 2, self.backoff_max)
                self.reconnects += 1

    # -- MailSource ----------------------------------------------------
    def _unprocessed_uids(self, client: IMAPClient) -> list[int]:
        if self._keywords_allowed:
            criteria = ["UNKEYWORD", self.keyword, "NOT", "DELETED"]
        else:
            criteria = ["UNSEEN", "NOT", "DELETED"]
        return sorted(client.search(criteria))

    def _sync(self, client: IMAPClient) -> None:
        # Dovecot answers SEARCH from its view as of the last sync, which may
        # predate mail another session appended; NOOP brings it up to date.
        client.noop()
        self._check_uidvalidity(client)

    def _check_uidvalidity(self, client: IMAPClient) -> None:
        # Servers should drop sessions whose mailbox got a new UIDVALIDITY,
        # but not all do; UIDs under a stale UIDVALIDITY would name the wrong
        # messages, so check before trusting them.
        status = client.folder_status(self.folder, [b"UIDVALIDITY"])
        if int(status[b"UIDVALIDITY"]) != self.uidvalidity:
            raise _Disconnected("UIDVALIDITY changed under an open session")

    def fetch_new(self, limit: int | None = None, max_bytes: int | None = None) -> list[IncomingMail]:
        def operation(client: IMAPClient) -> list[IncomingMail]:
            self._sync(client)
            uids = self._unprocessed_uids(client)
            if limit is not None:
                uids = uids[:limit]
            mails = []
            for start in range(0, len(uids), FETCH_CHUNK):
                chunk = uids[start:start + FETCH_CHUNK]
                if max_bytes is None:
                    fetched = client.fetch(chunk, ["BODY.PEEK[]", "INTERNALDATE", "RFC822.SIZE"])
                    mails += [self._mail(uid, data[b"BODY[]"], data) for uid in chunk
                              if (data := fetched.get(uid)) is not None and b"BODY[]" in data]
                    continue
                mails += self._fetch_capped(client, chunk, max_bytes)
            return mails

        mails = self._with_retry(operation)
        self._fresh_connection = False
        if mails:
            top = max(m.uid for m in mails)
            self.last_uid[self.uidvalidity] = max(self.last_uid.get(self.uidvalidity, 0), top)
        return mails

    def _fetch_capped(self, client: IMAPClient, chunk: list[int], max_bytes: int) -> list[IncomingMail]:
        """Sizes first; then the whole of each message within ``max_bytes`` and
        only the header section (at most HEADER_LIMIT bytes) of a larger one.

        A message the server says is small is still asked for as its first
        ``max_bytes`` + 1 octets (a partial fetch): a server that leaves the size
        out, or reports it wrong, never makes the service download more than the
        cap. One that turns out larger is handled as the large ones are."""
        sizes = client.fetch(chunk, ["RFC822.SIZE", "INTERNALDATE"])
        small = [uid for uid in chunk if uid in sizes and int(sizes[uid].get(b"RFC822.SIZE", 0)) <= max_bytes]
        large = [uid for uid in chunk if uid in sizes and uid not in small]
        raws: dict[int, bytes] = {}
        if small:
            for uid, data in client.fetch(small, [f"BODY.PEEK[]<0.{max_bytes + 1}>"]).items():
                body = next((v for k, v in data.items() if k.startswith(b"BODY[]")), None)
                if body is None:
                    continue
                if len(body) <= max_bytes:
                    raws[uid] = bytes(body)
                    continue
                # Larger than the server said: its headers only, its size at least what came.
                raws[uid] = header_section(bytes(body[:HEADER_LIMIT]))
                sizes[uid] = {**sizes[uid], b"RFC822.SIZE": max(len(body), int(sizes[uid].get(b"RFC822.SIZE", 0)))}
                large.append(uid)
                log.warning("IMAP %s: UID %s is larger than the %s bytes the server reported: headers only",
                            self.account, uid, max_bytes)
        if large and any(uid not in raws for uid in large):
            # A partial fetch: a message of headers alone is still cut short.
            for uid, data in client.fetch([u for u in large if u not in raws],
                                          [f"BODY.PEEK[HEADER]<0.{HEADER_LIMIT}>"]).items():
                head = next((v for k, v in data.items() if k.startswith(b"BODY[HEADER]")), None)
                if head is not None:
                    raws[uid] = header_section(bytes(head))
            log.info("IMAP %s: %d message(s) over %d bytes, headers only: UIDs %s",
                     self.account, len(large), max_bytes, large)
        # A UID missing from an answer was expunged meanwhile.
        return [self._mail(uid, raws[uid], sizes[uid], headers_only=uid in large)
                for uid in chunk if uid in raws]

    def _mail(self, uid: int, raw: bytes, data: dict, headers_only: bool = False) -> IncomingMail:
        internaldate = data.get(b"INTERNALDATE")
        if internaldate is not None and internaldate.tzinfo is None:
            # imapclient normalises INTERNALDATE to naive local time
            internaldate = internaldate.astimezone()
        size = data.get(b"RFC822.SIZE")
        return IncomingMail(
            source_key=f"imap:{self.account}:{self.uidvalidity}:{uid}",
            raw=bytes(raw), uidvalidity=self.uidvalidity, uid=uid,
            arrived_at=internaldate.astimezone(timezone.utc) if internaldate else None,
            size=int(size) if size is not None else None, headers_only=headers_only,
        )

    def mark_processed(self, mail: IncomingMail) -> bool:
        return self.mark_processed_many([mail])[0]

    def mark_processed_many(self, mails: list[IncomingMail]) -> list[bool]:
        """One UID STORE for the batch (and one UID MOVE with a processed folder)."""
        def operation(client: IMAPClient) -> list[bool]:
            current = [m.uid for m in mails if m.uidvalidity == self.uidvalidity]
            if not current:
                return [False] * len(mails)
            self._check_uidvalidity(client)
            flags = [b"\\Seen"]
            if self._keywords_allowed:
                flags.append(self.keyword.encode())
            # Not silent: the answer names the UIDs that still exist.
            present = set(client.add_flags(current, flags))
            marked = [uid for uid in current if uid in present]
            if self.processed_folder and marked:
                self._move(client, marked)
            return [m.uidvalidity == self.uidvalidity and m.uid in present for m in mails]

        if not mails:
            return []
        return self._with_retry(operation)

    def _move(self, client: IMAPClient, uids: list[int]) -> None:
        if client.has_capability("MOVE"):
            client.move(uids, self.processed_folder)
            return
        client.copy(uids, self.processed_folder)
        client.add_flags(uids, [b"\\Deleted"], silent=True)
        if client.has_capability("UIDPLUS"):
            client.uid_expunge(uids)
        else:
            client.expunge()

    def wait_for_mail(self, timeout: float) -> bool:
        deadline = time.monotonic() + max(0.0, timeout)
        try:
            if self._client is None or self._fresh_connection:
                return True  # a new session knows nothing of what arrived meanwhile
            if self._has_unfetched(self._client):
                return True
            if self.use_idle and self._client.has_capability("IDLE"):
                return self._idle(self._client, deadline)
            while time.monotonic() < deadline:
                time.sleep(min(self.poll_interval, max(0.0, deadline - time.monotonic())))
                if self._has_unfetched(self._client):
                    return True
            return False
        except Exception as exc:
            if not _is_connection_error(exc):
                raise
            log.info("IMAP %s: connection lost while waiting (%s)", self.account, exc)
            self._drop()
            return True  # fetch_new reconnects and finds whatever arrived

    def _has_unfetched(self, client: IMAPClient) -> bool:
        self._sync(client)
        last = self.last_uid.get(self.uidvalidity, 0)
        return any(uid > last for uid in self._unprocessed_uids(client))

    def _idle(self, client: IMAPClient, deadline: float) -> bool:
        client.idle()
        renew_at = time.monotonic() + self.idle_renew_seconds
        while True:
            now = time.monotonic()
            if now >= deadline or now >= renew_at:
                # Whatever arrived just before DONE comes with DONE's answer,
                # and the next IDLE will not repeat it.
                _, responses = client.idle_done()
                if _announces_mail(responses):
                    return True
                if now >= deadline:
                    return False
                client.idle()
                renew_at = time.monotonic() + self.idle_renew_seconds
                continue
            wait = min(deadline, renew_at) - now
            began = time.monotonic()
            responses = client.idle_check(timeout=wait)
            if _announces_mail(responses):
                self._leave_idle(client)
                return True
            if not responses and time.monotonic() - began < wait * 0.5:
                # imapclient swallows EOF and returns nothing early.
                raise _Disconnected("connection closed during IDLE")

    def _leave_idle(self, client: IMAPClient) -> None:
        try:
            client.idle_done()
        except Exception as exc:
            if not _is_connection_error(exc):
                raise
            self._drop()

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.logout()
            except Exception:
                _close_quietly(client)


def _announces_mail(responses) -> bool:
    for response in responses:
        if len(response) >= 1 and response[0] == b"BYE":
            raise _Disconnected(f"server said BYE: {response!r}")
        if len(response) >= 2 and response[1] in (b"EXISTS", b"RECENT"):
            return True
    return False


def _close_quietly(client: IMAPClient) -> None:
    try:
        client.shutdown()
    except Exception:
        pass

