"""The fault suite (`make faults`, never part of `make test`): the service
under a killed worker, a dead SMTP server, an IMAP server restarted while it
is read, and a hundred thousand broken mails. Each fault records its figures;
they are printed together at the end, every difference expected to be zero."""
from __future__ import annotations

import pytest

from tests.conftest import (  # noqa: F401  (fixtures)
    _fast_password_hashing, app, clock, database_url, factory, make_app, migrated_sqlite,
)

pytest_plugins = ["tests.fixtures.dovecot", "tests.fixtures.smtp", "tests.fixtures.postgres"]

FINDINGS: list[tuple[str, dict[str, object]]] = []


@pytest.fixture
def report():
    """report(fault, **figures): one line of the summary."""
    def record(fault: str, **figures: object) -> None:
        FINDINGS.append((fault, figures))
    return record


def pytest_terminal_summary(terminalreporter) -> None:
    terminalreporter.section("faults: what was found")
    if not FINDINGS:
        terminalreporter.write_line("no fault ran to its end")
    for fault, figures in FINDINGS:
        terminalreporter.write_line(f"{fault}:")
        for name, value in figures.items():
            terminalreporter.write_line(f"    {name:<38} {value}")
