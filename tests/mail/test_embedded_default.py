"""The embedded default end to end: mail the service sends lands in the local
mailbox; a reply through the embedded SMTP server lands in the Maildir the
worker reads, and counts."""
from __future__ import annotations

import mailbox
from datetime import datetime, timezone

import pytest

from pbm.mail import smtpd
from pbm.mail.sources import open_source
from pbm.models import ActionRow
from pbm.worker import Worker

from tests.conftest import csrf_from
from tests.fixtures.smtp import free_port
from tests.support.helpers import login, make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino"}
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)


@pytest.fixture
def embedded(make_app, tmp_path):
    port = free_port()
    app = make_app(MAIL_PORT=port, EMBEDDED_SMTP_PORT=port)
    controller = smtpd.start(app.config)
    yield app
    controller.stop()


def test_reply_from_the_local_mailbox_is_played(embedded, clock):
    app = embedded
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    clock.set(TUESDAY_0930_ROME)
    worker = Worker(app, clock)
    worker.boundaries()
    assert worker.outbox() > 0
    sent = mailbox.Maildir(app.config["LOCAL_MAILBOX"], create=False)
    assert len(sent) == worker_sent_total(factory)

    client = login(app, "master@example.org", "master")
    page = client.get("/master/mailbox").get_data(as_text=True)
    key = next(k for k, m in sent.items() if m["To"] == "dario@players.test" and "Bollettino" in str(m["Subject"]))
    r = client.post("/master/mailbox/reply", data={"csrf_token": csrf_from(page), "key": key,
                                                    "body": "VOTO Anna"}, follow_redirects=True)
    assert "Risposta inviata" in r.get_data(as_text=True)

    source = open_source(app.config["MAIL_SOURCE"])
    try:
        assert worker.mail_once(source) == 1
    finally:
        source.close()
    with factory() as s:
        (vote,) = s.query(ActionRow).all()
        assert (vote.seat.name, vote.args, vote.source) == ("Dario", {"vote": "Anna"}, "mail")


def worker_sent_total(factory) -> int:
    from pbm.models import OutboxRow
    with factory() as s:
        return s.query(OutboxRow).filter_by(status="sent").count()


def test_the_services_login_to_the_embedded_server_leaves_no_warning_in_the_log(embedded, caplog):
    """`make run` printed aiosmtpd's "Session.login_data is deprecated" at every round
    of mail: aiosmtpd warns about an attribute it sets itself at each login."""
    import logging
    import smtplib

    caplog.set_level(logging.DEBUG)
    config = embedded.config
    with smtplib.SMTP(config["EMBEDDED_SMTP_HOST"], int(config["EMBEDDED_SMTP_PORT"]), timeout=10) as client:
        client.login(*smtpd.service_credentials(config))
        client.sendmail(config["NOREPLY_ADDRESS"], ["anna@players.test"], b"Subject: prova\r\n\r\nciao\r\n")
    assert len(mailbox.Maildir(config["LOCAL_MAILBOX"], create=False)) == 1  # the login did log in
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
