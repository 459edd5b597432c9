"""How the store reaches PostgreSQL: a small pool of asyncpg connections behind the part of aiosqlite's API the
store uses (:mod:`data.connection` does the same for the standard library's ``sqlite3``).

``execute(sql, params)`` is awaitable (giving a cursor) and an async context manager; the cursor has
``fetchone``, ``fetchall``, ``rowcount`` and ``lastrowid`` (the first column of the first row an
``INSERT ... RETURNING id`` gives back). ``?`` placeholders become ``$1..$n``. Rows are read whole when the
statement runs, so a cursor never holds a connection.

Why a pool: one connection serialises a process's statements, so every coroutine would wait while one move's
commit is flushed to disk. With a few connections, a transaction holds one of them (:meth:`PostgresPool.bound`:
the statements of the task that opened it go there) while the other coroutines' reads and writes take any other.
Transactions of one process then meet each other exactly as transactions of two processes do, through PostgreSQL's
row locks, which the store's guarded writes already rely on.

Imported only when a PostgreSQL URL is opened: the console on SQLite never loads asyncpg.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import asyncpg

from data.store.core import FetchedRows as Cursor

#: connections per process: enough that reads go on while a commit
#: is flushed, few enough that many processes fit PostgreSQL's default limit of 100 connections
DEFAULT_POOL_SIZE = 4


class _Call:
    """What ``execute`` returns: awaitable (the cursor) and an async context manager, as in aiosqlite."""

    def __init__(self, pool: PostgresPool, sql: str, parameters: Sequence[Any], many: bool) -> None:
        self._pool = pool
        self._sql = sql
        self._parameters = parameters
        self._many = many

    def __await__(self):  # type: ignore[no-untyped-def]
        return self._pool._run(self._sql, self._parameters, self._many).__await__()

    async def __aenter__(self) -> Cursor:
        return await self._pool._run(self._sql, self._parameters, self._many)

    async def __aexit__(self, *exc: object) -> None:
        return None


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool: nothing beyond asyncpg's own rollback of a
    transaction left open. The store sets no session state, listens on none of them (LISTEN has a connection of
    its own, :meth:`PostgresPool.listener`) and takes advisory locks only inside transactions, so asyncpg's
    default reset (``RESET ALL`` and more) would be a wasted round trip on every statement."""


class PostgresPool:
    """aiosqlite's connection API, as far as the store uses it, over a pool of asyncpg connections."""

    #: set by the store for SQLite; rows here are asyncpg records, read by index like ``sqlite3.Row``
    row_factory: Any = None

    def __init__(self, raw: asyncpg.Pool, url: str = "") -> None:
        self._raw = raw
        #: the server's URL, for a connection of its own outside the pool (:meth:`listener`)
        self._url = url
        #: the connection the current task holds for a transaction, with that task: a task created inside the
        #: transaction inherits the variable but not the connection (asyncpg refuses two operations at once)
        self._bound: ContextVar[tuple[asyncio.Task[Any] | None, asyncpg.Connection] | None] = ContextVar(
            "pbm_bound_connection", default=None
        )

    @classmethod
    async def connect(cls, url: str, size: int = DEFAULT_POOL_SIZE) -> PostgresPool:
        """The pool, with one connection opened now (so a wrong URL or a server that is down fails here) and up
        to ``size`` opened as they are needed."""
        raw = await asyncpg.create_pool(url, min_size=1, max_size=max(1, size), reset=_keep_session)
        return cls(raw, url)

    async def listener(self) -> asyncpg.Connection:
        """A connection of its own, outside the pool, for LISTEN: it stays with its listener for good, so it must
        not take one of the pool's few connections; the caller closes it."""
        return await asyncpg.connect(self._url)

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Call:
        return _Call(self, sql, parameters, many=False)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> _Call:
        return _Call(self, sql, list(parameters), many=True)

    async def close(self) -> None:
        await self._raw.close()

    @asynccontextmanager
    async def bound(self) -> AsyncIterator[None]:
        """One connection for the current task until the block ends: its transaction's statements, and its reads
        in between, all go there. Other tasks keep using the rest of the pool."""
        async with self._raw.acquire() as connection:
            token = self._bound.set((asyncio.current_task(), connection))
            try:
                yield
            finally:
                self._bound.reset(token)

    async def _run(self, sql: str, parameters: Sequence[Any], many: bool) -> Cursor:
        bound = self._bound.get()
        if bound is not None and bound[0] is asyncio.current_task():
            return await _run_on(bound[1], sql, parameters, many)
        async with self._raw.acquire() as connection:
            return await _run_on(connection, sql, parameters, many)


async def _run_on(connection: asyncpg.Connection, sql: str, parameters: Sequence[Any], many: bool) -> Cursor:
    text, gives_rows, returning = translate(sql)
    if many:
        rows = list(parameters)
        if rows:
            await connection.executemany(text, rows)
        return Cursor([], len(rows), None)
    if gives_rows:
        records = await connection.fetch(text, *parameters)
        lastrowid = int(records[0][0]) if returning and records else None
        return Cursor(records, len(records), lastrowid)
    status = await connection.execute(text, *parameters)
    last = status.rsplit(" ", 1)[-1] if status else ""
    return Cursor([], int(last) if last.isdigit() else -1, None)


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> tuple[str, bool, bool]:
    """``sql`` with ``$n`` placeholders, whether it gives rows back, and whether it returns a new id."""
    text = to_numbered(sql)
    head = text.lstrip().split(None, 1)[0].upper() if text.strip() else ""
    returning = " RETURNING " in text.upper()
    return text, head in ("SELECT", "WITH", "VALUES", "SHOW") or returning, returning


def to_numbered(sql: str) -> str:
    """``?`` placeholders as ``$1..$n``, leaving quoted text (``'...'``, ``"..."``) alone."""
    if "?" not in sql:
        return sql
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)
