"""The migrations build exactly the schema the models describe, and unwind.

Run on SQLite here and on PostgreSQL by tests/service/test_postgres.py: a
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
