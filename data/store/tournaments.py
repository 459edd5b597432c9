"""Tournaments as stored: one row each, and the link of every tournament game to its round and board.

**The row** keeps what a tournament plays (the game, the format, the option words every game of it takes, the table
sizes), who organised it, where it lives (a server and a channel, or neither for the console), its signup (the
players who joined, in order; the most it takes; when it closes) and, once started, the whole state of the pure
:class:`bot.competition.Tournament` as JSON text. Every write names the ``version`` it read and raises it
(:class:`StaleWriteError` when another write came between, and nothing is written): of two processes recording the
last game of a round at once, one writes and pairs the next round, the other reads again and finds it paired. A
read made to write is taken inside the command's transaction, with the row locked on PostgreSQL (SQLite's writers
are one at a time already), so the writer sees what it will overwrite.

**The games** of a tournament are ``tournament_games`` rows: the round, the board and the attempt (a board is
replayed after a drawn knock-out game or a cancelled one, as the next attempt); the unique index on the four makes
a second game for the same attempt impossible, whatever the processes do. ``recorded`` says the game's result is in
the tournament's state: it is set in the write that records it, and the sweep records the games a crash left
unrecorded (:meth:`TournamentStore.unrecorded_tournament_games`).

**The signup deadline** is a timer of kind ``tournament`` (``ref``: the tournament), swept like the others.
"""

from collections.abc import Sequence
from typing import Any, NamedTuple

from data.store.core import CoreStore, DamagedRowError, NotFoundError, StaleWriteError, _dumps, _loads, insert_timer

#: a tournament's status: players join (``signup``), its games are played (``running``), or it is over
STATUSES = ("signup", "running", "finished", "cancelled")

_COLUMNS = (
    "id, game_type, format, options, table_sizes, rounds, organiser, status, max_players, signup_until, guild_id,"
    " channel_id, entrants, state, version, created_at, updated_at"
)


class TournamentRow(NamedTuple):
    """One tournament as stored (see the module docstring). ``state`` is the parsed JSON of the pure tournament,
    ``None`` until it starts."""

    id: int
    game_type: str
    format: str
    options: list[str]
    table_sizes: list[int]
    rounds: int | None
    organiser: str
    status: str
    max_players: int | None
    signup_until: float | None
    guild_id: int | None
    channel_id: int | None
    entrants: list[str]
    state: dict[str, Any] | None
    version: int
    created_at: float
    updated_at: float


class TournamentGame(NamedTuple):
    """A game of a tournament: which tournament, round, board and attempt, and whether its result is recorded."""

    game_id: int
    tournament_id: int
    round: int
    board: int
    attempt: int
    recorded: bool


def _tournament_row(row: Sequence[Any]) -> TournamentRow:
    what = f"tournament {row[0]}"
    try:
        options, sizes, entrants = _loads(row[3], what), _loads(row[4], what), _loads(row[12], what)
        state = None if row[13] is None else _loads(row[13], what)
        if not (isinstance(options, list) and isinstance(sizes, list) and isinstance(entrants, list)):
            raise ValueError("its options, table sizes or players are not lists")
        if state is not None and not isinstance(state, dict):
            raise ValueError("its state is not an object")
        return TournamentRow(
            id=int(row[0]),
            game_type=str(row[1]),
            format=str(row[2]),
            options=[str(word) for word in options],
            table_sizes=[int(size) for size in sizes],
            rounds=None if row[5] is None else int(row[5]),
            organiser=str(row[6]),
            status=str(row[7]),
            max_players=None if row[8] is None else int(row[8]),
            signup_until=None if row[9] is None else float(row[9]),
            guild_id=None if row[10] is None else int(row[10]),
            channel_id=None if row[11] is None else int(row[11]),
            entrants=[str(player) for player in entrants],
            state=state,
            version=int(row[14]),
            created_at=float(row[15]),
            updated_at=float(row[16]),
        )
    except (TypeError, ValueError) as exc:
        raise DamagedRowError(f"{what} is damaged ({exc})") from exc


def _link(row: Sequence[Any]) -> TournamentGame:
    return TournamentGame(int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), bool(row[5]))


class TournamentStore(CoreStore):
    """Tournaments and their games (see the module docstring)."""

    async def create_tournament(
        self,
        game_type: str,
        format_: str,
        options: Sequence[str],
        table_sizes: Sequence[int],
        organiser: str,
        *,
        rounds: int | None = None,
        max_players: int | None = None,
        signup_until: float | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> int:
        """Store a new tournament open for signup, and its signup deadline's timer when it has one; its number."""
        now = self.now()
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING", (organiser, now)
            )
            cursor = await db.execute(
                "INSERT INTO tournaments (game_type, format, options, table_sizes, rounds, organiser, status,"
                " max_players, signup_until, guild_id, channel_id, entrants, version, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?, '[]', 1, ?, ?)" + self._sql.returning_id,
                (
                    game_type,
                    format_,
                    _dumps(list(options)),
                    _dumps(list(table_sizes)),
                    rounds,
                    organiser,
                    max_players,
                    signup_until,
                    guild_id,
                    channel_id,
                    now,
                    now,
                ),
            )
            tournament_id = int(cursor.lastrowid)
            if signup_until is not None:
                await insert_timer(db, signup_until, "tournament", ref=tournament_id)
        return tournament_id

    async def load_tournament(self, tournament_id: int, *, to_write: bool = False) -> TournamentRow:
        """A tournament as stored; :class:`NotFoundError` when there is none, :class:`DamagedRowError` when it
        cannot be read. ``to_write``: read inside the command's transaction (the row locked on PostgreSQL), for
        a write that follows."""
        sql = f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?"
        if to_write:
            async with self.transaction() as db, db.execute(sql + self._sql.for_update, (tournament_id,)) as cursor:
                row = await cursor.fetchone()
        else:
            async with self._db.execute(sql, (tournament_id,)) as cursor:
                row = await cursor.fetchone()
        if row is None:
            raise NotFoundError(f"there is no tournament {tournament_id}")
        return _tournament_row(row)

    async def save_tournament(
        self,
        tournament_id: int,
        expected_version: int,
        *,
        status: str | None = None,
        entrants: Sequence[str] | None = None,
        state: dict[str, Any] | None = None,
        recorded: int | None = None,
    ) -> int:
        """Write what changed (``None``: kept) if the tournament is still at ``expected_version``, else
        :class:`StaleWriteError` and nothing written; the new version. ``recorded`` is a game whose result this
        write records (it must not be recorded already). A tournament that stops taking players loses its
        signup timer in the same write."""
        sets, params = ["version = version + 1", "updated_at = ?"], [self.now()]
        for column, value in (("status", status), ("entrants", entrants), ("state", state)):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value if isinstance(value, str) else _dumps(value))
        async with self.transaction() as db:
            cursor = await db.execute(
                f"UPDATE tournaments SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, tournament_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise StaleWriteError(f"tournament {tournament_id} changed while it was being changed")
            if recorded is not None:
                cursor = await db.execute(
                    "UPDATE tournament_games SET recorded = 1 WHERE game_id = ? AND tournament_id = ? AND recorded = 0",
                    (recorded, tournament_id),
                )
                if cursor.rowcount != 1:
                    raise StaleWriteError(f"game {recorded} of tournament {tournament_id} is recorded already")
            if status is not None and status != "signup":
                await db.execute("DELETE FROM timers WHERE kind = 'tournament' AND ref = ?", (tournament_id,))
        return expected_version + 1

    async def add_tournament_game(
        self, game_id: int, tournament_id: int, round_: int, board: int, attempt: int
    ) -> None:
        """Link a new game to its tournament's round and board (a second game for the same attempt is refused by
        the unique index: :class:`StaleWriteError`)."""
        async with self.transaction() as db:
            try:
                await db.execute(
                    "INSERT INTO tournament_games (game_id, tournament_id, round, board, attempt)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, tournament_id, round_, board, attempt),
                )
            except self._sql.errors as exc:
                if "unique" not in str(exc).lower() and "duplicate" not in str(exc).lower():
                    raise
                raise StaleWriteError(f"board {board} of round {round_} already has its game") from exc

    async def carry_tournament_game(self, ended: int, following: int) -> None:
        """A Backgammon match's next game takes over the board of the game that ended (which is marked recorded:
        the board's result is the match's), as the next attempt of that board."""
        link = await self.tournament_game(ended)
        if link is None:
            return
        async with self.transaction() as db:
            await db.execute("UPDATE tournament_games SET recorded = 1 WHERE game_id = ?", (ended,))
        await self.add_tournament_game(following, link.tournament_id, link.round, link.board, link.attempt + 1)

    async def tournament_game(self, game_id: int) -> TournamentGame | None:
        """The tournament a game belongs to, its round, board and attempt (``None``: not a tournament game)."""
        async with self._db.execute(
            "SELECT game_id, tournament_id, round, board, attempt, recorded FROM tournament_games WHERE game_id = ?",
            (game_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _link(row)

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """Every game of a tournament, by round, board and attempt."""
        async with self._db.execute(
            "SELECT game_id, tournament_id, round, board, attempt, recorded FROM tournament_games"
            " WHERE tournament_id = ? ORDER BY round, board, attempt",
            (tournament_id,),
        ) as cursor:
            return [_link(row) for row in await cursor.fetchall()]

    async def running_tournament_games(self, tournament_id: int, player: str | None = None) -> list[int]:
        """The running games of a tournament (only ``player``'s, if given), oldest first."""
        seated, params = "", [tournament_id]
        if player is not None:
            seated = " AND EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.player_id = ?)"
            params.append(player)  # type: ignore[arg-type]
        async with self._db.execute(
            "SELECT g.id FROM tournament_games t JOIN games g ON g.id = t.game_id"
            f" WHERE t.tournament_id = ? AND g.status = 'active'{seated} ORDER BY g.id",
            params,
        ) as cursor:
            return [int(r[0]) for r in await cursor.fetchall()]

    async def unrecorded_tournament_games(self, limit: int = 100) -> list[int]:
        """Games of tournaments that are over but whose result is not recorded (a crash between the two, or an
        ending committed outside a command's transaction), oldest first."""
        async with self._db.execute(
            "SELECT t.game_id FROM tournament_games t JOIN games g ON g.id = t.game_id"
            " WHERE t.recorded = 0 AND g.status <> 'active' ORDER BY t.game_id LIMIT ?",
            (limit,),
        ) as cursor:
            return [int(r[0]) for r in await cursor.fetchall()]

    async def list_tournaments(
        self,
        *,
        guild_id: int | None = None,
        game_type: str | None = None,
        statuses: Sequence[str] = ("signup", "running"),
        limit: int = 50,
    ) -> tuple[list[TournamentRow], int]:
        """Tournaments of ``statuses`` (newest first), of one server (``None``: every one) and one game (``None``:
        every game): at most ``limit`` of them, and how many there are; a damaged row is left out."""
        marks = ", ".join("?" for _ in statuses)
        condition, params = f"status IN ({marks})", list(statuses)
        if guild_id is not None:
            condition += " AND guild_id = ?"
            params.append(guild_id)  # type: ignore[arg-type]
        if game_type is not None:
            condition += " AND game_type = ?"
            params.append(game_type)
        async with self._db.execute(f"SELECT COUNT(*) FROM tournaments WHERE {condition}", params) as cursor:
            total = int((await cursor.fetchone())[0])
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM tournaments WHERE {condition} ORDER BY id DESC LIMIT ?", (*params, limit)
        ) as cursor:
            raw = await cursor.fetchall()
        rows = []
        for row in raw:
            try:
                rows.append(_tournament_row(row))
            except DamagedRowError:
                continue
        return rows, total

    async def tournaments_organised(self, guild_id: int, organiser: str) -> int:
        """How many tournaments ``organiser`` has in a server that are not over (signing up or running): what the
        per-member limit counts."""
        async with self._db.execute(
            "SELECT COUNT(*) FROM tournaments WHERE organiser = ? AND status IN ('signup', 'running') AND guild_id = ?",
            (organiser, guild_id),
        ) as cursor:
            return int((await cursor.fetchone())[0])

    async def set_threads(self, game_ids: Sequence[int], guild_id: int, channel_id: int, thread_id: int) -> None:
        """Put several games in one Discord thread (a tournament round's shared thread), in one write."""
        marks = ", ".join("?" for _ in game_ids)
        await self.write(
            f"UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ? WHERE id IN ({marks})",
            (guild_id, channel_id, thread_id, *game_ids),
        )
