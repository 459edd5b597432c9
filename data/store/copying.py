"""Copying a whole database (``pbm db copy``): pbm's tables and their columns, their rows read in batches in
primary-key order, and the copy itself, one transaction on the target read from one consistent state of the source."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from data.store.core import COPIED_TABLES, COPY_BATCH, TEXT_IDS, CoreStore, DatabaseUnusableError, StoreError


class CopyStore(CoreStore):
    """A whole database, table by table, for copying (see the module docstring)."""

    @staticmethod
    def table_names() -> tuple[str, ...]:
        """pbm's data tables, parents before the tables that point to them (``schema_version`` is not data: a
        copy's target is migrated to the same version instead)."""
        return tuple(COPIED_TABLES)

    async def column_names(self, table: str) -> list[str]:
        """The columns of one of pbm's tables, in their order in this database."""
        if table not in COPIED_TABLES:
            raise StoreError(f"{table} is not one of pbm's tables")
        if self._sql.is_sqlite:
            async with self._db.execute(f'PRAGMA table_info("{table}")') as cursor:
                return [str(r[1]) for r in await cursor.fetchall()]
        async with self._db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ? ORDER BY ordinal_position",
            (table,),
        ) as cursor:
            return [str(r[0]) for r in await cursor.fetchall()]

    async def row_count(self, table: str) -> int:
        if table not in COPIED_TABLES:
            raise StoreError(f"{table} is not one of pbm's tables")
        async with self._db.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def read_rows(
        self, table: str, columns: Sequence[str], batch: int = COPY_BATCH
    ) -> AsyncIterator[list[tuple[Any, ...]]]:
        """The rows of ``table`` (these ``columns``, in primary-key order), ``batch`` rows at a time, exactly as
        stored (blobs as bytes, JSON as its text)."""
        if table not in COPIED_TABLES:
            raise StoreError(f"{table} is not one of pbm's tables")
        listed = ", ".join(columns)
        offset = 0
        while True:
            async with self._db.execute(
                f"SELECT {listed} FROM {table} ORDER BY {COPIED_TABLES[table]} LIMIT ? OFFSET ?", (batch, offset)
            ) as cursor:
                rows = [tuple(r) for r in await cursor.fetchall()]
            if rows:
                yield rows
            if len(rows) < batch:
                return
            offset += len(rows)

    async def is_empty(self) -> bool:
        """Whether no table of pbm's holds a row (a new file or database)."""
        for table in COPIED_TABLES:
            async with self._db.execute(f"SELECT 1 FROM {table} LIMIT 1") as cursor:
                if await cursor.fetchone() is not None:
                    return False
        return True

    async def copy_into(self, target: CopyStore, batch: int = COPY_BATCH) -> list[tuple[str, int, int]]:
        """Copy every row of this database into ``target``, which must be empty of pbm's rows and at the same
        schema version: one transaction on the target (an interrupted copy leaves it as empty as it was), read
        from one consistent state of this database. Ids are copied as they are; on PostgreSQL every identity
        sequence is then moved past the largest id. Each table's row count, here and there: ``(table, here,
        there)``; the counts must agree or nothing is written."""
        if await self.schema_version() != await target.schema_version():
            raise StoreError(
                f"{target.path} is at schema version {await target.schema_version()}, {self.path} at"
                f" {await self.schema_version()}"
            )
        if not await target.is_empty():
            raise StoreError(f"{target.path} already holds pbm data; copy into a new file or an empty database")
        counts: list[tuple[str, int, int]] = []
        async with self._read_snapshot(), target.transaction() as db:
            for table in COPIED_TABLES:
                columns = await target.column_names(table)
                mine = await self.column_names(table)
                if sorted(columns) != sorted(mine):
                    raise StoreError(f"the table {table} has other columns in {target.path} than in {self.path}")
                insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
                async for rows in self._rows_to_copy(table, columns, batch):
                    await db.executemany(insert, rows)
                here, there = await self.row_count(table), await target.row_count(table)
                if here != there:
                    raise StoreError(f"{table}: rows read {here}, rows written {there}; nothing was copied")
                counts.append((table, here, there))
            if not target._sql.is_sqlite:
                for table in COPIED_TABLES:
                    if COPIED_TABLES[table] == "id" and table not in TEXT_IDS:
                        await db.execute(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), MAX(id)) FROM {table}"
                            " HAVING MAX(id) IS NOT NULL"
                        )
        return counts

    async def _rows_to_copy(
        self, table: str, columns: Sequence[str], batch: int
    ) -> AsyncIterator[list[tuple[Any, ...]]]:
        """:meth:`read_rows` for a copy: a failure to read is this database's problem, and says so (naming this
        file, and for a damaged one where it is damaged), so the target is not blamed for it."""
        try:
            async for rows in self.read_rows(table, columns, batch):
                yield rows
        except (OSError, *self.database_errors) as exc:
            raise DatabaseUnusableError(f"{self.path}: {await self._read_failure(exc)}; nothing was copied") from exc

    @asynccontextmanager
    async def _read_snapshot(self) -> AsyncIterator[None]:
        """A read transaction: every read in it sees one committed state of the database."""
        async with self._holding():
            await self._conn.execute(
                "BEGIN" if self._sql.is_sqlite else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
            )
            try:
                yield
            finally:
                await self._conn.execute("ROLLBACK")
