"""The core of the store: the connection, migrations, players, games, the move log, challenges, settings.

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

The move log is append-only and is the source of truth; ``games.snapshot`` is a cache of the state after the last
logged action, so loading a game costs the same at move 10 and at move 10,000.

A move is committed by :meth:`Store.commit_actions` under a stale-move guard: the caller names the log length it
read, and the write only happens if nobody appended in between.
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
from data.rows import ChallengeRow, GameRow, GameSummary, LogEntry, LogLine, LogRow, RatingChange
from data.store import upkeep
from data.store.availability import DEFAULT_TIMEOUT, DatabaseUnavailableError
from data.store.dialect import SQLITE, Dialect
from data.store.rate import RatingWrite, write_rating
from data.store.unit import Units, current_owner
from rules.memory import WIDTH, Memory

if TYPE_CHECKING:
    import aiosqlite

    from data.postgres import PostgresPool

    Connection = aiosqlite.Connection | DirectConnection | PostgresPool

#: the largest game number SQLite can hold
MAX_GAME_ID = 2**63 - 1
#: values per row of ``game_memory``: appending rewrites at most one chunk of this many values
MEMORY_CHUNK = 256
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


_GAME_COLUMNS = (
    "id, type, options, players, seed, status, move_number, log_length, to_move, snapshot, outcome, "
    "guild_id, channel_id, thread_id, created_at, updated_at, clock, deadline"
)
_CHALLENGE_COLUMNS = (
    "id, type, options, players, accepted, status, game_id, guild_id, channel_id, message_id, created_at, expires_at,"
    " open_seats, joined, rating_min, rating_max"
)


def _loads(raw: str, what: str) -> Any:
    try:
        return json.loads(raw)
    except (TypeError, ValueError) as exc:
        raise DamagedRowError(f"{what} is damaged (unreadable JSON: {exc})") from exc


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class CoreStore(Units):
    """The database's core: the connection, migrations, players, games, the move log, challenges, settings.
    :class:`data.store.Store` adds the correspondence tables; create it with :meth:`open`, use it as an async
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

    # ---- copying a whole database (pbm db copy) --------------------------------------------------------------

    @property
    def database_errors(self) -> tuple[type[BaseException], ...]:
        """The errors of this database itself (a full disk, a lost server); anything else is a bug."""
        return self._sql.errors

    @property
    def is_sqlite(self) -> bool:
        return self._sql.is_sqlite

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

    async def copy_into(self, target: CoreStore, batch: int = COPY_BATCH) -> list[tuple[str, int, int]]:
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

    async def game_ids(self) -> list[int]:
        async with self._db.execute("SELECT id FROM games ORDER BY id") as cursor:
            return [int(r[0]) for r in await cursor.fetchall()]

    async def schema_version(self) -> int:
        async with self._db.execute("SELECT version FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return 0 if row is None else int(row[0])

    # ---- players -------------------------------------------------------------------------------------------

    async def ensure_player(self, player_id: str, discord_id: int | None = None) -> None:
        """Record a player the first time they appear (and their Discord id once known)."""
        await self.write(
            "INSERT INTO players (id, discord_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET discord_id = COALESCE(players.discord_id, excluded.discord_id)",
            (player_id, discord_id, self.now()),
        )

    async def player_by_discord_id(self, discord_id: int) -> str | None:
        known = self._player_of_discord_id.get(discord_id)
        if known is not None:
            return known
        async with self._db.execute("SELECT id FROM players WHERE discord_id = ?", (discord_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        self._player_of_discord_id[discord_id] = str(row[0])
        return str(row[0])

    async def discord_id_of(self, player_id: str) -> int | None:
        known = self._discord_id_of_player.get(player_id)
        if known is not None:
            return known
        async with self._db.execute("SELECT discord_id FROM players WHERE id = ?", (player_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None or row[0] is None:
            return None
        self._discord_id_of_player[player_id] = int(row[0])
        return int(row[0])

    # ---- games ---------------------------------------------------------------------------------------------

    async def create_game(
        self,
        game_type: str,
        options: dict[str, Any],
        players: Sequence[str],
        seed: int,
        snapshot: dict[str, Any],
        to_move: str | None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        memory: Sequence[int] = (),
        clock: ClockWrite | None = None,
    ) -> int:
        """Store a new game at move 0 (with its initial memory and clock) and return its id."""
        now = self.now()
        async with self.transaction() as db:
            for player in players:
                await db.execute(
                    "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING", (player, now)
                )
            cursor = await db.execute(
                "INSERT INTO games (type, options, players, seed, status, move_number, log_length, to_move, snapshot,"
                " guild_id, channel_id, created_at, updated_at) VALUES (?, ?, ?, ?, 'active', 0, 0, ?, ?, ?, ?, ?, ?)"
                + self._sql.returning_id,
                (
                    game_type,
                    _dumps(options),
                    _dumps(list(players)),
                    seed,
                    to_move,
                    _dumps(snapshot),
                    guild_id,
                    channel_id,
                    now,
                    now,
                ),
            )
            game_id = int(cursor.lastrowid)
            await db.executemany(
                "INSERT INTO game_players (game_id, seat, player_id) VALUES (?, ?, ?)",
                [(game_id, seat, player) for seat, player in enumerate(players)],
            )
            await _append_memory(db, self._sql, game_id, 0, memory)
            if clock is not None:
                await _write_clock(db, game_id, clock)
        return game_id

    async def load_game(self, game_id: int) -> GameRow:
        """The stored game; :class:`NotFoundError` if there is none, :class:`DamagedRowError` if unreadable or if
        its move log does not end where the game says. One query (two for a game with memory)."""
        async with self._db.execute(
            f"SELECT {_GAME_COLUMNS},"
            " (SELECT id FROM timers WHERE game_id = games.id AND kind = 'clock' ORDER BY id LIMIT 1),"
            " (SELECT seq FROM moves WHERE game_id = games.id ORDER BY seq DESC LIMIT 1),"
            " (SELECT number FROM moves WHERE game_id = games.id ORDER BY seq DESC LIMIT 1),"
            " EXISTS (SELECT 1 FROM game_memory WHERE game_id = games.id),"
            " (SELECT match_id FROM match_games WHERE game_id = games.id),"
            " (SELECT number FROM match_games WHERE game_id = games.id)"
            " FROM games WHERE id = ?",
            (game_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise NotFoundError(f"there is no game {game_id}")
        game = _game_row(row)._replace(timer_id=row[-6], match_id=row[-2], match_game=row[-1])
        _check_log_end(game, row[-5], row[-4])
        if not row[-3]:
            return game
        return game._replace(memory=await self.load_memory(game_id))

    async def commit_actions(
        self,
        game_id: int,
        expected_log_length: int,
        entries: Sequence[LogEntry],
        *,
        snapshot: dict[str, Any],
        move_number: int,
        status: str,
        to_move: str | None,
        outcome: dict[str, Any] | None,
        memory_from: int = 0,
        memory_append: Sequence[int] = (),
        clock: ClockWrite | None = None,
        memory_reset: bool = False,
        rating: RatingWrite | None = None,
        unposted: str | None = None,
        at: float | None = None,
        carried_out: int | None = None,
    ) -> list[RatingChange]:
        """Append ``entries`` to the log and replace the snapshot, atomically, only if the log still has
        ``expected_log_length`` rows; otherwise raise :class:`StaleWriteError` and write nothing.
        ``memory_append`` are new values of the game's memory, which held ``memory_from`` values before.
        ``clock`` is the game's clock after the actions and its next timer, written in the same transaction
        (and the timer it names claimed: see :class:`ClockWrite`). ``memory_reset`` replaces the memory with
        ``memory_append`` (a move taken back takes the positions it made with it). ``rating`` rates the game
        these actions finished, in the same transaction (see :mod:`data.store.rate`); what it changed is
        returned (nothing when no game was rated). ``unposted`` marks the new board as still to be posted, in
        the same transaction (see :meth:`mark_unposted`): a process that dies between the commit and the post
        leaves the mark to be found. ``at`` is when the actions took effect, if not now (a timeout applied by a
        late sweep is dated at its deadline). The game's open proposal no longer holds once it moves on, and is
        void from this commit on; ``carried_out`` is the proposal these actions carry out, accepted instead
        (:class:`StaleWriteError` if it was settled meanwhile)."""
        now = self.now() if at is None else at
        values: list[Any] = [
            _dumps(snapshot),
            move_number,
            len(entries),
            status,
            to_move,
            None if outcome is None else _dumps(outcome),
            now,
        ]
        clock_columns = ""
        if clock is not None:  # the clock goes in the same statement as the rest of the game's row
            clock_columns = ", clock = ?, deadline = ?"
            values += [None if clock.clock is None else _dumps(clock.clock), clock.deadline]
        async with self.transaction() as db:
            if unposted is not None:
                await db.execute(SET_META, (f"{UNPOSTED_PREFIX}{game_id}", unposted))
            if clock is not None:
                await _claim_clock_timer(db, game_id, clock)
            cursor = await db.execute(
                "UPDATE games SET snapshot = ?, move_number = ?, log_length = log_length + ?, status = ?, to_move = ?,"
                f" outcome = ?, updated_at = ?{clock_columns} WHERE id = ? AND log_length = ?",
                (*values, game_id, expected_log_length),
            )
            if cursor.rowcount != 1:
                raise StaleWriteError(f"game {game_id} changed while this action was being made")
            if clock is not None and clock.timer_at is not None:
                await insert_timer(db, clock.timer_at, "clock", game_id=game_id)
            await db.executemany(
                "INSERT INTO moves (game_id, seq, number, player_id, text, events, auto, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        expected_log_length + i + 1,
                        e.number,
                        e.player_id,
                        e.text,
                        _dumps(e.events),
                        2 if e.queued else int(e.auto),
                        now,
                    )
                    for i, e in enumerate(entries)
                ],
            )
            if memory_reset:
                await db.execute("DELETE FROM game_memory WHERE game_id = ?", (game_id,))
            await _append_memory(db, self._sql, game_id, 0 if memory_reset else memory_from, memory_append)
            await _close_proposals(db, game_id, carried_out, now)
            if self._sql.notify_change is not None:  # delivered by PostgreSQL when this transaction commits
                await db.execute(self._sql.notify_change, (str(game_id),))
            if rating is None:
                return []
            return await write_rating(db, self._sql, game_id, rating, now)

    async def clock_of(self, game_id: int) -> dict[str, Any] | None:
        """A game's clock JSON alone (``None``: untimed or no such game)."""
        async with self._db.execute("SELECT clock FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else _loads(row[0], f"the clock of game {game_id}")

    async def settings_of(self, player_id: str, keys: Sequence[str]) -> dict[str, str]:
        """Several settings of a player in one query."""
        marks = ", ".join("?" for _ in keys)
        async with self._db.execute(
            f"SELECT key, value FROM settings WHERE player_id = ? AND key IN ({marks})", (player_id, *keys)
        ) as cursor:
            return {str(r[0]): str(r[1]) for r in await cursor.fetchall()}

    async def load_memory(self, game_id: int) -> Memory:
        """A game's append-only memory (see :meth:`GameState.memory`), oldest first, packed as it is stored."""
        async with self._db.execute(
            "SELECT data FROM game_memory WHERE game_id = ? ORDER BY chunk", (game_id,)
        ) as cursor:
            data = b"".join([bytes(r[0]) for r in await cursor.fetchall()])
        try:
            return Memory(data)
        except ValueError:
            raise DamagedRowError(f"the memory of game {game_id} is damaged ({len(data)} bytes)") from None

    async def set_thread(
        self, game_id: int, guild_id: int | None, channel_id: int | None, thread_id: int | None
    ) -> None:
        """Remember where a game lives in Discord."""
        await self.write(
            "UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ? WHERE id = ?",
            (guild_id, channel_id, thread_id, game_id),
        )

    async def game_by_thread(self, thread_id: int) -> int | None:
        """The game a Discord thread is about: its newest, as the games of a Backgammon match follow one another in
        one thread; ``None`` for a thread of no game, or of several games not all of one match (a tournament
        round's shared thread: a command typed there names its game). Remembered unless it is a match's game (the
        match may go on in a new game there)."""
        known = self._game_of_thread.get(thread_id)
        if known is not None:
            return known
        async with self._db.execute(
            "SELECT g.id, m.match_id FROM games g LEFT JOIN match_games m ON m.game_id = g.id WHERE g.thread_id = ?"
            " ORDER BY g.id DESC LIMIT 1",
            (thread_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            "SELECT 1 FROM games g WHERE g.thread_id = ? AND g.id <> ? AND NOT EXISTS"
            " (SELECT 1 FROM match_games m WHERE m.game_id = g.id AND m.match_id = ?) LIMIT 1",
            (thread_id, row[0], row[1]),
        ) as cursor:
            if await cursor.fetchone() is not None:
                return None
        if row[1] is None:
            self._game_of_thread[thread_id] = int(row[0])
        return int(row[0])

    async def log(self, game_id: int) -> list[LogRow]:
        """The whole move log of a game, in order."""
        async with self._db.execute(
            "SELECT seq, number, player_id, text, events, auto, created_at FROM moves WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            LogRow(
                number=int(r[1]),
                player_id=r[2],
                text=str(r[3]),
                events=_loads(r[4], f"move {r[0]} of game {game_id}"),
                auto=r[5] == 1,
                seq=int(r[0]),
                created_at=float(r[6]),
                queued=r[5] == 2,
            )
            for r in rows
        ]

    async def list_games(
        self,
        *,
        player_id: str | None = None,
        which: str = "active",
        game_type: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[GameSummary], int]:
        """A page of games (running ones with the least time left first, then newest first), and how many match
        in all; filtered and limited in SQL, and no
        snapshot is parsed, so it costs the same with ten games or a million. ``which``: ``active``, ``next``
        (active and waiting on ``player_id``), ``inactive`` (finished or cancelled) or ``all``."""
        joins, where, params = "", [], []
        if player_id is not None:
            joins = " JOIN game_players p ON p.game_id = g.id AND p.player_id = ?"
            params.append(player_id)
        if which in ("active", "next"):
            where.append("g.status = 'active'")
        elif which == "inactive":
            where.append("g.status <> 'active'")
        if which == "next":
            where.append("g.to_move = ?")
            params.append(player_id)
        if game_type is not None:
            where.append("g.type = ?")
            params.append(game_type)
        condition = (" WHERE " + " AND ".join(where)) if where else ""
        # running games: the least time left first (no clock last), then the newest
        order = "g.deadline IS NULL, g.deadline, g.id DESC" if which in ("active", "next") else "g.id DESC"
        async with self._db.execute(f"SELECT COUNT(*) FROM games g{joins}{condition}", params) as cursor:
            total = int((await cursor.fetchone())[0])
        async with self._db.execute(
            "SELECT g.id, g.type, g.players, g.status, g.move_number, g.to_move, g.outcome,"
            f" CASE WHEN g.status = 'finished' THEN {self._sql.finished_seats} END, g.deadline"
            f" FROM games g{joins}{condition} ORDER BY {order} LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ) as cursor:
            rows = await cursor.fetchall()
        out = []
        for row in rows:
            try:
                out.append(_summary(row))
            except DamagedRowError:
                continue  # a damaged game is reported when it is opened; a listing must not fail for it
        return out, total

    async def game_choices(
        self,
        player_id: str,
        typed: str = "",
        limit: int = 25,
        *,
        status: str | None = "active",
        game_type: str | None = None,
    ) -> list[GameSummary]:
        """The newest games of a player whose number starts with the digits typed: autocomplete's query. Only
        games of ``status`` (``None``: any) and of ``game_type`` (``None``: any). A prefix is a handful of number
        ranges (``12`` is 12, 120-129, 1200-1299 ...), each an index range scan, so a keystroke costs the same
        with ten games or a million."""
        digits = "".join(ch for ch in typed if ch in "0123456789").lstrip("0")[:18]
        ranges: list[tuple[int, int]] = []
        if digits:
            prefix, width = int(digits), 1
            while prefix * width <= MAX_GAME_ID and len(ranges) < 19:
                ranges.append((prefix * width, min((prefix + 1) * width - 1, MAX_GAME_ID)))
                width *= 10
        condition = " OR ".join("p.game_id BETWEEN ? AND ?" for _ in ranges) or "1 = 1"
        filters = [("g.status = ?", status), ("g.type = ?", game_type)]
        wanted = "".join(f" AND {sql}" for sql, value in filters if value is not None)
        async with self._db.execute(
            "SELECT g.id, g.type, g.players, g.status, g.move_number, g.to_move, g.outcome, NULL"
            " FROM game_players p JOIN games g ON g.id = p.game_id"
            f" WHERE p.player_id = ? AND ({condition}){wanted}"
            " ORDER BY p.game_id DESC LIMIT ?",
            (
                player_id,
                *[bound for pair in ranges for bound in pair],
                *[value for _, value in filters if value is not None],
                limit,
            ),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_summary(r) for r in rows]

    async def waiting_on_computers(self, idle_since: float, limit: int = 100) -> list[int]:
        """Active games waiting on a computer player (``ai:1`` ..) since before ``idle_since``, oldest first."""
        async with self._db.execute(
            "SELECT id FROM games WHERE status = 'active' AND to_move >= 'ai:' AND to_move < 'ai;'"
            " AND updated_at <= ? ORDER BY updated_at LIMIT ?",
            (idle_since, limit),
        ) as cursor:
            return [int(r[0]) for r in await cursor.fetchall()]

    async def game_type_of(self, game_id: int) -> str | None:
        """The game's type (``druid`` ...), or ``None`` when there is no such game."""
        async with self._db.execute("SELECT type FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def log_lines(self, game_id: int, every_event: bool = False) -> list[LogLine]:
        """The move log as a history lists it. Events are read only where a listing looks at them (a roll's
        dice, a resignation's note; every row's with ``every_event``, for a game whose history reads them) and
        left as JSON text; every other row carries ``"[]"``."""
        events = (
            "events"
            if every_event
            else f"CASE WHEN text IN ('resign', 'undo') OR {self._sql.events_hold_a_roll} THEN events ELSE '[]' END"
        )
        async with self._db.execute(
            f"SELECT number, player_id, text, auto, {events} FROM moves WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [LogLine._make(r) for r in rows]

    async def games_of(self, player_id: str, status: str | None = None, game_type: str | None = None) -> list[GameRow]:
        """Every game a player sits in, newest first, optionally by status and type (whole rows: for tools
        and tests; listings use :meth:`list_games`)."""
        sql = (
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g"
            " JOIN game_players p ON p.game_id = g.id WHERE p.player_id = ?"
        )
        params: list[Any] = [player_id]
        if status is not None:
            sql += " AND g.status = ?"
            params.append(status)
        if game_type is not None:
            sql += " AND g.type = ?"
            params.append(game_type)
        sql += " ORDER BY g.id DESC"
        return await self._game_rows(sql, params)

    async def _game_rows(self, sql: str, params: Sequence[Any]) -> list[GameRow]:
        """Rows of a game query; a damaged row is skipped here (listing must not fail for one bad game) and
        reported when that game itself is opened."""
        async with self._db.execute(sql, params) as cursor:
            rows = await cursor.fetchall()
        out = []
        for row in rows:
            try:
                out.append(_game_row(row))
            except DamagedRowError:
                continue
        return out

    # ---- challenges ----------------------------------------------------------------------------------------

    async def create_challenge(
        self,
        game_type: str,
        options: Sequence[str],
        players: Sequence[str],
        *,
        expires_at: float | None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        accepted: Sequence[str] | None = None,
        open_seats: int = 0,
        rating_min: int | None = None,
        rating_max: int | None = None,
    ) -> int:
        """Store an open challenge; the challenger (``players[0]``) has accepted by making it, and so have
        ``accepted`` when given (the console seats the players it names at once). ``open_seats`` more seats wait
        for anyone rated ``rating_min`` to ``rating_max``."""
        now = self.now()
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO challenges (type, options, players, accepted, status, guild_id, channel_id, created_at,"
                " expires_at, open_seats, rating_min, rating_max) VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?)"
                + self._sql.returning_id,
                (
                    game_type,
                    _dumps(list(options)),
                    _dumps(list(players)),
                    _dumps(list(accepted) if accepted is not None else [players[0]]),
                    guild_id,
                    channel_id,
                    now,
                    expires_at,
                    open_seats,
                    rating_min,
                    rating_max,
                ),
            )
            return int(cursor.lastrowid)

    async def load_challenge(self, challenge_id: int) -> ChallengeRow:
        async with self._db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise NotFoundError(f"there is no challenge {challenge_id}")
        return _challenge_row(row)

    async def update_challenge(
        self,
        challenge_id: int,
        *,
        expected_status: str = "open",
        status: str | None = None,
        accepted: Sequence[str] | None = None,
        joined: Sequence[str] | None = None,
        game_id: int | None = None,
        message_id: int | None = None,
        seen: ChallengeRow | None = None,
    ) -> None:
        """Change a challenge only if it still has ``expected_status`` (a second click changes nothing) and, given
        ``seen``, if nobody has accepted or taken a seat since it was read: of two players answering at once,
        one writes and the other reads again, so no seat is given twice and no answer is lost."""
        sets, params = set_clause(
            status=status, game_id=game_id, message_id=message_id, accepted=accepted, joined=joined
        )
        condition, expected = "id = ? AND status = ?", [challenge_id, expected_status]
        if seen is not None:
            condition += " AND accepted = ? AND joined = ?"
            expected += [_dumps(seen.accepted), _dumps(seen.joined)]
        async with self.transaction() as db:
            cursor = await db.execute(f"UPDATE challenges SET {sets} WHERE {condition}", (*params, *expected))
            if cursor.rowcount != 1:
                raise StaleWriteError(f"challenge {challenge_id} has changed since it was read")

    async def open_challenges(self, player_id: str | None = None) -> list[ChallengeRow]:
        async with self._db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'open' ORDER BY id"
        ) as cursor:
            rows = [_challenge_row(r) for r in await cursor.fetchall()]
        return [r for r in rows if player_id is None or player_id in r.players]

    async def challenges_with_open_seats(
        self, now: float, *, guild_id: int | None = None, game_type: str | None = None, limit: int = 100
    ) -> tuple[list[ChallengeRow], int]:
        """Open challenges that keep seats for anyone and have not expired, oldest first: at most ``limit`` of
        them, and how many there are. ``guild_id`` keeps one server's; ``game_type`` one game's."""
        condition = "status = 'open' AND open_seats > 0 AND (expires_at IS NULL OR expires_at > ?)"
        params: list[Any] = [now]
        if guild_id is not None:
            condition += " AND guild_id = ?"
            params.append(guild_id)
        if game_type is not None:
            condition += " AND type = ?"
            params.append(game_type)
        async with self._db.execute(f"SELECT COUNT(*) FROM challenges WHERE {condition}", params) as cursor:
            total = int((await cursor.fetchone())[0])
        async with self._db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE {condition} ORDER BY id LIMIT ?", (*params, limit)
        ) as cursor:
            rows = []
            for raw in await cursor.fetchall():
                try:
                    rows.append(_challenge_row(raw))
                except DamagedRowError:
                    continue
        return rows, total

    async def challenge_type_of(self, challenge_id: int) -> str | None:
        """The game a challenge is for (``None``: no such challenge)."""
        async with self._db.execute("SELECT type FROM challenges WHERE id = ?", (challenge_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def expired_challenges(self, now: float) -> list[ChallengeRow]:
        async with self._db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'open' AND expires_at IS NOT NULL"
            " AND expires_at <= ? ORDER BY expires_at",
            (now,),
        ) as cursor:
            return [_challenge_row(r) for r in await cursor.fetchall()]

    # ---- settings and meta ---------------------------------------------------------------------------------

    async def get_setting(self, player_id: str, key: str, default: str | None = None) -> str | None:
        async with self._db.execute(
            "SELECT value FROM settings WHERE player_id = ? AND key = ?", (player_id, key)
        ) as cursor:
            row = await cursor.fetchone()
        return default if row is None else str(row[0])

    async def set_setting(self, player_id: str, key: str, value: str) -> None:
        await self.write(
            "INSERT INTO settings (player_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT(player_id, key) DO UPDATE SET value = excluded.value",
            (player_id, key, value),
        )

    async def get_meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self.write(SET_META, (key, value))

    # ---- boards still to be posted ---------------------------------------------------------------------------

    async def mark_unposted(self, game_id: int, mark: str) -> None:
        """Remember that the game's current board is still to be posted; ``mark`` is the front's note on it (the
        Discord nonce its post carries, so that a post that did go out before a crash is not made twice)."""
        await self.set_meta(f"{UNPOSTED_PREFIX}{game_id}", mark)

    async def clear_unposted(self, game_id: int, marks: Sequence[str] = ()) -> None:
        """The game's board was posted: forget its mark, or only a mark that holds one of ``marks`` (the marks of
        that post), so a newer board marked meanwhile stays marked."""
        key = f"{UNPOSTED_PREFIX}{game_id}"
        if not marks:
            await self.write("DELETE FROM meta WHERE key = ?", (key,))
        else:
            places = ", ".join("?" for _ in marks)
            await self.write(f"DELETE FROM meta WHERE key = ? AND value IN ({places})", (key, *marks))

    async def unposted_boards(self) -> list[tuple[int, str]]:
        """Every game whose board is still to be posted, with its mark, by game number."""
        async with self._db.execute(
            "SELECT key, value FROM meta WHERE key >= ? AND key < ?", (UNPOSTED_PREFIX, UNPOSTED_END)
        ) as cursor:
            rows = await cursor.fetchall()
        found = []
        for key, value in rows:
            number = str(key)[len(UNPOSTED_PREFIX) :]
            if number.isdigit():
                found.append((int(number), str(value)))
        return sorted(found)

    async def claim_meta(self, key: str, *, unless: tuple[str, str] | None = None, now: float, lease: float) -> bool:
        """Claim the job named ``key`` for ``lease`` seconds, atomically over every process on this database: true
        when no claim of ``key`` younger than ``lease`` exists and (with ``unless=(other_key, value)``) the meta
        row ``other_key`` does not already hold ``value`` (the job is done). The claim is the meta row ``key``
        holding its time; :meth:`release_meta` ends it early."""
        async with self.transaction() as db:
            if unless is not None:
                async with db.execute("SELECT value FROM meta WHERE key = ?", (unless[0],)) as cursor:
                    row = await cursor.fetchone()
                if row is not None and str(row[0]) == unless[1]:
                    return False
            cursor = await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
                " WHERE CAST(meta.value AS DOUBLE PRECISION) <= ?",
                (key, repr(now), now - lease),
            )
            return cursor.rowcount == 1

    async def release_meta(self, key: str) -> None:
        """End a claim taken by :meth:`claim_meta`."""
        await self.write("DELETE FROM meta WHERE key = ?", (key,))


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


async def _append_memory(db: Connection, sql: Dialect, game_id: int, start: int, values: Sequence[int]) -> None:
    """Append ``values`` (unsigned 64-bit, 8 bytes little-endian each) after the ``start`` values a game's memory
    holds, touching only the chunks they fall in."""
    packed = Memory.of(values).data
    index = 0
    while index < len(values):
        position = start + index
        chunk, offset = divmod(position, MEMORY_CHUNK)
        take = min(MEMORY_CHUNK - offset, len(values) - index)
        await db.execute(
            "INSERT INTO game_memory (game_id, chunk, data) VALUES (?, ?, ?)"
            f" ON CONFLICT(game_id, chunk) DO UPDATE SET data = {sql.memory_append}",
            (game_id, chunk, packed[index * WIDTH : (index + take) * WIDTH]),
        )
        index += take


def _check_log_end(game: GameRow, last_seq: int | None, last_number: int | None) -> None:
    """The cheap half of the log/snapshot agreement (an index lookup): the log ends where the game row says it
    does, at the move number the row holds. ``pbm check`` replays every game for the rest."""
    seq = 0 if last_seq is None else int(last_seq)
    if seq != game.log_length or (last_number is not None and last_number != game.move_number) or game.move_number < 0:
        raise DamagedRowError(
            f"game {game.id} is damaged: its move log ends at action {seq}"
            + ("" if last_number is None else f" (move {last_number})")
            + f" but the game expects {game.log_length} actions at move {game.move_number}; run pbm check"
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


def _game_row(row: Sequence[Any]) -> GameRow:
    game_id = int(row[0])
    what = f"game {game_id}"
    try:
        return GameRow(
            id=game_id,
            type=str(row[1]),
            options=_loads(row[2], what),
            players=_loads(row[3], what),
            seed=int(row[4]),
            status=str(row[5]),
            move_number=int(row[6]),
            log_length=int(row[7]),
            to_move=row[8],
            snapshot=_loads(row[9], what),
            outcome=None if row[10] is None else _loads(row[10], what),
            guild_id=row[11],
            channel_id=row[12],
            thread_id=row[13],
            created_at=float(row[14]),
            updated_at=float(row[15]),
            clock=None if row[16] is None else _loads(row[16], what),
            deadline=None if row[17] is None else float(row[17]),
        )
    except (TypeError, ValueError) as exc:
        raise DamagedRowError(f"{what} is damaged ({exc})") from exc


def _summary(row: Sequence[Any]) -> GameSummary:
    what = f"game {row[0]}"
    return GameSummary(
        id=int(row[0]),
        type=str(row[1]),
        players=_loads(row[2], what),
        status=str(row[3]),
        move_number=int(row[4]),
        to_move=row[5],
        outcome=None if row[6] is None else _loads(row[6], what),
        seats=None if row[7] is None else _loads(row[7], what),
        deadline=None if len(row) < 9 or row[8] is None else float(row[8]),
    )


def _challenge_row(row: Sequence[Any]) -> ChallengeRow:
    what = f"challenge {row[0]}"
    return ChallengeRow(
        id=int(row[0]),
        type=str(row[1]),
        options=_loads(row[2], what),
        players=_loads(row[3], what),
        accepted=_loads(row[4], what),
        status=str(row[5]),
        game_id=row[6],
        guild_id=row[7],
        channel_id=row[8],
        message_id=row[9],
        created_at=float(row[10]),
        expires_at=row[11],
        open_seats=int(row[12]),
        joined=_loads(row[13], what),
        rating_min=None if row[14] is None else int(row[14]),
        rating_max=None if row[15] is None else int(row[15]),
    )
