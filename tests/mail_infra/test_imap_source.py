"""ImapSource against a real Dovecot (session server, a fresh user per test)."""
from __future__ import annotations

import threading
import time

import pytest
from imapclient import exceptions as imap_errors

from pbm.mail.sources.imap import ImapSource
from pbm.mail.sources import MailSource, MailSourceError, open_source

from tests.fixtures.metered_relay import MeteredRelay

from .messages import make_raw, subject_of


@pytest.fixture
def source_for(imap_account):
    opened = []

    def factory(**overrides):
        config = imap_account.source_config(timeout=10, reconnect_timeout=20,
                                            backoff_initial=0.05, **overrides)
        source = open_source(config)
        opened.append(source)
        return source

    yield factory
    for source in opened:
        source.close()


def flags_of(imap_account, uid, folder="INBOX"):
    client = imap_account.client(folder)
    try:
        return set(client.get_flags([uid]).get(uid, ()))
    finally:
        client.logout()


def later(delay, action):
    thread = threading.Thread(target=lambda: (time.sleep(delay), action()), daemon=True)
    thread.start()
    return thread


def test_open_source_gives_an_imap_mail_source(source_for):
    source = source_for()
    assert isinstance(source, ImapSource)
    assert isinstance(source, MailSource)


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        open_source({"kind": "pop3"})


def test_delivered_messages_are_fetched_in_order_byte_for_byte(imap_account, source_for):
    first, second = make_raw("primo"), make_raw("secondo")
    uid1 = imap_account.deliver(first)
    uid2 = imap_account.deliver(second)
    uidvalidity = imap_account.uidvalidity()

    mails = source_for().fetch_new()

    assert [m.raw for m in mails] == [first, second]
    assert [m.uid for m in mails] == [uid1, uid2]
    assert all(m.uidvalidity == uidvalidity for m in mails)
    account = f"{imap_account.username}@{imap_account.host}/INBOX"
    assert mails[0].source_key == f"imap:{account}:{uidvalidity}:{uid1}"


def test_fetch_does_not_set_seen(imap_account, source_for):
    uid = imap_account.deliver(make_raw("non letto"))
    source_for().fetch_new()
    assert b"\\Seen" not in flags_of(imap_account, uid)


def test_mark_processed_hides_the_message_from_the_next_fetch(imap_account, source_for):
    uid_done = imap_account.deliver(make_raw("fatto"))
    imap_account.deliver(make_raw("da fare"))
    source = source_for()
    done = source.fetch_new()[0]

    assert source.mark_processed(done) is True

    assert [subject_of(m.raw) for m in source.fetch_new()] == ["da fare"]
    assert {b"\\Seen", b"$LupusDone"} <= flags_of(imap_account, uid_done)
    # A message already \Seen by a human but not processed is still new.
    imap_account.deliver(make_raw("letto da un umano"), flags=(b"\\Seen",))
    assert "letto da un umano" in [subject_of(m.raw) for m in source_for().fetch_new()]


def test_processed_folder_receives_processed_messages(imap_account, source_for):
    imap_account.deliver(make_raw("da spostare"))
    source = source_for(processed_folder="Processed")
    mail = source.fetch_new()[0]

    assert source.mark_processed(mail)

    assert source.fetch_new() == []
    client = imap_account.client("Processed")
    try:
        moved = client.fetch(client.search(["ALL"]), ["BODY.PEEK[]", "FLAGS"])
    finally:
        client.logout()
    assert [data[b"BODY[]"] for data in moved.values()] == [mail.raw]
    assert all(b"$LupusDone" in data[b"FLAGS"] for data in moved.values())


def test_mark_processed_many_marks_a_batch_and_reports_what_is_gone(imap_account, source_for):
    uids = [imap_account.deliver(make_raw(f"lotto {n}")) for n in range(4)]
    source = source_for()
    mails = source.fetch_new()
    gone = uids[2]
    client = imap_account.client()
    try:  # someone deletes one message between the fetch and the mark
        client.delete_messages([gone])
        client.expunge()
    finally:
        client.logout()

    assert source.mark_processed_many(mails) == [True, True, False, True]

    assert source.fetch_new() == []
    for uid in set(uids) - {gone}:
        assert {b"\\Seen", b"$LupusDone"} <= flags_of(imap_account, uid)
    assert source.mark_processed_many([]) == []


def test_mark_processed_many_moves_a_batch_to_the_processed_folder(imap_account, source_for):
    raws = [make_raw(f"da spostare {n}") for n in range(3)]
    for raw in raws:
        imap_account.deliver(raw)
    source = source_for(processed_folder="Processed")
    assert source.mark_processed_many(source.fetch_new()) == [True, True, True]
    assert source.fetch_new() == []
    client = imap_account.client("Processed")
    try:
        moved = client.fetch(client.search(["ALL"]), ["BODY.PEEK[]"])
    finally:
        client.logout()
    assert [moved[uid][b"BODY[]"] for uid in sorted(moved)] == raws


def big_raw(subject: str, body_bytes: int) -> bytes:
    line = "allegato " * 8 + "\r\n"
    return make_raw(subject, body=line * (body_bytes // len(line) + 1))


def test_a_message_over_the_cap_is_fetched_as_its_headers_only(imap_account, source_for):
    small, big, last = make_raw("piccolo"), big_raw("enorme", 2_000_000), make_raw("ultimo")
    for raw in (small, big, last):
        imap_account.deliver(raw)
    with MeteredRelay(imap_account.host, imap_account.port) as relay:
        source = source_for(host=relay.host, port=relay.port)
        mails = source.fetch_new(max_bytes=100_000)
        source.close()

    assert [subject_of(m.raw) for m in mails] == ["piccolo", "enorme", "ultimo"]
    assert [m.headers_only for m in mails] == [False, True, False]
    assert mails[0].raw == small and mails[2].raw == last
    assert mails[1].raw == big[:big.index(b"\r\n\r\n") + 4]  # the header section, blank line included
    assert mails[1].size == len(big) and mails[1].full_size == len(big)
    assert mails[1].message_id is not None
    # What came over the wire: the two small messages, one header and the
    # protocol around them, never the 2 MB body.
    assert len(small) + len(last) < relay.received < 20_000


def test_without_a_cap_every_message_is_fetched_whole(imap_account, source_for):
    big = big_raw("enorme", 300_000)
    imap_account.deliver(big)
    (mail,) = source_for().fetch_new()
    assert mail.raw == big and not mail.headers_only and mail.full_size == len(big)


def test_a_message_of_headers_alone_over_the_cap_is_cut_short(imap_account, source_for):
    from pbm.mail.sources.mailbox import HEADER_LIMIT

    raw = make_raw("intestazioni").replace(b"MIME-Version", b"X-Filler: " + b"x" * 998 + b"\r\n"
                                           + (b"X-Filler: " + b"y" * 998 + b"\r\n") * 200
                                           + b"MIME-Version")
    imap_account.deliver(raw)
    (mail,) = source_for().fetch_new(max_bytes=100_000)
    assert mail.headers_only and len(mail.raw) == HEADER_LIMIT and mail.size == len(raw)
    assert subject_of(mail.raw) == "intestazioni"


def test_crash_between_fetch_and_mark_returns_the_message_again(imap_account, source_for):
    imap_account.deliver(make_raw("sopravvissuto"))
    before_crash = source_for().fetch_new()
    # The first source is abandoned without marking, as if the process died.
    after_restart = source_for().fetch_new()
    assert [m.source_key for m in after_restart] == [m.source_key for m in before_crash]
    assert [m.raw for m in after_restart] == [m.raw for m in before_crash]


def test_unmarked_messages_come_back_on_every_fetch(imap_account, source_for):
    imap_account.deliver(make_raw("ancora qui"))
    source = source_for()
    assert len(source.fetch_new()) == 1
    assert len(source.fetch_new()) == 1


def test_two_copies_with_one_message_id_are_both_returned(imap_account, source_for):
    # De-duplicating by Message-ID is the caller's job: the source reports what is there.
    raw = make_raw("doppione", message_id="<stesso@test.lupus>")
    imap_account.deliver(raw)
    imap_account.deliver(raw)
    mails = source_for().fetch_new()
    assert len(mails) == 2
    assert len({m.source_key for m in mails}) == 2
    assert {m.message_id for m in mails} == {"<stesso@test.lupus>"}


def test_fetch_limit(imap_account, source_for):
    for n in range(5):
        imap_account.deliver(make_raw(f"m{n}"))
    assert [subject_of(m.raw) for m in source_for().fetch_new(limit=2)] == ["m0", "m1"]


def test_idle_wakes_up_when_mail_arrives_from_another_connection(imap_account, source_for):
    source = source_for(poll_interval=300)  # only IDLE can wake it in time
    assert source.fetch_new() == []
    began = time.monotonic()
    later(0.3, lambda: imap_account.deliver(make_raw("sveglia")))

    assert source.wait_for_mail(timeout=30) is True

    assert time.monotonic() - began < 20
    assert [subject_of(m.raw) for m in source.fetch_new()] == ["sveglia"]


def test_wait_times_out_across_idle_renewals_and_still_wakes(imap_account, source_for):
    source = source_for(poll_interval=300, idle_renew_seconds=0.15)
    source.fetch_new()
    began = time.monotonic()
    assert source.wait_for_mail(timeout=0.5) is False
    assert time.monotonic() - began >= 0.5

    later(0.4, lambda: imap_account.deliver(make_raw("dopo il rinnovo")))
    assert source.wait_for_mail(timeout=30) is True
    assert [subject_of(m.raw) for m in source.fetch_new()] == ["dopo il rinnovo"]


def test_wait_returns_at_once_for_mail_not_yet_fetched(imap_account, source_for):
    source = source_for(poll_interval=300)
    source.fetch_new()
    imap_account.deliver(make_raw("già arrivato"))
    began = time.monotonic()
    assert source.wait_for_mail(timeout=30) is True
    assert time.monotonic() - began < 10


def test_wait_does_not_spin_on_a_message_left_unmarked(imap_account, source_for):
    imap_account.deliver(make_raw("velenoso"))
    source = source_for(poll_interval=300)
    assert len(source.fetch_new()) == 1
    assert source.wait_for_mail(timeout=0.3) is False


def test_polling_without_idle_notices_new_mail(imap_account, source_for):
    source = source_for(use_idle=False, poll_interval=0.2)
    source.fetch_new()
    later(0.3, lambda: imap_account.deliver(make_raw("col polling")))
    assert source.wait_for_mail(timeout=30) is True
    assert [subject_of(m.raw) for m in source.fetch_new()] == ["col polling"]


@pytest.mark.parametrize("hard", [True, False], ids=["killed", "stopped"])
def test_server_restart_between_fetches_loses_nothing(imap_account, source_for, dovecot, hard):
    imap_account.deliver(make_raw("prima"))
    source = source_for()
    first = source.fetch_new()
    assert source.mark_processed(first[0])
    imap_account.deliver(make_raw("non ancora marcato"))
    assert len(source.fetch_new()) == 1

    dovecot.restart(hard=hard)
    imap_account.deliver(make_raw("dopo il riavvio"))

    mails = source.fetch_new()
    assert [subject_of(m.raw) for m in mails] == ["non ancora marcato", "dopo il riavvio"]
    assert source.reconnects >= 1
    assert all(source.mark_processed(m) for m in mails)
    assert source.fetch_new() == []


def test_restart_while_idling_wakes_the_waiter(imap_account, source_for, dovecot):
    source = source_for(poll_interval=300)
    source.fetch_new()
    restarting = later(0.3, lambda: dovecot.restart(hard=True))
    began = time.monotonic()
    assert source.wait_for_mail(timeout=30) is True
    assert time.monotonic() - began < 20
    restarting.join(30)
    imap_account.deliver(make_raw("dopo la caduta"))
    assert [subject_of(m.raw) for m in source.fetch_new()] == ["dopo la caduta"]


def test_fetch_waits_for_a_server_that_comes_back(imap_account, source_for, dovecot):
    imap_account.deliver(make_raw("in attesa"))
    source = source_for()
    source.fetch_new()
    dovecot.stop(hard=True)
    starting = later(0.5, dovecot.start)
    try:
        mails = source.fetch_new()
    finally:
        starting.join(30)
    assert [subject_of(m.raw) for m in mails] == ["in attesa"]


def test_server_down_too_long_raises_mail_source_error(imap_account, dovecot):
    source = ImapSource(host=dovecot.host, port=dovecot.port, username=imap_account.username,
                        password=imap_account.password, ssl=False, timeout=2,
                        reconnect_timeout=0.5, backoff_initial=0.05)
    dovecot.stop(hard=True)
    try:
        with pytest.raises(MailSourceError):
            source.fetch_new()
    finally:
        dovecot.start()
    assert source.fetch_new() == []


def test_wrong_password_is_not_retried(imap_account, dovecot):
    source = ImapSource(host=dovecot.host, port=dovecot.port, username=imap_account.username,
                        password="sbagliata", ssl=False, timeout=5, reconnect_timeout=60)
    began = time.monotonic()
    with pytest.raises(imap_errors.LoginError):
        source.fetch_new()
    assert time.monotonic() - began < 30


@pytest.mark.parametrize("renumber", [False, True], ids=["doveadm", "rebuilt"])
def test_uidvalidity_change_relists_only_unprocessed_mail(imap_account, source_for, renumber):
    imap_account.deliver(make_raw("già fatto"))
    imap_account.deliver(make_raw("in sospeso"))
    source = source_for()
    # The caller's store: Message-IDs it has committed.
    committed: set[str] = set()
    done, pending = source.fetch_new()
    committed.add(done.message_id)
    assert source.mark_processed(done)
    committed.add(pending.message_id)  # committed, then the process stalls before marking

    new_validity = imap_account.change_uidvalidity(renumber=renumber)
    assert new_validity != pending.uidvalidity

    relisted = source.fetch_new()
    assert [subject_of(m.raw) for m in relisted] == ["in sospeso"]
    again = relisted[0]
    assert again.uidvalidity == new_validity
    assert again.source_key != pending.source_key
    # The stale UID must not be trusted under the new UIDVALIDITY.
    assert source.mark_processed(pending) is False
    # The caller recognises the message by Message-ID, skips re-applying it, and marks it.
    assert again.message_id in committed
    assert source.mark_processed(again) is True
    assert source.fetch_new() == []


def test_a_login_refused_by_a_server_shutting_down_is_retried_a_wrong_password_is_not():
    """Found by the fault suite (faults/test_imap_restarted.py): Dovecot answers
    LOGIN with "Shutting down" while it restarts; that passes, a bad password does not."""
    from imapclient.exceptions import LoginError

    from pbm.mail.sources.imap import _is_connection_error
    assert _is_connection_error(LoginError("command: LOGIN => Shutting down"))
    assert _is_connection_error(LoginError("command: LOGIN => [UNAVAILABLE] Temporary failure"))
    assert not _is_connection_error(LoginError("command: LOGIN => [AUTHENTICATIONFAILED] Authentication failed."))
