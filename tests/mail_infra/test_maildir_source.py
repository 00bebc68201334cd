"""MaildirSource on a real Maildir, written the way the embedded SMTP server does."""
from __future__ import annotations

import mailbox
import os
import threading
import time

import pytest

from pbm.mail.sources import MailSource, open_source
from pbm.mail.sources.maildir import MaildirSource, deliver_to_maildir

from .messages import make_raw, subject_of


@pytest.fixture
def maildir(tmp_path):
    return tmp_path / "master"


@pytest.fixture
def source(maildir):
    source = open_source({"kind": "maildir", "path": str(maildir), "poll_interval": 0.05})
    yield source
    source.close()


def files_in(maildir, subdir):
    return sorted(os.listdir(maildir / subdir))


def test_open_source_gives_a_maildir_mail_source(source, maildir):
    assert isinstance(source, MaildirSource)
    assert isinstance(source, MailSource)
    # The standard layout exists even before the first delivery.
    assert {"new", "cur", "tmp"} <= set(os.listdir(maildir))


def test_delivered_messages_are_fetched_oldest_first_byte_for_byte(source, maildir):
    first, second = make_raw("primo"), make_raw("secondo")
    key1 = deliver_to_maildir(maildir, first)
    time.sleep(0.01)
    key2 = deliver_to_maildir(maildir, second)

    mails = source.fetch_new()

    assert [m.raw for m in mails] == [first, second]
    assert [m.maildir_key for m in mails] == [key1, key2]
    assert mails[0].source_key == f"maildir:{maildir.resolve()}:{key1}"
    assert mails[0].uid is None and mails[0].uidvalidity is None


def test_fetch_leaves_the_file_in_new(source, maildir):
    key = deliver_to_maildir(maildir, make_raw("non letto"))
    source.fetch_new()
    assert files_in(maildir, "new") == [key]
    assert files_in(maildir, "cur") == []


def test_mark_processed_moves_to_cur_with_the_seen_flag(source, maildir):
    key = deliver_to_maildir(maildir, make_raw("fatto"))
    deliver_to_maildir(maildir, make_raw("da fare"))
    done = [m for m in source.fetch_new() if m.maildir_key == key][0]

    assert source.mark_processed(done) is True

    assert f"{key}:2,S" in files_in(maildir, "cur")
    assert key not in files_in(maildir, "new")
    assert [subject_of(m.raw) for m in source.fetch_new()] == ["da fare"]
    # The stdlib reads the result as an ordinary seen message.
    stdlib_view = mailbox.Maildir(str(maildir), factory=None, create=False)
    assert stdlib_view.get_message(key).get_flags() == "S"


def test_flags_already_set_are_kept(source, maildir):
    key = deliver_to_maildir(maildir, make_raw("segnato"))
    os.rename(maildir / "new" / key, maildir / "cur" / f"{key}:2,F")
    mail = source.fetch_new()[0]  # in cur/ but not seen: still unprocessed
    assert source.mark_processed(mail)
    assert files_in(maildir, "cur") == [f"{key}:2,FS"]


def test_mark_processed_of_a_vanished_message_is_false(source, maildir):
    key = deliver_to_maildir(maildir, make_raw("sparito"))
    mail = source.fetch_new()[0]
    os.unlink(maildir / "new" / key)
    assert source.mark_processed(mail) is False


def test_crash_between_fetch_and_mark_returns_the_message_again(maildir):
    deliver_to_maildir(maildir, make_raw("sopravvissuto"))
    before = MaildirSource(maildir).fetch_new()
    after = MaildirSource(maildir).fetch_new()
    assert [m.source_key for m in after] == [m.source_key for m in before]
    assert [m.raw for m in after] == [m.raw for m in before]


def test_two_copies_with_one_message_id_are_both_returned(source, maildir):
    raw = make_raw("doppione", message_id="<stesso@test.lupus>")
    deliver_to_maildir(maildir, raw)
    deliver_to_maildir(maildir, raw)
    mails = source.fetch_new()
    assert len({m.source_key for m in mails}) == 2
    assert {m.message_id for m in mails} == {"<stesso@test.lupus>"}


def test_half_written_files_in_tmp_are_ignored(source, maildir):
    (maildir / "tmp" / "123.partial").write_bytes(b"Subject: a met")
    assert source.fetch_new() == []


def test_wait_wakes_up_on_delivery_from_another_thread(source, maildir):
    source.fetch_new()
    timer = threading.Timer(0.3, deliver_to_maildir, (maildir, make_raw("sveglia")))
    timer.start()
    began = time.monotonic()
    try:
        assert source.wait_for_mail(timeout=30) is True
    finally:
        timer.join()
    assert time.monotonic() - began < 20
    assert [subject_of(m.raw) for m in source.fetch_new()] == ["sveglia"]


def test_wait_times_out_without_mail_and_ignores_fetched_unmarked_mail(source, maildir):
    deliver_to_maildir(maildir, make_raw("velenoso"))
    assert len(source.fetch_new()) == 1
    began = time.monotonic()
    assert source.wait_for_mail(timeout=0.3) is False
    assert time.monotonic() - began >= 0.3


def test_a_new_source_wakes_for_mail_already_waiting(maildir):
    deliver_to_maildir(maildir, make_raw("in attesa"))
    assert MaildirSource(maildir).wait_for_mail(timeout=0) is True


def test_a_message_over_the_cap_is_read_as_its_headers_only(source, maildir):
    small = make_raw("piccolo")
    big = make_raw("enorme", body="allegato\r\n" * 200_000)
    deliver_to_maildir(maildir, small)
    time.sleep(0.01)
    key = deliver_to_maildir(maildir, big)

    mails = source.fetch_new(max_bytes=100_000)

    assert [m.raw for m in mails] == [small, big[:big.index(b"\r\n\r\n") + 4]]
    assert [m.headers_only for m in mails] == [False, True]
    assert mails[1].size == len(big) == mails[1].full_size
    assert source.mark_processed_many(mails) == [True, True]
    # Left in the Maildir, whole, for the Masters.
    (done,) = [name for name in files_in(maildir, "cur") if name.startswith(key)]
    assert (maildir / "cur" / done).read_bytes() == big
