"""All database access, in one place: players, games, the move log, challenges, settings.

One :class:`Store` wraps one aiosqlite connection in WAL mode with foreign keys on. Writes run in
``BEGIN IMMEDIATE`` transactions serialised by a lock, so two coroutines never share a transaction and two
processes never interleave one. The move log is append-only and is the source of truth; ``games.snapshot`` is a
cache of the state after the last logged action, so loading a game costs the same at move 10 and at move 10,000.

A move is committed by :meth:`Store.commit_actions` under a stale-move guard: the caller names the log length it
read, and the write only happens if nobody appended in between.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from data.schema import MIGRATIONS


class StoreError(Exception):
    """Base of the errors the store reports to the actions layer."""


class NotFoundError(StoreError):
    """No such game or challenge."""


class DamagedRowError(StoreError):
    """A row cannot be read (bad JSON, missing fields); only that game or challenge is affected."""


class StaleWriteError(StoreError):
    """Someone else changed the game between our read and our write; nothing was written."""


@dataclass(frozen=True)
class GameRow:
    """One game as stored. ``snapshot`` is the parsed state JSON; ``players`` the seats at creation."""

    id: int
    type: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    status: str
    move_number: int
    log_length: int
    to_move: str | None
    snapshot: dict[str, Any]
    outcome: dict[str, Any] | None
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class LogEntry:
    """One action appended to the move log: the move number after it, who acted, the canonical text, the
    events it caused (JSON-able), and whether the server played it (``(Auto)``)."""

    number: int
    player_id: str | None
    text: str
    events: list[dict[str, Any]]
    auto: bool = False


@dataclass(frozen=True)
class LogRow(LogEntry):
    seq: int = 0
    created_at: float = 0.0


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    type: str
    options: list[str]
    players: list[str]
    accepted: list[str]
    status: str
    game_id: int | None
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    created_at: float
    expires_at: float | None


_GAME_COLUMNS = (
    "id, type, options, players, seed, status, move_number, log_length, to_move, snapshot, outcome, "
    "guild_id, channel_id, thread_id, created_at, updated_at"
)
_CHALLENGE_COLUMNS = (
    "id, type, options, players, accepted, status, game_id, guild_id, channel_id, message_id, created_at, expires_at"
)


def _loads(raw: str, what: str) -> Any:
    try:
        return json.loads(raw)
    except (TypeError, ValueError) as exc:
        raise DamagedRowError(f"{what} is damaged (unreadable JSON: {exc})") from exc


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Store:
    """The database. Create with :meth:`open`; use as an async context manager or call :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=10000"):
            await connection.execute(f"PRAGMA {pragma}")
        store = cls(connection)
        try:
            await store._migrate()
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception."""
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _migrate(self) -> None:
        async with self.transaction() as db:
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            async with db.execute("SELECT version FROM schema_version") as cursor:
                row = await cursor.fetchone()
            current = row[0] if row else 0
            if row is None:
                await db.execute("INSERT INTO schema_version (version) VALUES (0)")
            if current > len(MIGRATIONS):
                raise StoreError(f"database schema version {current} is newer than this program ({len(MIGRATIONS)})")
            for number in range(current + 1, len(MIGRATIONS) + 1):
                for statement in _statements(MIGRATIONS[number - 1]):
                    await db.execute(statement)
                await db.execute("UPDATE schema_version SET version = ?", (number,))

    async def schema_version(self) -> int:
        async with self._db.execute("SELECT version FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    # ---- players -------------------------------------------------------------------------------------------

    async def ensure_player(self, player_id: str, discord_id: int | None = None) -> None:
        """Record a player the first time they appear (and their Discord id once known)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO players (id, discord_id, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET discord_id = COALESCE(players.discord_id, excluded.discord_id)",
                (player_id, discord_id, time.time()),
            )

    async def player_by_discord_id(self, discord_id: int) -> str | None:
        async with self._db.execute("SELECT id FROM players WHERE discord_id = ?", (discord_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def discord_id_of(self, player_id: str) -> int | None:
        async with self._db.execute("SELECT discord_id FROM players WHERE id = ?", (player_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else int(row[0])

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
    ) -> int:
        """Store a new game at move 0 and return its id."""
        now = time.time()
        async with self.transaction() as db:
            for player in players:
                await db.execute(
                    "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING", (player, now)
                )
            cursor = await db.execute(
                "INSERT INTO games (type, options, players, seed, status, move_number, log_length, to_move, snapshot,"
                " guild_id, channel_id, created_at, updated_at) VALUES (?, ?, ?, ?, 'active', 0, 0, ?, ?, ?, ?, ?, ?)",
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
        return game_id

    async def load_game(self, game_id: int) -> GameRow:
        """The stored game; :class:`NotFoundError` if there is none, :class:`DamagedRowError` if unreadable."""
        async with self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise NotFoundError(f"there is no game {game_id}")
        return _game_row(row)

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
    ) -> None:
        """Append ``entries`` to the log and replace the snapshot, atomically, only if the log still has
        ``expected_log_length`` rows; otherwise raise :class:`StaleWriteError` and write nothing."""
        now = time.time()
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET snapshot = ?, move_number = ?, log_length = log_length + ?, status = ?, to_move = ?,"
                " outcome = ?, updated_at = ? WHERE id = ? AND log_length = ?",
                (
                    _dumps(snapshot),
                    move_number,
                    len(entries),
                    status,
                    to_move,
                    None if outcome is None else _dumps(outcome),
                    now,
                    game_id,
                    expected_log_length,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleWriteError(f"game {game_id} changed while this action was being made")
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
                        int(e.auto),
                        now,
                    )
                    for i, e in enumerate(entries)
                ],
            )

    async def set_thread(
        self, game_id: int, guild_id: int | None, channel_id: int | None, thread_id: int | None
    ) -> None:
        """Remember where a game lives in Discord."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ? WHERE id = ?",
                (guild_id, channel_id, thread_id, game_id),
            )

    async def game_by_thread(self, thread_id: int) -> int | None:
        async with self._db.execute("SELECT id FROM games WHERE thread_id = ?", (thread_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row[0])

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
                auto=bool(r[5]),
                seq=int(r[0]),
                created_at=float(r[6]),
            )
            for r in rows
        ]

    async def games_of(self, player_id: str, status: str | None = None, game_type: str | None = None) -> list[GameRow]:
        """Games a player sits in, newest first, optionally by status and type."""
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
        sql += " GROUP BY g.id ORDER BY g.id DESC"
        return await self._game_rows(sql, params)

    async def games_by_type(self, game_type: str | None, status: str | None = None, limit: int = 100) -> list[GameRow]:
        """Games of one type (or all), newest first."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE 1 = 1"
        params: list[Any] = []
        if game_type is not None:
            sql += " AND type = ?"
            params.append(game_type)
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)
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
    ) -> int:
        """Store an open challenge; the challenger (``players[0]``) has accepted by making it."""
        now = time.time()
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO challenges (type, options, players, accepted, status, guild_id, channel_id, created_at,"
                " expires_at) VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?)",
                (
                    game_type,
                    _dumps(list(options)),
                    _dumps(list(players)),
                    _dumps([players[0]]),
                    guild_id,
                    channel_id,
                    now,
                    expires_at,
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
        game_id: int | None = None,
        message_id: int | None = None,
    ) -> None:
        """Change a challenge only if it still has ``expected_status`` (a second click changes nothing)."""
        sets, params = [], []
        for column, value in (("status", status), ("game_id", game_id), ("message_id", message_id)):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        if accepted is not None:
            sets.append("accepted = ?")
            params.append(_dumps(list(accepted)))
        async with self.transaction() as db:
            cursor = await db.execute(
                f"UPDATE challenges SET {', '.join(sets)} WHERE id = ? AND status = ?",
                (*params, challenge_id, expected_status),
            )
            if cursor.rowcount != 1:
                raise StaleWriteError(f"challenge {challenge_id} is no longer {expected_status}")

    async def open_challenges(self, player_id: str | None = None) -> list[ChallengeRow]:
        async with self._db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'open' ORDER BY id"
        ) as cursor:
            rows = [_challenge_row(r) for r in await cursor.fetchall()]
        return [r for r in rows if player_id is None or player_id in r.players]

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
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO settings (player_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT(player_id, key) DO UPDATE SET value = excluded.value",
                (player_id, key, value),
            )

    async def get_meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


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
        )
    except (TypeError, ValueError) as exc:
        raise DamagedRowError(f"{what} is damaged ({exc})") from exc


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
    )
