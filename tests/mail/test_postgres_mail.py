"""The IMAP safety tests (tests/mail/test_mail_imap_safety.py) on
PostgreSQL: the same message twice, a crash between storing and applying,
a UIDVALIDITY change.  Their own ``app`` reads a real Dovecot mailbox, so they
are collected in a module of their own; see test_postgres.py."""
from __future__ import annotations

import pytest

from tests.mail.test_mail_imap_safety import (  # noqa: F401
    app,
    test_a_batch_that_fails_as_a_whole_is_applied_again_one_by_one,
    test_crash_between_commit_and_mark,
    test_crash_between_store_and_apply,
    test_same_message_delivered_twice,
    test_server_restart_in_the_middle_of_a_batch,
    test_uidvalidity_change_recognises_a_message_without_message_id,
)
from tests.support.mail import fast_passwords, game  # noqa: F401


@pytest.fixture
def database_url(postgres_url: str) -> str:
    return postgres_url
