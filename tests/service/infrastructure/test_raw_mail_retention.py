"""Raw mail is kept RAW_MAIL_DAYS (the service's clock), then the worker's
retention job empties it: the raw text of inbound mail, the bodies of mail
sent. What was read from them stays (the inbound rows, their outcome, the
actions and the log); the Master's pages say the text was deleted, and when;
on SQLite the text is gone from the database file, not only unreachable."""
from __future__ import annotations

import mailbox
import os
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import event, func, select, text, update

from pbm import config as config_module
from pbm.config import ConfigError
from pbm.models import ActionRow, InboundRow, OutboxPart, OutboxRow
from pbm import retention
from pbm.retention import Pruned
from pbm.worker import Worker

from tests.support.helpers import login, make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME, deliver, fast_passwords, latest_sent, message, run_mail, seat  # noqa: F401

DAYS = 30
MARKER = "retention-marker-7f3a9c"  # in the raw mail only: never parsed into anything kept


@pytest.fixture
def played(make_app, clock, smtp_server):
    """A game on day 1 whose mail went out, with a vote, a bad command and a
    stranger's mail read from the mailbox."""
    app = make_app(MAIL_PORT=smtp_server.port, RAW_MAIL_DAYS=DAYS)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()
    dario, _ = seat(factory, "Dario")
    to_dario = latest_sent(factory, dario)
    deliver(app, message(dario, to_dario.reply_to, f"VOTO Carla\n\n-- \n{MARKER}", reply_to_row=to_dario))
    elena, _ = seat(factory, "Elena")
    to_elena = latest_sent(factory, elena)
    deliver(app, message(elena, to_elena.reply_to, f"VOTO Zorro\n\n-- \n{MARKER}", reply_to_row=to_elena))
    deliver(app, message("mallory@evil.test", to_dario.reply_to, f"VOTO Anna\n\n-- \n{MARKER}"))
    run_mail(app, worker)
    while worker.outbox():
        pass
    return app, factory, worker


def inbound(factory) -> dict[str, InboundRow]:
    with factory() as s:
        return {r.from_addr: r for r in s.scalars(select(InboundRow))}


def outbox(factory) -> list[OutboxRow]:
    with factory() as s:
        return list(s.scalars(select(OutboxRow).order_by(OutboxRow.id)))


def test_raw_mail_is_kept_its_days_then_emptied_and_what_it_did_stays(played, clock, monkeypatch):
    app, factory, worker = played
    monkeypatch.setattr(retention, "CHUNK", 4)  # several transactions, one partly full
    before = inbound(factory)
    assert [before[a].status for a in ("dario@players.test", "elena@players.test", "mallory@evil.test")] == \
           ["processed", "processed", "refused"]
    assert "Zorro" in before["elena@players.test"].result["errors"][0]
    assert all(MARKER.encode() in r.raw for r in before.values())
    with factory() as s:
        votes = [(a.seat.name, a.args, a.inbound_id) for a in s.scalars(select(ActionRow))]
    assert votes == [("Dario", {"vote": "Carla"}, before["dario@players.test"].id)]
    sent_before = outbox(factory)
    assert sent_before and {r.status for r in sent_before} == {"sent"}
    received = max(r.received_at for r in before.values())

    # A day short of the period: nothing is touched.
    clock.set(received + timedelta(days=DAYS - 1))
    assert worker.prune_raw_mail() == Pruned(0, 0)
    assert all(r.raw and r.pruned_at is None for r in inbound(factory).values())

    # What arrived within the period, an unread message however old, and a mail
    # still waiting are never emptied.
    clock.set(received + timedelta(days=DAYS, minutes=1))
    young = message("anna@players.test", "lupus@lupus.localhost", "ciao")
    maildir = mailbox.Maildir(app.config["MAIL_SOURCE"]["path"], create=True)
    arrived = clock.now().timestamp()
    os.utime(Path(app.config["MAIL_SOURCE"]["path"]) / "new" / maildir.add(young), (arrived, arrived))
    run_mail(app, worker)
    with factory() as s:
        s.add(InboundRow(source_key="unread-1", message_id="<unread-1@x>", raw=b"Subject: x\r\n\r\nVOTO Anna",
                         received_at=received - timedelta(days=90), status="stored"))
        waiting = s.get(OutboxRow, sent_before[0].id)
        waiting.status, waiting.next_attempt_at = "pending", clock.now() + timedelta(hours=1)
        s.commit()
    pruned = worker.prune_raw_mail()
    assert pruned == Pruned(inbound=3, outbox=len(sent_before) - 1)
    assert worker.prune_raw_mail() == Pruned(0, 0)  # nothing twice

    after = inbound(factory)
    for address, row in before.items():
        kept = after[address]
        assert kept.raw == b"" and kept.pruned_at == clock.now()
        # Who, when, what it was, what came of it: unchanged.
        assert (kept.message_id, kept.received_at, kept.status, kept.game_id, kept.result) == \
               (row.message_id, row.received_at, row.status, row.game_id, row.result)
    assert after["anna@players.test"].raw == young and after["anna@players.test"].pruned_at is None
    with factory() as s:
        unread = s.scalar(select(InboundRow).where(InboundRow.source_key == "unread-1"))
        assert unread.raw and unread.pruned_at is None
        assert [(a.seat.name, a.args, a.inbound_id) for a in s.scalars(select(ActionRow))] == votes

    for old, new in zip(sent_before, outbox(factory)):
        assert (new.to_addr, new.subject, new.message_id, new.sent_at, new.phase_id) == \
               (old.to_addr, old.subject, old.message_id, old.sent_at, old.phase_id)
        if new.id == sent_before[0].id:
            assert new.status == "pending" and new.body == old.body and new.pruned_at is None
        else:
            assert new.body == "" and new.body_html is None and new.pruned_at == clock.now()
            assert old.body


def test_a_shared_html_end_is_deleted_with_the_last_mail_that_needs_it(played, clock):
    """A boundary stores the end of its results mails' HTML once (OutboxPart): it
    stays while a mail not sent yet points to it, and goes with the last one."""
    _app, factory, worker = played
    with factory() as s:
        results = list(s.scalars(select(OutboxRow).where(OutboxRow.kind == "phase_results")))
        parts = {r.html_part_id for r in results}
        assert None not in parts and len(parts) < len(results)  # shared, not one a player
        waiting = results[0]
        s.execute(update(OutboxRow).where(OutboxRow.id == waiting.id).values(status="pending"))
        # A second part (as a second language's readers get), whose one mail was sent:
        # it goes at the first pruning, while the waiting mail's part stays.
        other = OutboxPart(created_at=waiting.created_at, html="<p>the end in another language</p>")
        s.add(other)
        s.flush()
        s.execute(update(OutboxRow).where(OutboxRow.id == results[1].id).values(html_part_id=other.id))
        parts.add(other.id)
        s.commit()
    clock.set(waiting.created_at + timedelta(days=DAYS, hours=1))
    worker.prune_raw_mail()
    with factory() as s:
        assert s.get(OutboxPart, waiting.html_part_id) is not None
        assert s.get(OutboxRow, waiting.id).html == waiting.html  # still whole, ready to send
        assert all(s.get(OutboxPart, p) is None for p in parts - {waiting.html_part_id})
        s.execute(update(OutboxRow).where(OutboxRow.id == waiting.id).values(status="sent"))
        s.commit()
    worker.prune_raw_mail()
    with factory() as s:
        assert s.get(OutboxPart, waiting.html_part_id) is None
        assert s.scalar(select(func.count()).select_from(OutboxPart)) == 0


def test_the_masters_page_says_the_text_was_deleted_and_when(played, clock):
    app, factory, worker = played
    rows = inbound(factory)
    error, stranger = rows["elena@players.test"], rows["mallory@evil.test"]
    master = login(app, "master@example.org", "master")
    assert MARKER in master.get(f"/g/test-game/master/inbound/{error.id}").get_data(as_text=True)
    assert f"/master/inbound/{stranger.id}" in master.get("/g/test-game/master").get_data(as_text=True)

    clock.set(error.received_at + timedelta(days=DAYS, hours=1))
    worker.prune_raw_mail()
    desk = master.get("/g/test-game/master").get_data(as_text=True)
    from pbm.render import when_text
    when = when_text(clock.now(), "it", "Europe/Rome")  # "gio 24 dic 2026, 10:30", as the desk writes it
    # The refused stranger stays on the desk, worded, with no link to a text that is gone.
    assert f"/master/inbound/{stranger.id}" not in desk
    assert "mallory@evil.test" in desk and f"{when} (" in desk and f"{DAYS} giorni" in desk
    page = master.get(f"/g/test-game/master/inbound/{error.id}")
    body = page.get_data(as_text=True)
    assert page.status_code == 410 and page.mimetype == "text/html"
    assert when in body and "elena@players.test" in body and f"{DAYS} giorni" in body
    assert "Zorro" in body  # the error it was answered with is kept
    assert MARKER not in body
    # Still the game's Masters' alone.
    assert login(app, "bruno@players.test", "pw-bruno").get(
        f"/g/test-game/master/inbound/{error.id}").status_code == 403


def test_on_sqlite_the_emptied_text_is_gone_from_the_file(played, clock):
    app, factory, worker = played
    url = app.config["DATABASE_URL"]
    if not url.startswith("sqlite"):
        pytest.skip("SQLite's file; PostgreSQL's dead rows are VACUUM's")
    path = Path(url.removeprefix("sqlite:///"))
    engine = app.extensions["pbm_engine"]

    @event.listens_for(engine, "connect")
    def _stock_sqlite(dbapi_connection, _record):
        # As SQLite is built by default (Debian's build zeroes freed space always):
        # the retention job must ask for it.
        dbapi_connection.execute("PRAGMA secure_delete=OFF")

    engine.dispose()

    def on_disk() -> bytes:
        with factory() as s:  # what the log holds is written back, and the log emptied
            s.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        return path.read_bytes() + (path.with_name(path.name + "-wal").read_bytes()
                                    if os.path.exists(str(path) + "-wal") else b"")

    assert MARKER.encode() in on_disk()
    clock.set(max(r.received_at for r in inbound(factory).values()) + timedelta(days=DAYS + 1))
    assert worker.prune_raw_mail().inbound == 3
    assert MARKER.encode() not in on_disk()


@pytest.fixture
def instance(tmp_path, monkeypatch):
    for name in list(os.environ):
        if name.startswith("PBM_"):
            monkeypatch.delenv(name)
    return tmp_path / "instance"


def test_the_period_is_a_setting_read_as_days(instance, monkeypatch):
    assert config_module.load(instance)["RAW_MAIL_DAYS"] == 60
    monkeypatch.setenv("PBM_RAW_MAIL_DAYS", " 14 ")
    assert config_module.load(instance)["RAW_MAIL_DAYS"] == 14


@pytest.mark.parametrize("value, says", [("two weeks", "whole number"), ("0", "at least 1"), ("-5", "at least 1")])
def test_a_wrong_period_is_refused_by_name(instance, monkeypatch, value, says):
    monkeypatch.setenv("PBM_RAW_MAIL_DAYS", value)
    with pytest.raises(ConfigError) as refused:
        config_module.load(instance)
    assert "RAW_MAIL_DAYS" in str(refused.value) and says in str(refused.value)


def test_a_wrong_period_in_the_instance_file_is_refused(instance):
    instance.mkdir()
    (instance / "config.py").write_text("RAW_MAIL_DAYS = '30'\n")
    with pytest.raises(ConfigError, match="RAW_MAIL_DAYS"):
        config_module.load(instance)
