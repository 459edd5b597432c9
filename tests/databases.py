"""The databases of a test, on SQLite or on the session's PostgreSQL server (see ``conftest.py``)."""

from __future__ import annotations

import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any


class Databases:
    """The databases of one test on one backend: ``target(name)`` is an SQLite file in the test's folder, or a
    new PostgreSQL database on the session's server (the same name gives the same database)."""

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

            database = f"test_{os.getpid()}_{uuid.uuid4().hex[:12]}"
            admin = await asyncpg.connect(self.server)
            try:
                await admin.execute(f"CREATE DATABASE {database}")
            finally:
                await admin.close()
            self._made[name] = self.server.replace("/postgres?", f"/{database}?", 1)
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
                database = url.rsplit("/", 1)[1].split("?", 1)[0]
                await admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        finally:
            await admin.close()
