"""How the store reaches SQLite: through aiosqlite (the bot: queries run in a worker thread, the event loop stays
free) or through the standard library's ``sqlite3`` directly (the console: one command, nothing else to serve).

The store is written once, against aiosqlite's async API. :class:`DirectConnection` offers that same API over a
plain ``sqlite3`` connection, answering every call at once; a coroutine that only talks to it never waits, so the
console drives whole commands with :func:`drive`, without an event loop. A console command then starts without
importing asyncio or aiosqlite at all (a third of its start-up), and runs exactly the same SQL as the bot.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

T = TypeVar("T")


class _Cursor:
    """An ``sqlite3`` cursor behind aiosqlite's cursor API."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()


class _Call:
    """What ``execute`` returns: awaitable (the cursor) and an async context manager, as in aiosqlite."""

    def __init__(self, run: Callable[[], sqlite3.Cursor]) -> None:
        self._run = run
        self._cursor: sqlite3.Cursor | None = None

    def __await__(self):  # type: ignore[no-untyped-def]
        return self._open().__await__()

    async def _open(self) -> _Cursor:
        self._cursor = self._run()
        return _Cursor(self._cursor)

    async def __aenter__(self) -> _Cursor:
        return await self._open()

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            self._cursor.close()


class _NoLock(AbstractAsyncContextManager["_NoLock"]):
    """The write lock of a store used by one command at a time: nothing else can interleave."""

    async def __aexit__(self, *exc: object) -> None:
        return None


class DirectConnection:
    """aiosqlite's connection API over a plain ``sqlite3`` connection, for code driven by :func:`drive`."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw
        self.write_lock = _NoLock()

    @classmethod
    def connect(cls, path: str) -> DirectConnection:
        """``path`` is a file name or an SQLite URI (``file:...?mode=ro``), as for aiosqlite's connection."""
        return cls(sqlite3.connect(path, isolation_level=None, uri=True))

    @property
    def row_factory(self) -> Any:
        return self._raw.row_factory

    @row_factory.setter
    def row_factory(self, factory: Any) -> None:
        self._raw.row_factory = factory

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Call:
        return _Call(lambda: self._raw.execute(sql, parameters))

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> _Call:
        return _Call(lambda: self._raw.executemany(sql, parameters))

    async def close(self) -> None:
        self._raw.close()


def drive(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end without an event loop. It must never wait on anything (all its I/O goes
    through a :class:`DirectConnection`); if it does, that is a bug, and it is stopped and reported."""
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return finished.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("a console command waited on an event loop; it must only use a direct connection")
