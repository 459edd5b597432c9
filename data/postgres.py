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

A server that cannot be used (stopped, restarting, unreachable, hung) is reported as
:class:`data.store.availability.DatabaseUnavailableError`, never as a wait without end: every statement, and every
wait for a connection, is bounded by the pool's ``timeout``; a connection that did not answer in time is closed
(it may be stuck halfway through a statement), and the pool opens a new one when the server is back.

Imported only when a PostgreSQL URL is opened: the console on SQLite never loads asyncpg.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import asyncpg

from data.store.availability import DEFAULT_TIMEOUT, DatabaseUnavailableError
from data.store.core import FetchedRows as Cursor

#: connections per process: enough that reads go on while a commit
#: is flushed, few enough that many processes fit PostgreSQL's default limit of 100 connections
DEFAULT_POOL_SIZE = 4
#: seconds the client waits beyond the server's own statement timeout before it gives a statement up: a server
#: that is alive cancels a statement itself (and keeps the connection); only a hung one is left to the client
CLIENT_MARGIN = 0.5


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

    def __init__(self, raw: asyncpg.Pool, url: str = "", timeout: float = DEFAULT_TIMEOUT) -> None:
        self._raw = raw
        #: the server's URL, for a connection of its own outside the pool (:meth:`listener`)
        self._url = url
        #: the most a statement, or the wait for a connection, may take (seconds)
        self.timeout = timeout
        #: told the kind of every failure of the database ("unavailable", "timeout" or "error"), for the metrics
        self.on_error: Callable[[str], None] = _ignore
        #: the connection the current task holds for a transaction, with that task: a task created inside the
        #: transaction inherits the variable but not the connection (asyncpg refuses two operations at once)
        self._bound: ContextVar[tuple[asyncio.Task[Any] | None, asyncpg.Connection] | None] = ContextVar(
            "pbm_bound_connection", default=None
        )

    @classmethod
    async def connect(cls, url: str, size: int = DEFAULT_POOL_SIZE, timeout: float = DEFAULT_TIMEOUT) -> PostgresPool:
        """The pool, with one connection opened now (so a wrong URL or a server that is down fails here) and up
        to ``size`` opened as they are needed. The server cancels any statement that runs longer than ``timeout``
        seconds (its ``statement_timeout``: a lock held too long by another process); opening a connection is
        given up after as long."""
        raw = await asyncpg.create_pool(
            url,
            min_size=0,  # no floor kept by asyncpg in the background: it would log a traceback a second in an outage
            max_size=max(1, size),
            reset=_keep_session,
            timeout=timeout,
            server_settings={"statement_timeout": str(int(timeout * 1000))},
        )
        try:
            async with raw.acquire(timeout=timeout):  # the first connection, now: a wrong URL or a server down
                pass  # fails here, with the driver's own error (see data.store.describe_database_error)
        except BaseException:
            raw.terminate()
            raise
        return cls(raw, url, timeout)

    async def listener(self) -> asyncpg.Connection:
        """A connection of its own, outside the pool, for LISTEN: it stays with its listener for good, so it must
        not take one of the pool's few connections; the caller closes it. Opening it is given up after the
        pool's timeout, as a connection of the pool is."""
        return await asyncpg.connect(self._url, timeout=self.timeout)

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Call:
        return _Call(self, sql, parameters, many=False)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> _Call:
        return _Call(self, sql, list(parameters), many=True)

    async def close(self) -> None:
        """Close every connection; a server that does not answer is not waited for (its connections are cut)."""
        try:
            async with asyncio.timeout(self.timeout):
                await self._raw.close()
        except (TimeoutError, *_CONNECTION_ERRORS):
            self._raw.terminate()

    @asynccontextmanager
    async def bound(self) -> AsyncIterator[None]:
        """One connection for the current task until the block ends: its transaction's statements, and its reads
        in between, all go there. Other tasks keep using the rest of the pool."""
        async with self._acquired() as connection:
            token = self._bound.set((asyncio.current_task(), connection))
            try:
                yield
            finally:
                self._bound.reset(token)

    @asynccontextmanager
    async def _acquired(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool, waited for at most ``timeout`` seconds; a server that cannot be reached is
        :class:`DatabaseUnavailableError`."""
        holder = self._raw.acquire(timeout=self.timeout)
        try:
            connection = await holder.__aenter__()
        except BaseException as exc:
            failure = self._failure(exc, "getting a connection")
            if failure is exc:
                raise
            raise failure from exc
        try:
            yield connection
        except BaseException as exc:
            await holder.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        await holder.__aexit__(None, None, None)

    async def _run(self, sql: str, parameters: Sequence[Any], many: bool) -> Cursor:
        bound = self._bound.get()
        if bound is not None and bound[0] is asyncio.current_task():
            return await self._run_bounded(bound[1], sql, parameters, many)
        async with self._acquired() as connection:
            return await self._run_bounded(connection, sql, parameters, many)

    async def _run_bounded(
        self, connection: asyncpg.Connection, sql: str, parameters: Sequence[Any], many: bool
    ) -> Cursor:
        """One statement, given up after the timeout (and a margin for the server's own): a connection that did
        not answer is closed, since it may be stuck halfway through. A ``COMMIT`` that fails this way may have been
        carried out (``outcome_unknown``)."""
        try:
            async with asyncio.timeout(self.timeout + CLIENT_MARGIN):
                return await _run_on(connection, sql, parameters, many)
        except BaseException as exc:
            if isinstance(exc, TimeoutError | asyncpg.InternalClientError):
                connection.terminate()  # it may be stuck halfway through, or out of step with the server
            failure = self._failure(exc, "the statement", committing=sql.strip().upper() == "COMMIT")
            if failure is exc:
                raise
            raise failure from exc

    def _failure(self, exc: BaseException, what: str, *, committing: bool = False) -> BaseException:
        """``exc`` as the store reports it: :class:`DatabaseUnavailableError` when the server cannot be used, or
        ``exc`` itself (a refused statement, a conflict, a bug); every failure of the database is told to
        :attr:`on_error`."""
        reason = unavailable_reason(exc, what, self.timeout)
        if reason is None:
            if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
                self.on_error("error")
            return exc
        self.on_error("timeout" if isinstance(exc, TimeoutError | QueryCanceledError) else "unavailable")
        return DatabaseUnavailableError(reason, outcome_unknown=committing)


def _ignore(kind: str) -> None:
    """The default :attr:`PostgresPool.on_error`: nobody counts."""


QueryCanceledError = asyncpg.exceptions.QueryCanceledError
#: errors that mean the server cannot be used now (stopped, restarting, unreachable, out of connections; a
#: statement it cancelled for the timeout); any other error is about the statement
_SERVER_ERRORS = (
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
)
_CONNECTION_ERRORS = (
    OSError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)


def unavailable_reason(exc: BaseException, what: str, timeout: float) -> str | None:
    """Why the server cannot be used, in a few words, when ``exc`` says so; ``None`` for any other error.
    ``what`` is what was waited for ("the statement", "a connection")."""
    if isinstance(exc, TimeoutError | QueryCanceledError):
        return f"{what} took more than {timeout:g} second{'' if timeout == 1 else 's'}"
    if isinstance(exc, _SERVER_ERRORS):
        return f"the server said: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    if isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc):
        return "the connection to the server was lost"
    if isinstance(exc, asyncpg.InternalClientError):  # a connection the server ended while it was idle in the pool
        return f"the connection to the server broke off ({exc})"
    if isinstance(exc, OSError):
        return f"the server cannot be reached: {exc.strerror or exc}"
    return None


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
