"""Games as stored: a new game, loading one (its row, checked against the end of its move log, and its memory), the
guarded commit of its actions, where it lives in Discord, its move log, and the listings of games.

The move log is append-only and is the source of truth; ``games.snapshot`` is a cache of the state after the last
logged action, so loading a game costs the same at move 10 and at move 10,000.

A move is committed by :meth:`GameStore.commit_actions` under a stale-move guard: the caller names the log length it
read, and the write only happens if nobody appended in between.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from data.rows import GameRow, GameSummary, LogEntry, LogLine, LogRow, RatingChange
from data.store.core import (
    MAX_GAME_ID,
    SET_META,
    UNPOSTED_PREFIX,
    ClockWrite,
    CoreStore,
    DamagedRowError,
    NotFoundError,
    StaleWriteError,
    _claim_clock_timer,
    _close_proposals,
    _dumps,
    _loads,
    _write_clock,
    insert_timer,
)
from data.store.dialect import Dialect
from data.store.rate import RatingWrite, write_rating
from rules.memory import WIDTH, Memory

if TYPE_CHECKING:
    from data.store.core import Connection

#: values per row of ``game_memory``: appending rewrites at most one chunk of this many values
MEMORY_CHUNK = 256

_GAME_COLUMNS = (
    "id, type, options, players, seed, status, move_number, log_length, to_move, snapshot, outcome, "
    "guild_id, channel_id, thread_id, created_at, updated_at, clock, deadline"
)


class GameStore(CoreStore):
    """Games, their move logs and memories, and the listings of games (see the module docstring)."""

    async def game_ids(self) -> list[int]:
        async with self._db.execute("SELECT id FROM games ORDER BY id") as cursor:
            return [int(r[0]) for r in await cursor.fetchall()]

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
