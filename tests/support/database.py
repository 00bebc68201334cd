"""A new database at the migrations' head, cheaply.

Alembic takes most of a second to bring an empty SQLite file to head, and hundreds of
tests each want one: it runs once per session on one file (tests/conftest.py's
``migrated_sqlite``), and each test's new SQLite database is a copy of that file.
PostgreSQL, and a file a test already made (at an older revision, say), still go
through Alembic."""
from __future__ import annotations

import shutil
from pathlib import Path

from pbm.migrate import upgrade

SQLITE = "sqlite:///"


def migrated_template(folder: Path) -> Path:
    """An SQLite file in ``folder`` migrated to head, to be copied."""
    path = folder / "head.sqlite3"
    upgrade(SQLITE + str(path))
    # Alembic's connections are closed: the whole database is in this one file.
    leftovers = [p.name for p in folder.iterdir() if p != path]
    assert not leftovers, f"the migrated template left {leftovers} beside it"
    return path


def bring_to_head(url: str, template: Path | None) -> None:
    """``url`` at head: a new SQLite file is a copy of ``template``; anything else is
    migrated by Alembic."""
    path = Path(url[len(SQLITE):]) if url.startswith(SQLITE) else None
    if template is None or path is None or path.exists():
        upgrade(url)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(template, path)
