"""The databases of a test, on SQLite or on the session's PostgreSQL server (see ``conftest.py``)."""

from __future__ import annotations

import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any


class Databases:
    """The databases of one test on one backend: ``target(name)`` is an SQLite file in the test's folder, or a
    new schema of the PostgreSQL server's database (the same name gives the same database)."""

    def __init__(self, backend: str, folder: Path, server: str | None) -> None:
        self.backend = backend
        self.folder = folder
        self.server = server
        self._made: dict[str, str] = {}

    @property
    def postgresql(self) -> bool:
        return self.backend == "postgresql"

    async def target(self, name: str = "pbm.sqlite3") -> str | Path:
        if not self.postgresql:
            return self.folder / name
        if name not in self._made:
            import asyncpg

            # a schema of its own on the session's database: as separate as a database, and made in a millisecond
            schema = f"test_{os.getpid()}_{uuid.uuid4().hex[:12]}"
            admin = await asyncpg.connect(self.server)
            try:
                await admin.execute(f"CREATE SCHEMA {schema}")
            finally:
                await admin.close()
            self._made[name] = f"{self.server}&search_path={schema}"
        return self._made[name]

    async def execute(self, target: str | Path, sql: str, *params: Any) -> list[Any]:
        """Run one statement on a database behind the store's back (``?`` placeholders); its rows."""
        if not self.postgresql:
            with sqlite3.connect(target) as raw:
                return raw.execute(sql, params).fetchall()
        import asyncpg

        from data.postgres import to_numbered

        raw = await asyncpg.connect(str(target))
        try:
            return list(await raw.fetch(to_numbered(sql), *params))
        finally:
            await raw.close()

    async def drop_all(self) -> None:
        if not self._made:
            return
        import asyncpg

        admin = await asyncpg.connect(self.server)
        try:
            for url in self._made.values():
                await admin.execute(f"DROP SCHEMA IF EXISTS {url.rsplit('=', 1)[1]} CASCADE")
        finally:
            await admin.close()
