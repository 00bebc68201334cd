"""Nothing applied twice, nothing lost: pbm.inbox.ingest against a real Dovecot
through duplicate delivery, crashes at each step of store -> apply -> mark,
a server restart in the middle of a batch, and UIDVALIDITY changes."""
from __future__ import annotations

import pytest

from pbm import inbox
from pbm.inbox import apply, store
from pbm.mail.sources import open_source
from pbm.models import ActionRow, InboundRow

from tests.support.mail import (  # noqa: F401  (fast_passwords and game are fixtures)
    fast_passwords, game, latest_sent, message, receipts, seat,
)


class Crash(Exception):
    """The process dying at a chosen point."""


@pytest.fixture
def app(make_app, imap_account):
    return make_app(MAIL_SOURCE=imap_account.source_config(
        reconnect_timeout=15, backoff_initial=0.05, timeout=10))


def vote_mail(factory, name, target, *, message_id=True):
    email, _ = seat(factory, name)
    sent = latest_sent(factory, email)
    raw = message(email, sent.reply_to, f"VOTO {target}", reply_to_row=sent)
    if not message_id:
        raw = b"".join(line for line in raw.splitlines(keepends=True)
                       if not line.lower().startswith(b"message-id:"))
    return raw


def ingest(app, factory, clock, source=None):
    own = source is None
    source = source or open_source(app.config["MAIL_SOURCE"])
    try:
        return inbox.ingest(factory, app.config, source, clock.now())
    finally:
        if own:
            source.close()


def actions(factory):
    with factory() as s:
        return sorted((r.seat.name, r.args.get("vote")) for r in s.query(ActionRow).filter_by(kind="vote"))


def left_in_mailbox(app):
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        return len(source.fetch_new())
    finally:
        source.close()


def statuses(factory):
    with factory() as s:
        return sorted(r.status for r in s.query(InboundRow))


def test_same_message_delivered_twice(app, factory, game, clock, imap_account):
    raw = vote_mail(factory, "Dario", "Anna")
    imap_account.deliver(raw)
    imap_account.deliver(raw)
    assert ingest(app, factory, clock) == 1
    assert actions(factory) == [("Dario", "Anna")]
    assert len(receipts(factory, "dario@players.test")) == 1
    assert statuses(factory) == ["duplicate", "processed"]
    assert left_in_mailbox(app) == 0


def test_crash_between_store_and_apply(app, factory, game, clock, imap_account, monkeypatch):
    imap_account.deliver(vote_mail(factory, "Dario", "Anna"))
    imap_account.deliver(vote_mail(factory, "Carla", "Bruno"))
    real_apply = store.apply_many

    def dies(*args, **kwargs):
        raise Crash()

    monkeypatch.setattr(store, "apply_many", dies)
    with pytest.raises(Crash):
        ingest(app, factory, clock)
    # Both raw messages were kept (one commit for the batch), neither applied.
    assert statuses(factory) == ["stored", "stored"] and actions(factory) == []
    assert left_in_mailbox(app) == 2  # nothing marked: it all comes back

    monkeypatch.setattr(store, "apply_many", real_apply)
    assert ingest(app, factory, clock) == 2
    assert actions(factory) == [("Carla", "Bruno"), ("Dario", "Anna")]
    assert statuses(factory) == ["processed", "processed"]
    assert left_in_mailbox(app) == 0


def test_process_stored_picks_up_what_a_crash_left(app, factory, game, clock, imap_account, monkeypatch):
    """The worker's own recovery path: rows stored but never applied."""
    imap_account.deliver(vote_mail(factory, "Dario", "Anna"))
    real_apply = store.apply_many
    monkeypatch.setattr(store, "apply_many", lambda *a, **k: (_ for _ in ()).throw(Crash()))
    with pytest.raises(Crash):
        ingest(app, factory, clock)
    monkeypatch.setattr(store, "apply_many", real_apply)
    assert inbox.process_stored(factory, app.config, clock.now()) == 1
    assert actions(factory) == [("Dario", "Anna")]
    assert ingest(app, factory, clock) == 0  # the message comes back, already applied
    assert actions(factory) == [("Dario", "Anna")]
    assert left_in_mailbox(app) == 0


@pytest.mark.parametrize("renumber", [False, True], ids=["same-uids", "uidvalidity-changed"])
def test_crash_between_commit_and_mark(app, factory, game, clock, imap_account, renumber):
    imap_account.deliver(vote_mail(factory, "Dario", "Anna"))
    imap_account.deliver(vote_mail(factory, "Carla", "Bruno"))
    source = open_source(app.config["MAIL_SOURCE"])

    def dies(mails):
        raise Crash()

    source.mark_processed_many = dies
    try:
        with pytest.raises(Crash):
            ingest(app, factory, clock, source)
    finally:
        source.close()
    # The batch was applied and committed, then the process died before the STORE.
    assert actions(factory) == [("Carla", "Bruno"), ("Dario", "Anna")]
    assert left_in_mailbox(app) == 2
    if renumber:
        old = imap_account.uidvalidity()
        assert imap_account.change_uidvalidity(renumber=True) != old

    assert ingest(app, factory, clock) == 0  # both come back, and neither is new
    assert actions(factory) == [("Carla", "Bruno"), ("Dario", "Anna")]
    assert len(receipts(factory, "dario@players.test")) == 1
    assert len(receipts(factory, "carla@players.test")) == 1
    assert left_in_mailbox(app) == 0
    # Renamed by the new UIDVALIDITY, both copies are recorded as duplicates of
    # the first rows, which were applied before the crash.
    expected = (["duplicate", "duplicate", "processed", "processed"] if renumber
                else ["processed", "processed"])
    assert statuses(factory) == expected


def test_uidvalidity_change_recognises_a_message_without_message_id(app, factory, game, clock,
                                                                   imap_account):
    imap_account.deliver(vote_mail(factory, "Dario", "Anna", message_id=False))
    source = open_source(app.config["MAIL_SOURCE"])
    source.mark_processed_many = lambda mails: (_ for _ in ()).throw(Crash())
    try:
        with pytest.raises(Crash):
            ingest(app, factory, clock, source)
    finally:
        source.close()
    imap_account.change_uidvalidity(renumber=True)
    assert ingest(app, factory, clock) == 0
    with factory() as s:
        assert s.query(ActionRow).count() == 1
    assert len(receipts(factory, "dario@players.test")) == 1
    assert left_in_mailbox(app) == 0


def test_server_restart_in_the_middle_of_a_batch(app, factory, game, clock, imap_account):
    names = [("Dario", "Anna"), ("Carla", "Bruno"), ("Elena", "Anna")]
    for name, target in names:
        imap_account.deliver(vote_mail(factory, name, target))
    source = open_source(app.config["MAIL_SOURCE"])
    real_mark = source.mark_processed_many
    restarted = []

    def mark_after_a_restart(mails):
        if not restarted:
            restarted.append(True)
            imap_account.server.restart(hard=True)  # a crash of Dovecot: the connection drops
        return real_mark(mails)

    source.mark_processed_many = mark_after_a_restart
    try:
        assert ingest(app, factory, clock, source) == 3
        assert source.reconnects >= 1
    finally:
        source.close()
    assert actions(factory) == sorted(names)
    assert left_in_mailbox(app) == 0


def test_a_message_that_breaks_the_code_does_not_block_the_rest(app, factory, game, clock,
                                                                imap_account, monkeypatch):
    imap_account.deliver(vote_mail(factory, "Dario", "Anna"))
    imap_account.deliver(vote_mail(factory, "Carla", "Bruno"))
    real = apply.route
    calls = []

    def first_one_breaks(session, config, row, now):
        calls.append(row.id)
        if len(calls) == 1:
            raise RuntimeError("a parser bug")
        return real(session, config, row, now)

    monkeypatch.setattr(apply, "route", first_one_breaks)
    assert ingest(app, factory, clock) == 2
    assert actions(factory) == [("Carla", "Bruno")]
    with factory() as s:
        rows = {r.status: r for r in s.query(InboundRow)}
        assert set(rows) == {"error", "processed"}
        assert "a parser bug" in rows["error"].result["errors"][0]
        assert rows["error"].raw  # kept for the Masters
    assert left_in_mailbox(app) == 0


def test_a_database_outage_is_retried_not_recorded_as_an_error(app, factory, game, clock,
                                                               imap_account, monkeypatch):
    from sqlalchemy.exc import OperationalError

    imap_account.deliver(vote_mail(factory, "Dario", "Anna"))
    real = apply.route

    def locked(session, config, row, now):
        raise OperationalError("UPDATE inbound", {}, Exception("database is locked"))

    monkeypatch.setattr(apply, "route", locked)
    with pytest.raises(OperationalError):
        ingest(app, factory, clock)
    assert statuses(factory) == ["stored"] and left_in_mailbox(app) == 1
    monkeypatch.setattr(apply, "route", real)
    ingest(app, factory, clock)
    assert actions(factory) == [("Dario", "Anna")] and left_in_mailbox(app) == 0


def test_connection_dropped_between_rounds(app, factory, game, clock, imap_account):
    """The poller keeps one source open; Dovecot restarts while it waits."""
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        imap_account.deliver(vote_mail(factory, "Dario", "Anna"))
        assert ingest(app, factory, clock, source) == 1
        imap_account.server.restart()
        imap_account.deliver(vote_mail(factory, "Carla", "Bruno"))
        assert ingest(app, factory, clock, source) == 1
        assert source.reconnects >= 1
    finally:
        source.close()
    assert actions(factory) == [("Carla", "Bruno"), ("Dario", "Anna")]
    assert left_in_mailbox(app) == 0


def test_a_batch_that_fails_as_a_whole_is_applied_again_one_by_one(app, factory, game, clock,
                                                                   imap_account, monkeypatch):
    """A deadlock (PostgreSQL) or a lock timeout in the middle of a batch rolls the
    whole batch back; its messages are then applied one at a time, each once."""
    from sqlalchemy.exc import OperationalError

    names = [("Dario", "Anna"), ("Carla", "Bruno"), ("Elena", "Anna")]
    for name, target in names:
        imap_account.deliver(vote_mail(factory, name, target))
    real = apply.route
    calls = []

    def second_one_deadlocks_once(session, config, row, now):
        calls.append(row.id)
        if len(calls) == 2:
            raise OperationalError("SELECT phases", {}, Exception("deadlock detected"))
        return real(session, config, row, now)

    monkeypatch.setattr(apply, "route", second_one_deadlocks_once)
    assert ingest(app, factory, clock) == 3
    assert len(calls) == 2 + 3  # two in the batch (rolled back), then each alone
    assert actions(factory) == sorted(names)
    for name, _ in names:
        assert len(receipts(factory, f"{name.lower()}@players.test")) == 1
    assert statuses(factory) == ["processed"] * 3
    assert left_in_mailbox(app) == 0
