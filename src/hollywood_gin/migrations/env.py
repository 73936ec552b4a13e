"""Alembic's environment: runs the migrations on the connection that
:mod:`hollywood_gin.migrate` hands over (online), or prints their SQL (offline, ``--sql``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import MetaData

from hollywood_gin.schema import VERSION_TABLE, metadata


def _target() -> MetaData:
    # A test may pass other tables, to see what autogenerate makes of a change.
    target = context.config.attributes.get("metadata", metadata)
    assert isinstance(target, MetaData)
    return target


def run_offline() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=_target(), literal_binds=True,
                      version_table=VERSION_TABLE, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run the migrations with `hollywood-gin db upgrade`")
    context.configure(
        connection=connection,
        target_metadata=_target(),
        version_table=VERSION_TABLE,
        # SQLite alters a table by copying it: let autogenerate write batch operations.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
