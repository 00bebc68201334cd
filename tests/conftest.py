"""Shared fixtures: a real app on a temporary SQLite file (a copy of one file migrated
once per session) or a PostgreSQL database (where a test asks), an injected clock, and
(from tests/fixtures) a real Dovecot, a real aiosmtpd server and a real PostgreSQL cluster."""
from __future__ import annotations

import os
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from pbm.app import create_app
from pbm.clock import FixedClock

from tests.support.database import bring_to_head, migrated_template

pytest_plugins = ["tests.fixtures.dovecot", "tests.fixtures.smtp", "tests.fixtures.postgres"]


@pytest.fixture(autouse=True)
def _fast_password_hashing(monkeypatch):
    # scrypt is right for real accounts and far too slow for hundreds of test ones.
    import pbm.models
    monkeypatch.setattr(pbm.models, "PASSWORD_METHOD", "pbkdf2:sha256:1000")

# Monday 23 November 2026, 10:00 in Rome: inside a day of the default calendar.
MONDAY_10_ROME = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(MONDAY_10_ROME)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLite by default; tests/service/infrastructure/test_postgres.py runs chosen tests on
    PostgreSQL, and PBM_TEST_DATABASE=postgresql runs every test there."""
    if os.environ.get("PBM_TEST_DATABASE", "sqlite") == "postgresql":
        return request.getfixturevalue("postgres_url")
    instance = tmp_path / "instance"
    instance.mkdir(exist_ok=True)
    return f"sqlite:///{instance / 'test.sqlite3'}"


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite file migrated once for the whole session; each test's SQLite
    database starts as a copy of it (tests/support/database.py)."""
    return migrated_template(tmp_path_factory.mktemp("migrated"))


@pytest.fixture
def make_app(request: pytest.FixtureRequest, tmp_path: Path, clock: FixedClock, database_url: str):
    """Build an app on its own instance folder; overrides go to the config."""
    # PostgreSQL's databases are migrated one by one: no template to start.
    template = request.getfixturevalue("migrated_sqlite") if database_url.startswith("sqlite") else None

    def build(**overrides):
        instance = tmp_path / "instance"
        instance.mkdir(exist_ok=True)
        config = {
            "DATABASE_URL": database_url,
            "MAIL_SOURCE": {"kind": "maildir", "path": str(instance / "maildir")},
            "LOCAL_MAILBOX": str(instance / "sent-mail"),
            "BASE_URL": "http://lupus.test",
            "TESTING": True,
            **overrides,
        }
        bring_to_head(config["DATABASE_URL"], template)
        return create_app(config, instance=instance, clock=clock)
    return build


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def factory(app):
    return app.extensions["pbm_sessions"]


CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"')


def csrf_from(html: str) -> str:
    match = CSRF_RE.search(html)
    assert match, "no CSRF token in the page"
    return match.group(1) or match.group(2)

