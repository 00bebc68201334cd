"""`pbm db backup PATH`: a consistent copy of the database while the service runs.

SQLite: the online backup API (the copy is a snapshot of one moment, made
page by page while the web and the worker go on writing). PostgreSQL:
pg_dump in its custom format (restore with pg_restore), a snapshot too.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupError(Exception):
    pass


def backup(database_url: str, target: Path) -> None:
    url = make_url(database_url)
    target = target.resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    if url.get_backend_name() == "sqlite":
        _sqlite(Path(url.database or ""), target)
    elif url.get_backend_name() == "postgresql":
        _postgresql(database_url, target)
    else:
        raise BackupError(f"no backup for {url.get_backend_name()}: use its own tools")


def _sqlite(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(f"no SQLite database at {source}")
    # Written beside the target, then renamed: a half-written file never
    # carries the backup's name.
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    dst = sqlite3.connect(partial)
    try:
        # Pages in steps, so writers wait milliseconds at a time, not the whole copy.
        src.backup(dst, pages=1024)
        if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise BackupError("the copy failed SQLite's integrity check")
    finally:
        dst.close()
        src.close()
    os.replace(partial, target)


def _postgresql(database_url: str, target: Path) -> None:
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError("pg_dump not found (Debian: apt-get install postgresql-client)")
    url = make_url(database_url)
    # libpq takes the URL without SQLAlchemy's +driver, and the password from
    # the environment rather than the command line (which `ps` shows).
    env = {**os.environ}
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    partial = target.with_name(target.name + ".partial")
    result = subprocess.run([pg_dump, "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={plain}"],
                            env=env, capture_output=True, text=True)
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {result.stderr.strip()}")
    os.replace(partial, target)
