"""The SQL that differs between SQLite and PostgreSQL, in one place: the store holds one :class:`Dialect` as
``self._sql`` and writes every other statement once, for both (``?`` placeholders; the PostgreSQL connection of
:mod:`data.postgres` turns them into ``$1..$n``).

This module imports neither aiosqlite nor asyncpg: the console's start-up on SQLite must not pay for PostgreSQL.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from data.schema import MIGRATIONS, PG_MIGRATIONS
from data.store.availability import DatabaseUnavailableError

#: the PostgreSQL channel a game's changes are announced on (the payload is the game's id)
CHANGES_CHANNEL = "pbm_game_changed"


@dataclass(frozen=True)
class Dialect:
    """The SQL that differs between SQLite and PostgreSQL; everything else is written once for both."""

    #: ``sqlite`` or ``postgresql``
    name: str
    #: the migrations, one script per schema version (the same tables and columns on both)
    migrations: tuple[str, ...]
    #: starts a write transaction
    begin: str
    #: run once on every new connection
    pragmas: tuple[str, ...]
    #: a row when the ``schema_version`` table exists
    has_schema_version: str
    #: the names of the tables of the database
    table_names: str
    #: appended to an ``INSERT`` whose new ``id`` the caller reads (``cursor.lastrowid``)
    returning_id: str
    #: a finished game's seats at the end, as JSON text, from ``g.snapshot``
    finished_seats: str
    #: a top-level field of ``g.snapshot`` as JSON text (``{key}`` is replaced by the field's name)
    snapshot_field: str
    #: whether game ``g`` was started ``-unrated`` (its rules are kept with its clock): 1 or 'true' when it was
    game_unrated: str
    #: whether a move's events hold a roll
    events_hold_a_roll: str
    #: the new data of a ``game_memory`` chunk that is appended to
    memory_append: str
    #: taken first in the transaction of a migration, so two processes never migrate at once (``None``: the
    #: transaction itself is exclusive)
    migration_lock: str | None
    #: appended to a read in a write transaction that the write depends on (SQLite: the transaction is exclusive)
    for_update: str
    #: sent in the transaction that changes a game (its id as the payload), so every process that shows the game
    #: hears of the commit (PostgreSQL's NOTIFY, delivered when the transaction commits); ``None``: no such channel
    #: (SQLite: watchers poll the games they show, see :meth:`data.store.web.WebStore.game_versions`)
    notify_change: str | None = None
    #: errors of the database itself (anything else is a bug); filled for PostgreSQL when it is opened
    errors: tuple[type[BaseException], ...] = field(default=(sqlite3.Error,))
    #: errors that mean two writers collided (a deadlock, a serialization failure): reported as a stale write
    conflicts: tuple[type[BaseException], ...] = ()

    @property
    def is_sqlite(self) -> bool:
        return self.name == "sqlite"


SQLITE = Dialect(
    name="sqlite",
    migrations=MIGRATIONS,
    begin="BEGIN IMMEDIATE",
    pragmas=("busy_timeout=10000", "journal_mode=WAL", "foreign_keys=ON", "synchronous=FULL"),
    has_schema_version="SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
    table_names="SELECT name FROM sqlite_master WHERE type = 'table'",
    returning_id="",
    finished_seats="json_extract(g.snapshot, '$.players')",
    snapshot_field="json_extract(g.snapshot, '$.{key}')",
    game_unrated="json_extract(g.clock, '$.rules.unrated')",
    events_hold_a_roll="instr(events, '\"roll\"') > 0",
    memory_append="CAST(game_memory.data || excluded.data AS BLOB)",
    migration_lock=None,
    for_update="",
)


def postgresql() -> Dialect:
    """PostgreSQL's dialect; imports asyncpg (only ever called when a PostgreSQL URL is opened)."""
    import asyncpg

    return Dialect(
        name="postgresql",
        migrations=PG_MIGRATIONS,
        begin="BEGIN",
        pragmas=(),
        has_schema_version=(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_name = 'schema_version'"
        ),
        table_names="SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
        returning_id=" RETURNING id",
        finished_seats="(g.snapshot::jsonb -> 'players')::text",
        snapshot_field="(g.snapshot::json -> '{key}')::text",
        game_unrated="(g.clock::json -> 'rules' ->> 'unrated')",
        events_hold_a_roll="strpos(events, '\"roll\"') > 0",
        memory_append="game_memory.data || excluded.data",
        # any constant will do, as long as every pbm uses the same one: 'pbm' in ASCII
        migration_lock="SELECT pg_advisory_xact_lock(7365229)",
        for_update=" FOR UPDATE",
        notify_change=f"SELECT pg_notify('{CHANGES_CHANNEL}', ?)",
        errors=(
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            asyncpg.InternalClientError,
            OSError,
            DatabaseUnavailableError,
        ),
        conflicts=(asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError),
    )
