"""Shared fixtures: a real app on a temporary SQLite file (a copy of one file migrated
once per session) or a PostgreSQL database (where a test asks), an injected clock, and
(from tests/fixtures) a real Dovecot, a real aiosmtpd server and a real PostgreSQL cluster;
and the hooks of the extra checks (tests/support/external.py)."""
from __future__ import annotations

import os
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from pbm.app import create_app
from pbm.clock import FixedClock

from tests.support import external
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


# --------------------------------------------------------------------------- extra checks

def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "extra_check(folder): checks against data outside the repository "
                                       "(tests/support/external.py); skipped, and said so, when it is absent")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("extra_check"):
        reason = external.missing(mark.kwargs["folder"])
        if reason:
            pytest.skip(reason)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The extra checks that could not run, counted in a section of their own: a clone
    without ../shared passes, and says what it did not check."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if external.SKIPPED in str(r.longrepr)]
    if not skipped:
        return
    by_module: dict[str, int] = {}
    for report in skipped:
        module = report.nodeid.split("::", 1)[0]
        by_module[module] = by_module.get(module, 0) + 1
    reasons = sorted({str(r.longrepr[2]).removeprefix("Skipped: ") if isinstance(r.longrepr, tuple)
                      else str(r.longrepr) for r in skipped})
    terminalreporter.section("extra checks skipped", sep="=", yellow=True, bold=True)
    for reason in reasons:
        terminalreporter.write_line(reason, yellow=True, bold=True)
    terminalreporter.write_line(f"{len(skipped)} tests check the service against data outside the repository "
                                "and did not run; the repository's own data (tests/data/) covers what they check:")
    for module, count in sorted(by_module.items()):
        terminalreporter.write_line(f"  {module}: {count}")
