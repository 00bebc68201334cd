"""The migrations build exactly the schema the models describe, and unwind.

Run on SQLite here and on PostgreSQL by tests/service/infrastructure/test_postgres.py: a
model changed without its migration, or a migration that only one engine
accepts, fails here before it reaches a real database."""
from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from pbm.db import make_engine
from pbm.migrate import alembic_config, upgrade
from pbm.models import Base


def schema_differences(url: str) -> list:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    finally:
        engine.dispose()


def tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_the_migrations_build_the_models_schema_and_unwind(database_url):
    upgrade(database_url)
    assert schema_differences(database_url) == []
    assert tables(database_url) == set(Base.metadata.tables)

    command.downgrade(alembic_config(database_url), "base")
    assert tables(database_url) == set()
    upgrade(database_url)
    assert schema_differences(database_url) == []


def test_masters_of_existing_games_get_a_reply_token_each(database_url):
    """Games running when the Masters' tokens came in: each Master gets their own."""
    from sqlalchemy import text
    command.upgrade(alembic_config(database_url), "c36f18d6b636")
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            for n in (1, 2):
                conn.execute(text("INSERT INTO users (id, email, name, password_hash, lang, is_admin, reminders,"
                                  " address_failing) VALUES (:n, :e, 'M', '', 'it', true, true, false)"),
                             {"n": n, "e": f"m{n}@example.org"})
                conn.execute(text("INSERT INTO games (id, slug, name, ruleset, status, seed, schedule,"
                                  " auto_publish, composition, created_at, review_contradictions)"
                                  " VALUES (:n, :s, 'G', 'lupus-live-12', 'running', 'x', '{}', true, '{}',"
                                  " '2026-11-23 09:00:00', false)"), {"n": n, "s": f"g{n}"})
                conn.execute(text("INSERT INTO game_masters (game_id, user_id) VALUES (:n, :n)"), {"n": n})
        upgrade(database_url)
        with engine.connect() as conn:
            tokens = [t for (t,) in conn.execute(text("SELECT token FROM game_masters"))]
    finally:
        engine.dispose()
    assert len(tokens) == 2 and all(len(t) >= 16 for t in tokens) and tokens[0] != tokens[1]
