"""How the store reaches PostgreSQL: an asyncpg connection behind the small part of aiosqlite's API the store
uses (:mod:`data.connection` does the same for the standard library's ``sqlite3``).

``execute(sql, params)`` is awaitable (giving a cursor) and an async context manager; the cursor has
``fetchone``, ``fetchall``, ``rowcount`` and ``lastrowid`` (the first column of the first row an
``INSERT ... RETURNING id`` gives back). ``?`` placeholders become ``$1..$n``. Rows are read whole when the
statement runs, so a cursor never holds the connection. Calls are serialised: asyncpg refuses two operations at
once on one connection, and aiosqlite's worker thread serialises them the same way.

Imported only when a PostgreSQL URL is opened: the console on SQLite never loads asyncpg.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import asyncpg

from data.store.core import FetchedRows as Cursor


class _Call:
    """What ``execute`` returns: awaitable (the cursor) and an async context manager, as in aiosqlite."""

    def __init__(self, connection: PostgresConnection, sql: str, parameters: Sequence[Any], many: bool) -> None:
        self._connection = connection
        self._sql = sql
        self._parameters = parameters
        self._many = many

    def __await__(self):  # type: ignore[no-untyped-def]
        return self._connection._run(self._sql, self._parameters, self._many).__await__()

    async def __aenter__(self) -> Cursor:
        return await self._connection._run(self._sql, self._parameters, self._many)

    async def __aexit__(self, *exc: object) -> None:
        return None


class PostgresConnection:
    """aiosqlite's connection API, as far as the store uses it, over one asyncpg connection."""

    #: set by the store for SQLite; rows here are asyncpg records, read by index like ``sqlite3.Row``
    row_factory: Any = None

    def __init__(self, raw: asyncpg.Connection) -> None:
        self._raw = raw
        self._lock = asyncio.Lock()
        self._translated: dict[str, tuple[str, bool, bool]] = {}

    @classmethod
    async def connect(cls, url: str) -> PostgresConnection:
        return cls(await asyncpg.connect(url))

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Call:
        return _Call(self, sql, parameters, many=False)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> _Call:
        return _Call(self, sql, list(parameters), many=True)

    async def close(self) -> None:
        await self._raw.close()

    def _translate(self, sql: str) -> tuple[str, bool, bool]:
        """``sql`` with ``$n`` placeholders, whether it gives rows back, and whether it returns a new id."""
        known = self._translated.get(sql)
        if known is None:
            text = to_numbered(sql)
            head = text.lstrip().split(None, 1)[0].upper() if text.strip() else ""
            returning = " RETURNING " in text.upper()
            known = (text, head in ("SELECT", "WITH", "VALUES", "SHOW") or returning, returning)
            self._translated[sql] = known
        return known

    async def _run(self, sql: str, parameters: Sequence[Any], many: bool) -> Cursor:
        text, gives_rows, returning = self._translate(sql)
        async with self._lock:
            if many:
                rows = list(parameters)
                if rows:
                    await self._raw.executemany(text, rows)
                return Cursor([], len(rows), None)
            if gives_rows:
                records = await self._raw.fetch(text, *parameters)
                lastrowid = int(records[0][0]) if returning and records else None
                return Cursor(records, len(records), lastrowid)
            status = await self._raw.execute(text, *parameters)
        last = status.rsplit(" ", 1)[-1] if status else ""
        return Cursor([], int(last) if last.isdigit() else -1, None)


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
