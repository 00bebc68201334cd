"""`pbm db backup`, run as the operator runs it: the copy holds what the
database held, on SQLite (online backup API) and PostgreSQL (pg_dump, restored
with pg_restore into a fresh database)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, text

from pbm.migrate import upgrade

from tests.support.helpers import make_game

ROOT = Path(__file__).resolve().parents[3]
ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino"}
COUNTED = ("users", "seats", "phases", "outbox", "alembic_version")


def counts(url: str) -> dict[str, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {table: conn.scalar(text(f"SELECT count(*) FROM {table}")) for table in COUNTED}
    finally:
        engine.dispose()


def pbm_backup(database_url: str, instance: Path, target: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PBM_INSTANCE": str(instance), "PBM_DATABASE_URL": database_url}
    return subprocess.run([sys.executable, "-m", "pbm.cli", "db", "backup", str(target)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_sqlite_backup_while_the_database_is_open(make_app, clock, tmp_path):
    # SQLite's own backup, whatever engine the rest of the suite runs on.
    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'instance' / 'backed-up.sqlite3'}")
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    url = app.config["DATABASE_URL"]
    target = tmp_path / "backups" / "pbm-copy.sqlite3"
    with factory() as session:  # a reader holds the database open meanwhile
        session.execute(text("SELECT count(*) FROM users")).scalar()
        done = pbm_backup(url, tmp_path / "instance", target)
    assert done.returncode == 0, done.stderr
    before = counts(url)
    assert before["seats"] == len(ROLES) and before["outbox"] > 0
    assert counts(f"sqlite:///{target}") == before
    assert not target.with_name(target.name + ".partial").exists()


def test_sqlite_backup_of_a_missing_database_fails_in_words(tmp_path):
    done = pbm_backup(f"sqlite:///{tmp_path / 'nothing.sqlite3'}", tmp_path, tmp_path / "copy.sqlite3")
    assert done.returncode == 1
    assert "backup failed: no SQLite database at" in done.stderr
    assert not (tmp_path / "copy.sqlite3").exists()


def test_postgresql_backup_restores_into_a_new_database(postgres, tmp_path, clock):
    from pbm.app import create_app
    url = postgres.create_database()
    upgrade(url)
    app = create_app({"DATABASE_URL": url, "TESTING": True}, instance=tmp_path, clock=clock)
    make_game(app.extensions["pbm_sessions"], app.config, clock.now(), ROLES, mayor="Bruno")
    app.extensions["pbm_engine"].dispose()
    target = tmp_path / "pbm.dump"
    done = pbm_backup(url, tmp_path, target)
    assert done.returncode == 0, done.stderr

    restored = postgres.create_database()
    plain = restored.replace("postgresql+psycopg://", "postgresql://")
    result = subprocess.run(["pg_restore", "--no-owner", f"--dbname={plain}", str(target)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert counts(restored) == counts(url)
    assert counts(restored)["seats"] == len(ROLES)
