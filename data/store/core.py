"""The core of the store: the connection, its transactions, migrations and the schema's checks, backups, and what
the other parts share (the errors, rows' JSON, the writes of clocks and timers that games and correspondence both make).

One :class:`Store` wraps one connection: SQLite through aiosqlite's, or a direct one for the console
(:mod:`data.connection`), in WAL mode with foreign keys on; or PostgreSQL through a small pool of asyncpg
connections (:mod:`data.postgres`).
The SQL that differs between the two is in :mod:`data.store.dialect` (``self._sql``); every other statement is
written once. On SQLite, writes run in transactions serialised by a lock, so two coroutines never share a
transaction, and they are ``BEGIN IMMEDIATE``, so two processes never interleave one; a read waits while another
coroutine's transaction is open on the shared connection: it would see that transaction half done. On PostgreSQL
(READ COMMITTED) a transaction holds a connection of the pool to itself and reads take another, so they see only
what is committed. Every guarded write is an ``UPDATE ... WHERE log_length = ?`` or a ``DELETE ... WHERE id = ?``
whose row count is checked, and a row lock makes the second of two writers, of one process or of two, re-read the
row, find it changed, and write nothing.

The tables themselves are read and written by the classes built on :class:`CoreStore`, one module each:
:mod:`data.store.games` (games, the move log, memories), :mod:`data.store.challenges`, :mod:`data.store.players`
(players and their settings), :mod:`data.store.meta` (the database's notes: unposted boards, claims of jobs) and
:mod:`data.store.copying` (``pbm db copy``), beside the others :mod:`data.store` lists.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Self

from data.connection import DirectConnection
from data.store import upkeep
from data.store.availability import DEFAULT_TIMEOUT, DatabaseUnavailableError
from data.store.dialect import SQLITE, Dialect
from data.store.unit import Units, current_owner

if TYPE_CHECKING:
    import aiosqlite

    from data.postgres import PostgresPool

    Connection = aiosqlite.Connection | DirectConnection | PostgresPool

#: the largest game number SQLite can hold
MAX_GAME_ID = 2**63 - 1
#: the meta rows ``unposted:<game>`` mark boards still to be posted; every such key sorts below ``UNPOSTED_END``
UNPOSTED_PREFIX = "unposted:"
UNPOSTED_END = "unposted;"


#: pbm's data tables, parents first, each with the columns of its primary key (the order rows are copied in)
COPIED_TABLES = {
    "players": "id",
    "matches": "id",
    "games": "id",
    "match_games": "match_id, number",
    "game_players": "game_id, seat",
    "moves": "game_id, seq",
    "challenges": "id",
    "settings": "player_id, key",
    "meta": "key",
    "game_memory": "game_id, chunk",
    "timers": "id",
    "vacations": "player_id",
    "proposals": "id",
    "queued_lines": "id",
    "ratings": "player_id, game_type",
    "rating_variants": "player_id, game_type, variant",
    "rating_changes": "game_id, player_id",
    "guild_players": "guild_id, player_id",
    "guild_settings": "guild_id",
    "audit_log": "id",
    "web_sessions": "id",
    "web_links": "id",
    "tournaments": "id",
    "tournament_games": "game_id",
}
#: the tables whose ``id`` is text (a name, a token's hash), not a number from a sequence
TEXT_IDS = ("players", "web_sessions", "web_links")
#: rows read at a time when a database is copied
COPY_BATCH = 500


class StoreError(Exception):
    """Base of the errors the store reports to the actions layer."""


class NotFoundError(StoreError):
    """No such game or challenge."""


class DamagedRowError(StoreError):
    """A row cannot be read (bad JSON, missing fields); only that game or challenge is affected."""


#: how long a write waits for another process's write transaction to end
BUSY_SECONDS = 10.0


class ClockWrite(NamedTuple):
    """A game's clock as a write leaves it: its JSON (``None``: untimed, as games from before clocks), the deadline of
    the player to move (``None``: no clock running), and when its clock timer next fires (the next warning, the timeout,
    or an untimed game's reminder; ``None``: never, the game is over).

    ``claim`` is the id of the clock timer the writer read (``GameRow.timer_id``): the write happens only if that timer
    is still there, and removes it. Every clock write replaces the timer (under a new id: timer ids are never
    reused, see :func:`insert_timer`), so a claim is a version check: of two processes acting on the same due timer,
    or a sweep racing a vacation switch, one writes and the other gets :class:`StaleWriteError`. ``None`` (a move,
    guarded by the log length instead) replaces whatever timer the game has."""

    clock: dict[str, Any] | None
    deadline: float | None
    timer_at: float | None
    claim: int | None = None


class StaleWriteError(StoreError):
    """Someone else changed the game between our read and our write; nothing was written."""


class DatabaseUnusableError(StoreError):
    """The database file cannot be used at all (not SQLite, damaged, from a newer pbm, unreadable, a table
    missing); the message names the file and says what is wrong, in one line."""


class OutOfDateError(DatabaseUnusableError):
    """A database from an older pbm, opened read-only: it would have to be brought up to date to be used."""


#: tables every migrated database has; a missing one means the file was damaged or edited by hand
REQUIRED_TABLES = (
    "players",
    "games",
    "game_players",
    "moves",
    "challenges",
    "settings",
    "meta",
    "schema_version",
    "game_memory",
    "timers",
    "vacations",
    "proposals",
    "queued_lines",
    "ratings",
    "rating_variants",
    "rating_changes",
    "guild_players",
    "guild_settings",
    "audit_log",
    "web_sessions",
    "web_links",
    "matches",
    "match_games",
    "tournaments",
    "tournament_games",
)


def describe_database_error(exc: BaseException, where: str | None = None) -> str:
    """One line for an environment error of the database (disk full, unreadable, damaged), for people. Given the
    SQLite file ``where``, a refused write says whether the file or its folder is read-only."""
    if isinstance(exc, DatabaseUnavailableError):
        return f"{exc}; try again in a minute"
    text = str(exc).strip() or type(exc).__name__
    lowered = text.lower()
    if where is not None and ("readonly" in lowered or "read-only" in lowered):
        reason = upkeep.read_only_reason(where)
        if reason is not None:
            return reason
    if "disk is full" in lowered or "disk full" in lowered:
        return "the disk is full (nothing was written; free some space and try again)"
    if "not a database" in lowered:
        return "this file is not a pbm database (not SQLite, or damaged)"
    if "malformed" in lowered:
        return "the database file is damaged (malformed); restore a backup"
    if "unable to open" in lowered:
        return "the database cannot be opened (check that its folder exists and is writable)"
    if "readonly" in lowered or "read-only" in lowered:
        return "the database is read-only (check the file's permissions)"
    if "disk i/o" in lowered or "i/o error" in lowered:
        return "the database could not be written (input/output error: is the disk full or failing?)"
    if "locked" in lowered or "busy" in lowered:
        return "the database is busy (another process holds it); try again"
    # PostgreSQL (asyncpg's errors, and the OSError of a server that cannot be reached)
    if "no space left" in lowered:
        return "the database server's disk is full (nothing was written; free some space and try again)"
    if "password authentication failed" in lowered or "no pg_hba.conf entry" in lowered:
        return "the PostgreSQL server refused the login (check the user and password in the URL)"
    if "does not exist" in lowered and "database" in lowered:
        return "the PostgreSQL database does not exist (create it first, with createdb)"
    if (
        "connect call failed" in lowered
        or "connection refused" in lowered
        or "no such file or directory" in lowered
        or "name or service not known" in lowered
        or "connection was closed" in lowered
        or isinstance(exc, ConnectionError | TimeoutError)
    ):
        return f"the PostgreSQL server cannot be reached (is it running?): {text.splitlines()[0]}"
    return text.splitlines()[0]


def is_postgresql_url(target: str) -> bool:
    """Whether a database target names a PostgreSQL server rather than an SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


def sqlite_file(target: str) -> str:
    """The SQLite file a target names: a path, or ``sqlite:///relative/path``, ``sqlite:////absolute/path``,
    ``sqlite://`` (in memory) as SQLAlchemy writes them."""
    if target.startswith("sqlite://"):
        rest = target[len("sqlite://") :]
        if rest in ("", "/", "/:memory:"):
            return ":memory:"
        return rest[1:] if rest.startswith("/") else rest
    return target


def redacted(url: str) -> str:
    """A PostgreSQL URL fit for messages and logs: the password, if any, replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{place}"


def _loads(raw: str, what: str) -> Any:
    try:
        return json.loads(raw)
    except (TypeError, ValueError) as exc:
        raise DamagedRowError(f"{what} is damaged (unreadable JSON: {exc})") from exc


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class CoreStore(Units):
    """The database's core: the connection, its transactions, migrations, backups. :class:`data.store.Store` adds
    the tables (games, challenges, players, correspondence ...); create it with :meth:`open`, use it as an async
    context manager or call :meth:`close`."""

    def __init__(self, connection: Connection, write_lock: Any, dialect: Dialect = SQLITE) -> None:
        #: the connection itself: for transactions, and for whoever holds the write lock
        self._conn = connection
        #: the connection as reads outside transactions use it (see :class:`_ReadsBetweenTransactions`); the
        #: console's direct connection runs one command at a time and needs no guard, and PostgreSQL's pool gives
        #: such reads a connection of their own
        self._db: Any = (
            _ReadsBetweenTransactions(self)
            if dialect.is_sqlite and not isinstance(connection, DirectConnection)
            else connection
        )
        self._write_lock = write_lock
        #: the task holding the write lock (its reads go straight to the connection)
        self._holder: object = None
        #: the SQL that differs between SQLite and PostgreSQL
        self._sql = dialect
        self.path = ":memory:"
        #: opened for reading only (see :meth:`open`): a write fails, and nothing is migrated
        self.read_only = False
        #: the time rows are stamped with; the actions give the store their one injectable clock
        self.now: Callable[[], float] = time.time
        # Lookups that never change once found, kept for the life of the connection: a player's Discord id is set
        # once and never replaced (see ensure_player), and a Discord thread belongs to one game for good (a game
        # whose thread was deleted gets a new one, with a new id). Misses are not kept: the row may come later.
        self._player_of_discord_id: dict[int, str] = {}
        self._discord_id_of_player: dict[str, int] = {}
        self._game_of_thread: dict[int, int] = {}
        #: the open commands' units (see :meth:`atomic`), by whose they are (:func:`data.store.unit.current_owner`)
        self._units = {}

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        backup_before_migrating: bool = True,
        direct: bool = False,
        read_only: bool = False,
        create: bool = True,
        migrate: bool = True,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Self:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        ``path`` is an SQLite file (a path, or ``sqlite:///path``) or a PostgreSQL server
        (``postgresql://user:password@host/db``, or ``postgresql://user@/db?host=/socket/dir``): then the
        connection is asyncpg's (``direct`` does not apply), the schema is PostgreSQL's own DDL of the same
        migrations, and no copy is taken before migrating (backups there are pg_dump's job).

        By default the connection is aiosqlite's (queries in a worker thread; for the bot). ``direct`` uses the
        standard library's ``sqlite3`` in this thread instead, for the console: every call then answers at once
        and commands run under :func:`data.connection.drive`, without an event loop (see
        :mod:`data.connection`).

        A database that is behind takes a consistent copy of itself first (``<name>.before-v<N>.sqlite3``
        beside it), so a migration can always be undone. Any problem with the file itself (not SQLite, damaged,
        newer than this program, unreadable, a table missing) raises :class:`DatabaseUnusableError` with one
        line naming the file; the connection is closed first, so the process can exit at once.

        ``read_only`` opens an SQLite file for reading only (a file or folder this process may not write: the
        commands that only look still work); without it, a file that is not writable is refused at once. Without
        ``create`` the database must be there already (``pbm check``, ``backup``, the source of ``db copy``): a
        missing or empty file, or one without pbm's tables, is refused, never made into a new database. No folder
        is ever made for ``path`` (a mistyped path would otherwise start a fresh database somewhere). A database
        from an older pbm is brought up to date, unless it is read-only (:class:`OutOfDateError`) or ``migrate``
        is false: then it is left as it is, for what works on any version (``backup``, ``schema_version``).

        On PostgreSQL no statement takes longer than ``timeout`` seconds: a server that is stopped, unreachable
        or hung is :class:`DatabaseUnavailableError` (see :mod:`data.store.availability`).
        """
        if is_postgresql_url(str(path)):
            return await cls._open_postgresql(str(path), create=create, migrate=migrate, timeout=timeout)
        where = sqlite_file(str(path))
        address = where
        if where != ":memory:":
            problem = upkeep.opening_problem(where, read_only=read_only, create=create)
            if problem is not None:
                raise DatabaseUnusableError(f"{where}: {problem}")
            address = upkeep.uri(where, "ro" if read_only else "rwc" if create else "rw")
        try:
            if direct:
                connection: Connection = DirectConnection.connect(address)
                lock: Any = connection.write_lock
            else:
                import asyncio

                import aiosqlite

                connection = await aiosqlite.connect(address, isolation_level=None, uri=True)
                lock = asyncio.Lock()
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseUnusableError(f"{where}: {describe_database_error(exc, where)}") from exc
        try:
            connection.row_factory = sqlite3.Row
            pragmas = [f"busy_timeout={int(BUSY_SECONDS * 1000)}", "foreign_keys=ON", "synchronous=FULL"]
            if not read_only:  # a reader takes the file as it is (a backup is in rollback-journal mode)
                pragmas.insert(1, "journal_mode=WAL")
            for pragma in pragmas:
                await connection.execute(f"PRAGMA {pragma}")
            store = cls(connection, lock)
            store.path = where
            store.read_only = read_only
            backup = backup_before_migrating and where != ":memory:"
            if await store._migrate(backup=backup, create=create, migrate=migrate):
                await store._check_tables()
        except BaseException as exc:
            await connection.close()
            if isinstance(exc, DatabaseUnusableError):
                raise
            if isinstance(exc, StoreError | sqlite3.Error | OSError):
                raise DatabaseUnusableError(f"{where}: {describe_database_error(exc, where)}") from exc
            raise
        return store

    @classmethod
    async def _open_postgresql(cls, url: str, *, create: bool, migrate: bool, timeout: float) -> Self:
        from data.postgres import PostgresPool
        from data.store.dialect import postgresql

        dialect = postgresql()
        where = redacted(url)
        try:
            connection = await PostgresPool.connect(url, timeout=timeout)
        except (*dialect.errors, ValueError) as exc:
            raise DatabaseUnusableError(f"{where}: {describe_database_error(exc)}") from exc
        try:
            store = cls(connection, None, dialect)  # no write lock: each transaction holds a connection of its own
            store.path = where
            if await store._migrate(backup=False, create=create, migrate=migrate):
                await store._check_tables()
        except BaseException as exc:
            await connection.close()
            if isinstance(exc, DatabaseUnusableError):
                raise
            if isinstance(exc, StoreError | dialect.errors):
                raise DatabaseUnusableError(f"{where}: {describe_database_error(exc)}") from exc
            raise
        return store

    async def close(self) -> None:
        await self._conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _holding(self) -> AsyncIterator[None]:
        """SQLite: the write lock, held by this task: other coroutines' reads wait until it is released, this
        task's go straight to the connection. PostgreSQL: a connection of the pool, held by this task."""
        if not self._sql.is_sqlite:
            async with self._conn.bound():
                yield
            return
        async with self._write_lock:
            if isinstance(self._conn, DirectConnection):
                yield
                return
            import asyncio

            self._holder = asyncio.current_task()
            try:
                yield
            finally:
                self._holder = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception. Inside a
        command's :meth:`atomic` block it is part of the command's one transaction instead."""
        unit = self._units.get(current_owner())
        if unit is not None:
            async with unit.step() as db:
                yield db
            return
        async with self._holding():
            await self._begin()
            try:
                yield self._conn
            except BaseException as exc:
                await self._conn.execute("ROLLBACK")
                self._raise_conflict(exc)
                raise
            try:
                await self._conn.execute("COMMIT")
            except self._sql.conflicts as exc:
                self._raise_conflict(exc)

    def _raise_conflict(self, exc: BaseException) -> None:
        """Raise :class:`StaleWriteError` for ``exc`` if it means two writers collided; else do nothing."""
        if isinstance(exc, self._sql.conflicts):
            raise StaleWriteError(f"another writer changed the same rows meanwhile ({exc})") from exc

    async def write(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        """One write statement on its own; the number of rows it changed. On PostgreSQL a lone statement commits
        by itself, so it is sent alone (no ``BEGIN`` and ``COMMIT`` round trips) on a connection of the pool that
        no transaction holds; on SQLite, or inside a command's :meth:`atomic` block, it is a transaction like any
        write (``BEGIN IMMEDIATE`` is what waits for another process's write lock)."""
        if self._sql.is_sqlite or current_owner() in self._units:
            async with self.transaction() as db:
                return (await db.execute(sql, parameters)).rowcount
        try:
            return (await self._conn.execute(sql, parameters)).rowcount
        except self._sql.conflicts as exc:
            raise StaleWriteError(f"another writer changed the same rows meanwhile ({exc})") from exc

    async def _begin(self) -> None:
        """Open a write transaction (SQLite: ``BEGIN IMMEDIATE``). SQLite answers "database is locked" at once,
        without waiting out the busy timeout, when this connection still reads (another coroutine's query between
        its steps) from before another process's commit; the read ends within moments, so the bot's connection
        tries again, for as long as the busy timeout would have waited. The console's direct connection is used
        by one command at a time and never meets this; PostgreSQL waits for locks by itself."""
        if isinstance(self._conn, DirectConnection) or self._sql.name != "sqlite":
            await self._conn.execute(self._sql.begin)
            return
        import asyncio

        deadline = time.monotonic() + BUSY_SECONDS
        pause = 0.001
        while True:
            try:
                await self._conn.execute(self._sql.begin)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)

    async def _migrate(self, *, backup: bool, create: bool = True, migrate: bool = True) -> bool:
        """Bring the schema up to this pbm's version; whether it is (it is not when an older one is kept, without
        ``migrate``). Without ``create``, a database without pbm's tables is refused instead of made; one opened
        read-only that is behind is refused (it cannot be updated)."""
        migrations = self._sql.migrations
        async with self._db.execute(self._sql.has_schema_version) as cursor:
            exists = await cursor.fetchone() is not None
        if not exists and (not create or self.read_only):
            raise DatabaseUnusableError(f"{self.path}: there is no pbm database in it (it has none of pbm's tables)")
        current = await self.schema_version() if exists else 0
        if current > len(migrations):
            raise DatabaseUnusableError(
                f"{self.path}: this database comes from a newer pbm (schema version {current}; this pbm knows up to"
                f" {len(migrations)}): upgrade pbm to use it"
            )
        if current == len(migrations):
            return True
        if not migrate:
            return False
        if self.read_only:
            raise OutOfDateError(
                f"{self.path}: this database comes from an older pbm (schema version {current}; this pbm uses"
                f" {len(migrations)}) and it is read-only here, so it cannot be brought up to date: make it writable"
            )
        if backup and current > 0:
            await self.backup(_backup_name(self.path, current))
        async with self.transaction() as db:
            if self._sql.migration_lock is not None:
                await db.execute(self._sql.migration_lock)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            async with db.execute("SELECT version FROM schema_version") as cursor:
                row = await cursor.fetchone()
            if row is None:
                await db.execute("INSERT INTO schema_version (version) VALUES (0)")
            current = 0 if row is None else int(row[0])
            for number in range(current + 1, len(migrations) + 1):
                for statement in _statements(migrations[number - 1]):
                    await db.execute(statement)
                await db.execute("UPDATE schema_version SET version = ?", (number,))
        return True

    async def _check_tables(self) -> None:
        async with self._db.execute(self._sql.table_names) as cursor:
            present = {str(r[0]) for r in await cursor.fetchall()}
        missing = [t for t in REQUIRED_TABLES if t not in present]
        if missing:
            raise DatabaseUnusableError(
                f"{self.path}: the database is damaged: table {', '.join(missing)} is missing; restore a backup"
            )

    # ---- maintenance ---------------------------------------------------------------------------------------

    async def backup(self, target: str | Path) -> upkeep.Backup:
        """A consistent copy of the live database at ``target`` (SQLite's ``VACUUM INTO``: other connections may
        go on writing meanwhile; the copy is one committed state), checked before it counts: it is written to a
        hidden file beside ``target``, must pass SQLite's integrity and foreign-key checks at this schema version,
        and only then takes ``target``'s name. A failed backup leaves nothing behind. Refuses to overwrite a file,
        and makes no folder. On PostgreSQL it refuses: backups there are pg_dump's job."""
        if not self._sql.is_sqlite:
            raise StoreError("pbm backs up SQLite files only; back up a PostgreSQL database with pg_dump")
        target = Path(target)
        if target.exists() or target.is_symlink():
            raise StoreError(f"{target} already exists; choose a new file name for the backup")
        if not target.parent.is_dir():
            raise StoreError(f"{target}: the folder {target.parent} does not exist (pbm makes no folders: create it)")
        version = await self.schema_version()
        try:
            partial = upkeep.partial_file(target)
        except OSError as exc:
            raise StoreError(f"{target}: nothing can be written in {target.parent} ({exc.strerror or exc})") from exc
        try:
            try:
                await self._db.execute("VACUUM INTO ?", (str(partial),))
            except sqlite3.Error as exc:  # reading a damaged database, or writing the copy
                if upkeep.is_damage(exc):
                    raise DatabaseUnusableError(
                        f"{self.path}: {await self._read_failure(exc)}; no backup was written"
                    ) from exc
                raise StoreError(f"{target}: {describe_database_error(exc)}") from exc
            problems, games = upkeep.check_copy(partial, version)
            if problems:
                raise StoreError(f"{target}: the copy failed its check ({problems[0]}); no backup was written")
            try:
                upkeep.publish(partial, target)
            except FileExistsError:
                raise StoreError(f"{target} already exists; choose a new file name for the backup") from None
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        return upkeep.Backup(target, games)

    async def _read_failure(self, exc: BaseException) -> str:
        """What a failed read of this database says, in one clause: where a damaged file is damaged (its tables),
        or the error as :func:`describe_database_error` puts it."""
        if self._sql.is_sqlite and upkeep.is_damage(exc):
            return await upkeep.damage(self._db, [str(exc)])
        return describe_database_error(exc)

    async def integrity_problems(self) -> list[str]:
        """SQLite's own integrity check and foreign-key check, one clause per problem saying where; empty when
        the file is sound (see :func:`data.store.upkeep.integrity_problems`). PostgreSQL keeps its own files and
        enforces foreign keys on every write: nothing to check there."""
        if not self._sql.is_sqlite:
            return []
        return await upkeep.integrity_problems(self._db)

    # ---- what database this is -----------------------------------------------------------------------------

    @property
    def database_errors(self) -> tuple[type[BaseException], ...]:
        """The errors of this database itself (a full disk, a lost server); anything else is a bug."""
        return self._sql.errors

    @property
    def is_sqlite(self) -> bool:
        return self._sql.is_sqlite

    async def schema_version(self) -> int:
        async with self._db.execute("SELECT version FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return 0 if row is None else int(row[0])


SET_META = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"


class FetchedRows:
    """The rows of a statement, fetched whole while it had the connection, and how many rows it changed, behind
    the cursor API reads use (a read between transactions here; every PostgreSQL statement, see
    :mod:`data.postgres`)."""

    def __init__(self, rows: list[Any], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Any]:
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows


class _ReadsBetweenTransactions:
    """The store's one connection as reads outside a transaction use it. The bot's coroutines share that
    connection, so a read issued while another coroutine's transaction is open on it would run inside that
    transaction: it would see rows not yet committed, or half of a commit (a game's row updated, its move not
    yet logged), and perhaps rolled back after. A read therefore waits for the write lock (unless its own task
    holds it) and fetches its rows whole before letting go."""

    def __init__(self, store: CoreStore) -> None:
        self._store = store

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _ReadCall:
        return _ReadCall(self._store, sql, parameters)


class _ReadCall:
    """What ``execute`` returns: awaitable (the rows) and an async context manager, as aiosqlite's is."""

    def __init__(self, store: CoreStore, sql: str, parameters: Sequence[Any]) -> None:
        self._store, self._sql, self._parameters = store, sql, parameters

    def __await__(self):  # type: ignore[no-untyped-def]
        return self._run().__await__()

    async def __aenter__(self) -> FetchedRows:
        return await self._run()

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def _run(self) -> FetchedRows:
        import asyncio

        store = self._store
        if store._holder is not None and store._holder is asyncio.current_task():
            return await self._fetch()
        async with store._write_lock:
            return await self._fetch()

    async def _fetch(self) -> FetchedRows:
        cursor = await self._store._conn.execute(self._sql, self._parameters)
        rows = list(await cursor.fetchall())
        fetched = FetchedRows(rows, cursor.rowcount, cursor.lastrowid)
        close = getattr(cursor, "close", None)
        if close is not None:
            await close()
        return fetched


def set_clause(**values: Any) -> tuple[str, list[Any]]:
    """The ``SET`` of an update from the values given (``None``: left as it is); ``accepted`` and ``joined``,
    lists of players, are stored as JSON."""
    sets, params = [], []
    for column, value in values.items():
        if value is None:
            continue
        sets.append(f"{column} = ?")
        params.append(_dumps(list(value)) if column in ("accepted", "joined") else value)
    return ", ".join(sets), params


async def _write_clock(db: Connection, game_id: int, write: ClockWrite) -> None:
    """Claim the game's clock timer (see :class:`ClockWrite`), store its clock, and schedule its next timer."""
    await _claim_clock_timer(db, game_id, write)
    await db.execute(
        "UPDATE games SET clock = ?, deadline = ? WHERE id = ?",
        (None if write.clock is None else _dumps(write.clock), write.deadline, game_id),
    )
    if write.timer_at is not None:
        await insert_timer(db, write.timer_at, "clock", game_id=game_id)


async def _claim_clock_timer(db: Connection, game_id: int, write: ClockWrite) -> None:
    """Remove the game's clock timer: the one ``write`` claims (:class:`StaleWriteError` if it is gone), or
    whatever it is when ``write`` claims none. Timers are removed before the game's row is written, by every
    writer, so two transactions take their locks in the same order."""
    if write.claim is not None:
        cursor = await db.execute(
            "DELETE FROM timers WHERE id = ? AND game_id = ? AND kind = 'clock'", (write.claim, game_id)
        )
        if cursor.rowcount != 1:
            raise StaleWriteError(f"the clock of game {game_id} changed meanwhile")
    else:
        await db.execute("DELETE FROM timers WHERE game_id = ? AND kind = 'clock'", (game_id,))


async def _close_proposals(db: Connection, game_id: int, carried_out: int | None, now: float) -> None:
    """The game moved on: its open proposal no longer holds and is void, unless it is ``carried_out`` by this
    very commit (then it is accepted); either way its expiry timer goes with it. One whose time was up before
    ``now`` expired then: it is left to the sweep, which tells its proposer so."""
    if carried_out is not None:
        cursor = await db.execute(
            "UPDATE proposals SET status = 'accepted' WHERE id = ? AND game_id = ? AND status = 'open'",
            (carried_out, game_id),
        )
        if cursor.rowcount != 1:
            raise StaleWriteError(f"proposal {carried_out} has already been settled")
    cursor = await db.execute(
        "UPDATE proposals SET status = 'void' WHERE game_id = ? AND status = 'open'"
        " AND (expires_at IS NULL OR expires_at > ?)",
        (game_id, now),
    )
    if carried_out is not None or cursor.rowcount:
        await db.execute(
            "DELETE FROM timers WHERE game_id = ? AND kind = 'proposal'"
            " AND ref IN (SELECT id FROM proposals WHERE game_id = ? AND status <> 'open')",
            (game_id, game_id),
        )


async def insert_timer(
    db: Connection,
    due_at: float,
    kind: str,
    *,
    game_id: int | None = None,
    player_id: str | None = None,
    ref: int | None = None,
) -> None:
    """Schedule a timer inside the caller's transaction. Timer ids are never reused (SQLite: ``AUTOINCREMENT``;
    PostgreSQL: an identity), so a timer id is a version: a process that read a timer since replaced cannot
    claim its successor."""
    await db.execute(
        "INSERT INTO timers (due_at, kind, game_id, player_id, ref) VALUES (?, ?, ?, ?, ?)",
        (due_at, kind, game_id, player_id, ref),
    )


def _backup_name(path: str, version: int) -> Path:
    """Where the copy taken before migrating from ``version`` goes: beside the database, never over a file."""
    base = Path(path)
    candidate = base.with_name(f"{base.stem}.before-v{version + 1}{base.suffix or '.sqlite3'}")
    counter = 1
    while candidate.exists():
        counter += 1
        candidate = base.with_name(f"{base.stem}.before-v{version + 1}-{counter}{base.suffix or '.sqlite3'}")
    return candidate


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (our migrations hold no ';' inside literals)."""
    return [part.strip() for part in script.split(";") if part.strip()]
