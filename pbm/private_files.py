"""The service's files are its own user's: nobody else on the machine reads them.

The database holds every reply token and, until sent, every set-password link; the
secret key signs logins; the Master's maildir and the local mailbox hold players'
mail. Three layers keep them closed:

- every `pbm` process makes its files 0600 and its folders 0700 (``restrict_new_files``,
  a umask of 077, inherited by gunicorn's workers, the worker, the embedded SMTP
  server, pg_dump); the systemd units set ``UMask=0077`` as well, for a service
  started some other way (``gunicorn 'pbm.app:create_app()'``);
- the instance folder is made 0700, so what is in it cannot be reached even if a
  file in it were open (``protect``, at every start, through ``config.load``);
- what an older version left open (0644 files in a 0755 folder) is closed at the
  next start: the instance folder, the SQLite database and its -wal and -shm
  wherever they are, the maildir and the local mailbox. Only what this user owns is
  changed (an operator's root-owned config.py stays as they set it), and only the
  group's and others' bits are taken away.

SQLite gives a database's -wal and -shm the database file's own mode, so a
database made by `pbm db upgrade` (0600) keeps them 0600 whoever opens it later.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

UMASK = 0o077


def restrict_new_files() -> None:
    os.umask(UMASK)


def protect(instance: Path, config: dict[str, Any]) -> None:
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    database = _sqlite_file(str(config.get("DATABASE_URL") or ""))
    for path in _owned_places(instance, config, database):
        for entry in _walk(path):
            _close(entry)


def _sqlite_file(url: str) -> Path | None:
    try:
        parsed = make_url(url)
    except Exception:  # not a URL: the engine will say so, not this
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).resolve()


def _owned_places(instance: Path, config: dict[str, Any], database: Path | None) -> list[Path]:
    places = [instance]
    if database is not None:
        places += [database.with_name(database.name + suffix) for suffix in ("", "-wal", "-shm", "-journal")]
    source = config.get("MAIL_SOURCE") or {}
    if isinstance(source, dict) and source.get("kind") == "maildir" and source.get("path"):
        places.append(Path(source["path"]))
    if config.get("LOCAL_MAILBOX"):
        places.append(Path(config["LOCAL_MAILBOX"]))
    inside = instance.resolve()
    # What lies in the instance folder is walked with it.
    return [p for p in places if p == instance or not p.resolve().is_relative_to(inside)]


def _walk(path: Path) -> Iterator[Path]:
    if not path.exists() or path.is_symlink():
        return
    yield path
    if path.is_dir():
        for folder, dirs, files in os.walk(path):
            for name in dirs + files:
                yield Path(folder) / name


def _close(entry: Path) -> None:
    try:
        info = entry.lstat()
    except FileNotFoundError:
        return  # gone meanwhile (a maildir message moved to cur/)
    if stat.S_ISLNK(info.st_mode) or info.st_uid != os.geteuid() or not info.st_mode & 0o077:
        return
    try:
        os.chmod(entry, stat.S_IMODE(info.st_mode) & ~0o077)
    except (FileNotFoundError, PermissionError):
        pass
