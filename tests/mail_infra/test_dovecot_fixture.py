"""The Dovecot fixture itself: isolation, IDLE, UIDVALIDITY changes."""
from __future__ import annotations

from .messages import make_raw


def test_each_test_account_starts_empty_and_is_private(dovecot, imap_account):
    other_user, _ = dovecot.fresh_user()
    dovecot.deliver(other_user, make_raw("per un altro"))
    client = imap_account.client()
    try:
        assert client.search(["ALL"]) == []
    finally:
        client.logout()


def test_server_offers_idle_and_plaintext_login(imap_account):
    client = imap_account.client()
    try:
        assert client.has_capability("IDLE")
    finally:
        client.logout()


def test_known_users_can_log_in(dovecot):
    client = dovecot.client("master")
    client.logout()


def test_deliver_returns_the_uid_the_server_assigned(imap_account):
    uid = imap_account.deliver(make_raw("uno"))
    client = imap_account.client()
    try:
        assert client.search(["ALL"]) == [uid]
    finally:
        client.logout()


def test_change_uidvalidity_changes_it(imap_account):
    imap_account.deliver(make_raw("uno"))
    before = imap_account.uidvalidity()
    after = imap_account.change_uidvalidity()
    assert after != before
    assert imap_account.uidvalidity() == after
    rebuilt = imap_account.change_uidvalidity(renumber=True)
    assert rebuilt not in (before, after)
    assert imap_account.uidvalidity() == rebuilt


def test_restart_keeps_port_and_mail(dovecot, imap_account):
    imap_account.deliver(make_raw("resta"))
    port = dovecot.port
    dovecot.restart()
    assert dovecot.port == port
    client = imap_account.client()
    try:
        assert len(client.search(["ALL"])) == 1
    finally:
        client.logout()


def test_missing_dovecot_says_how_to_install_it(tmp_path):
    import pytest

    from tests.fixtures.dovecot import DovecotNotInstalled, DovecotServer

    server = DovecotServer(root=tmp_path, binary=str(tmp_path / "no-dovecot"))
    with pytest.raises(DovecotNotInstalled, match="README"):
        server.start()
