"""TLS to the mail servers is verified: a relay (aiosmtpd, SMTPS and
STARTTLS) or an IMAP server (Dovecot behind a TLS front) whose certificate
no trusted authority signed gets nothing, with an error that says why and
what to set; named in MAIL_CA_FILE, the same authority is accepted."""
from __future__ import annotations

import asyncio
import ssl
import threading

import pytest
import trustme
from aiosmtpd.controller import Controller

from pbm.mail.outbound import send
from pbm.mail.sources.imap import ImapSource
from pbm.mail.sources import MailSourceError
from pbm.models import OutboxRow
from tests.fixtures.smtp import free_port
from tests.mail_infra.messages import make_raw

from tests.support.helpers import make_game
from tests.support.mail import ROLES, fast_passwords  # noqa: F401  (a fixture)


@pytest.fixture
def authority(tmp_path):
    """A certificate authority of our own, unknown to the system, and its file."""
    ca = trustme.CA()
    path = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return ca, str(path)


class Recorder:
    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        self.received.append(envelope.original_content or envelope.content)
        return "250 OK"


def server_context(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    return context


@pytest.fixture(params=["smtps", "starttls"])
def tls_relay(request, authority):
    ca, _ = authority
    recorder, port = Recorder(), free_port()
    if request.param == "smtps":
        controller = Controller(recorder, hostname="127.0.0.1", port=port, ssl_context=server_context(ca))
        settings = {"MAIL_USE_SSL": True, "MAIL_USE_TLS": False}
    else:
        controller = Controller(recorder, hostname="127.0.0.1", port=port,
                                tls_context=server_context(ca), require_starttls=True)
        settings = {"MAIL_USE_SSL": False, "MAIL_USE_TLS": True}
    controller.start()
    try:
        yield recorder, {"MAIL_SERVER": "127.0.0.1", "MAIL_PORT": port, **settings}
    finally:
        controller.stop()


def queue_mail(app, clock) -> int:
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        return s.query(OutboxRow).count()


def test_a_relay_with_an_unknown_authority_gets_nothing_and_the_error_says_why(make_app, clock, tls_relay,
                                                                               caplog):
    recorder, settings = tls_relay
    app = make_app(**settings)
    factory = app.extensions["pbm_sessions"]
    queued = queue_mail(app, clock)
    assert send.drain(app, factory, clock.now()) == 0
    assert recorder.received == []
    with factory() as s:
        rows = s.query(OutboxRow).all()
    assert len(rows) == queued and all(r.status == "pending" for r in rows)  # waiting, not lost
    assert all("could not be verified" in r.last_error and "MAIL_CA_FILE" in r.last_error for r in rows)
    assert any("certificate of the SMTP relay 127.0.0.1" in m for m in caplog.messages)


def test_the_same_relay_is_accepted_with_its_authority_configured(make_app, clock, tls_relay, authority):
    recorder, settings = tls_relay
    app = make_app(MAIL_CA_FILE=authority[1], **settings)
    queued = queue_mail(app, clock)
    assert send.drain(app, app.extensions["pbm_sessions"], clock.now()) == queued
    assert len(recorder.received) == queued


class TlsFront:
    """A TLS front to a plain server (as stunnel would be): Dovecot over TLS,
    with a certificate of the given authority."""

    def __init__(self, ca: trustme.CA, backend: tuple[str, int]) -> None:
        self.context = server_context(ca)
        self.backend = backend
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    async def _pipe(self, reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()

    async def _serve(self, client_reader, client_writer) -> None:
        try:
            reader, writer = await asyncio.open_connection(*self.backend)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(self._pipe(client_reader, writer), self._pipe(reader, client_writer))

    def __enter__(self) -> "TlsFront":
        self.thread.start()
        asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._serve, "127.0.0.1", self.port, ssl=self.context), self.loop).result(5)
        return self

    def __exit__(self, *exc) -> None:
        # Pipes still open are cancelled inside the loop, so none is left to be
        # finalised after the loop has gone (which Python reports as a warning).
        async def cancel_pipes() -> None:
            pipes = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for pipe in pipes:
                pipe.cancel()
            await asyncio.gather(*pipes, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(cancel_pipes(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def imap_source(imap_account, port: int, **options) -> ImapSource:
    return ImapSource(host="127.0.0.1", port=port, ssl=True, username=imap_account.username,
                      password=imap_account.password, timeout=5, reconnect_timeout=5, **options)


def test_an_imap_server_with_an_unknown_authority_is_refused_at_once(imap_account, authority):
    ca, _ = authority
    with TlsFront(ca, (imap_account.host, imap_account.port)) as front:
        source = imap_source(imap_account, front.port)
        try:
            with pytest.raises(MailSourceError) as refused:
                source.fetch_new()
        finally:
            source.close()
    message = str(refused.value)
    assert "could not be verified" in message and "MAIL_CA_FILE" in message
    assert source.reconnects == 0  # a certificate does not fix itself: no retrying for a minute


def test_the_same_imap_server_is_read_with_its_authority_configured(imap_account, authority):
    ca, ca_file = authority
    imap_account.deliver(make_raw("over TLS"))
    with TlsFront(ca, (imap_account.host, imap_account.port)) as front:
        source = imap_source(imap_account, front.port, ca_file=ca_file)
        try:
            assert [m.raw for m in source.fetch_new()] != []
        finally:
            source.close()
