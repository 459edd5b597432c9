"""The ratings tables as players look at them: leaderboards (a page of one index, however many players), a
player's ratings, rank, history and results per variant, time per move, the games two players shared, and the
rebuild's two halves: every finished game in the order it was rated, and all the ratings replaced at once.

Games are rated as they end, inside the commit that ends them (:mod:`data.store.rate`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

from data.rows import FinishedGame, RatingChange, RatingRow, VariantRow
from data.store.correspondence import CorrespondenceStore
from data.store.rate import CHANGE_COLUMNS, RATING_COLUMNS, VARIANT_COLUMNS, rating_row

#: players per query when a leaderboard is limited to a set of players (well under SQLite's variable limit)
MEMBER_BATCH = 500
#: SQLite's page cache while a rebuild writes (KiB)
REBUILD_CACHE_KIB = 65536
_BOARD_ORDER = "score DESC, player_id"


class RatingStore(CorrespondenceStore):
    """Reading the ratings, and replacing them all (see the module docstring)."""

    async def player_exists(self, player_id: str) -> bool:
        async with self._db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)) as cursor:
            return await cursor.fetchone() is not None

    async def ratings_of(self, game_type: str, players: Sequence[str]) -> dict[str, RatingRow]:
        """The ratings of some players in one game type (players not rated yet are left out)."""
        if not players:
            return {}
        marks = ", ".join("?" for _ in players)
        async with self._db.execute(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE game_type = ? AND player_id IN ({marks})",
            (game_type, *players),
        ) as cursor:
            return {row.player_id: row for row in map(rating_row, await cursor.fetchall())}

    async def player_ratings(self, player_id: str) -> list[RatingRow]:
        """A player's rating in every game type they have played rated games of, by game type."""
        async with self._db.execute(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = ? ORDER BY game_type", (player_id,)
        ) as cursor:
            return [rating_row(r) for r in await cursor.fetchall()]

    async def leaderboard(
        self,
        game_type: str,
        *,
        variant: str | None = None,
        limit: int = 10,
        offset: int = 0,
        members: Collection[str] | None = None,
    ) -> tuple[list[RatingRow], int]:
        """A page of a game type's players, best rating first (ties by name), and how many there are in all.

        With ``variant``, only players who played it, with their game type's rating and that variant's games,
        wins, losses, draws and points. With ``members``, only those players (a server's leaderboard): read in
        batches and sorted here, so its cost grows with the members, not with every rated player."""
        if members is not None:
            return await self._members_board(game_type, variant, members, limit, offset)
        # the page's players are found in the leaderboard's index alone (a deep page skips index entries, not rows),
        # then their rows are read
        if variant is None:
            table, where, params = "ratings", "game_type = ?", [game_type]
            select = f"SELECT {RATING_COLUMNS} FROM ratings r WHERE r.game_type = ?"
        else:
            table, where, params = "rating_variants", "game_type = ? AND variant = ?", [game_type, variant]
            select = f"{_VARIANT_BOARD} WHERE v.game_type = ? AND v.variant = ?"
        async with self._db.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}", params) as cursor:
            total = int((await cursor.fetchone())[0])
        async with self._db.execute(
            f"{select} AND r.player_id IN (SELECT player_id FROM {table} WHERE {where}"
            f" ORDER BY {_BOARD_ORDER} LIMIT ? OFFSET ?) ORDER BY r.score DESC, r.player_id",
            [*params, *params, limit, offset],
        ) as cursor:
            return [rating_row(r) for r in await cursor.fetchall()], total

    async def _members_board(
        self, game_type: str, variant: str | None, members: Collection[str], limit: int, offset: int
    ) -> tuple[list[RatingRow], int]:
        found: list[RatingRow] = []
        people = sorted(set(members))
        for start in range(0, len(people), MEMBER_BATCH):
            batch = people[start : start + MEMBER_BATCH]
            marks = ", ".join("?" for _ in batch)
            if variant is None:
                sql = f"SELECT {RATING_COLUMNS} FROM ratings WHERE game_type = ? AND player_id IN ({marks})"
                params: list[Any] = [game_type, *batch]
            else:
                sql = f"{_VARIANT_BOARD} WHERE v.game_type = ? AND v.variant = ? AND v.player_id IN ({marks})"
                params = [game_type, variant, *batch]
            async with self._db.execute(sql, params) as cursor:
                found += [rating_row(r) for r in await cursor.fetchall()]
        found.sort(key=lambda row: (-row.score, row.player_id))
        return found[offset : offset + limit], len(found)

    async def add_guild_players(self, guild_id: int, players: Collection[str]) -> None:
        """Remember that ``players`` (who exist) were seen in a Discord server: its leaderboard shows them."""
        if not players:
            return
        async with self.transaction() as db:
            await db.executemany(
                "INSERT INTO guild_players (guild_id, player_id) VALUES (?, ?)"
                " ON CONFLICT(guild_id, player_id) DO NOTHING",
                [(guild_id, player) for player in sorted(set(players))],
            )

    async def guild_players(self, guild_id: int) -> list[str]:
        """The players seen in a Discord server (one range of the table's key), by id."""
        async with self._db.execute(
            "SELECT player_id FROM guild_players WHERE guild_id = ? ORDER BY player_id", (guild_id,)
        ) as cursor:
            return [str(row[0]) for row in await cursor.fetchall()]

    async def variants_played(self, game_type: str, limit: int = 200) -> list[str]:
        """The variants of a game type that rated games were played in, alphabetically, at most ``limit``: one
        index seek per variant (each finds the next name after the last), however many players played them."""
        async with self._db.execute(
            "WITH RECURSIVE found(name, n) AS ("
            " SELECT MIN(variant), 1 FROM rating_variants WHERE game_type = ?"
            " UNION ALL SELECT (SELECT MIN(variant) FROM rating_variants WHERE game_type = ? AND variant > found.name),"
            " n + 1 FROM found WHERE found.name IS NOT NULL AND n < ?)"
            " SELECT name FROM found WHERE name IS NOT NULL",
            (game_type, game_type, limit),
        ) as cursor:
            return [str(row[0]) for row in await cursor.fetchall()]

    async def rank_of(self, player_id: str, game_type: str) -> tuple[int, int] | None:
        """A player's place on a game type's leaderboard and how many players it holds (``None``: not rated)."""
        rows = await self.ratings_of(game_type, [player_id])
        mine = rows.get(player_id)
        if mine is None:
            return None
        async with self._db.execute(
            "SELECT COUNT(*) FROM ratings WHERE game_type = ? AND (score > ? OR (score = ? AND player_id < ?))",
            (game_type, mine.score, mine.score, player_id),
        ) as cursor:
            above = int((await cursor.fetchone())[0])
        async with self._db.execute("SELECT COUNT(*) FROM ratings WHERE game_type = ?", (game_type,)) as cursor:
            total = int((await cursor.fetchone())[0])
        return above + 1, total

    async def rating_changes(self, player_id: str, game_type: str | None = None) -> list[RatingChange]:
        """What every rated game did to a player's rating (in one game type, or all), in the order of rating."""
        sql = f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE player_id = ?"
        params: list[Any] = [player_id]
        if game_type is not None:
            sql += " AND game_type = ?"
            params.append(game_type)
        async with self._db.execute(sql + " ORDER BY seq, game_id", params) as cursor:
            return [change_row(r) for r in await cursor.fetchall()]

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a rated game did to its players' ratings (empty: not rated, or not over)."""
        async with self._db.execute(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY place, player_id", (game_id,)
        ) as cursor:
            return [change_row(r) for r in await cursor.fetchall()]

    async def variant_results(self, player_id: str) -> list[VariantRow]:
        """A player's results in every variant they played rated games of, by game type, most played first."""
        async with self._db.execute(
            f"SELECT {VARIANT_COLUMNS} FROM rating_variants WHERE player_id = ? ORDER BY game_type, games DESC,"
            " variant",
            (player_id,),
        ) as cursor:
            return [_variant_row(r) for r in await cursor.fetchall()]

    async def move_times(self, player_id: str) -> dict[str, tuple[float, int]]:
        """Per game type, the time a player took over their moves in rated games (seconds, from the action before
        each move, or the game's start) and how many moves that is. Rated games are those the ratings counted,
        as the games and results beside this figure: finished, not started ``-unrated``. Moves the server made
        for them (forced, queued) and resignations, timeouts and agreements are left out. The action before a
        move is the log entry before it (``seq`` numbers a game's log from 1 without gaps), found by its key: a
        busy player's 100,000 moves take a quarter of the time a window over their games' logs takes."""
        async with self._db.execute(
            "SELECT g.type, SUM(m.created_at - COALESCE(prior.created_at, g.created_at)), COUNT(*)"
            " FROM game_players p JOIN games g ON g.id = p.game_id JOIN moves m ON m.game_id = p.game_id"
            " LEFT JOIN moves prior ON prior.game_id = m.game_id AND prior.seq = m.seq - 1"
            " WHERE p.player_id = ? AND m.player_id = ? AND m.auto = 0"
            " AND m.text NOT IN ('resign', 'decline', 'timeout', 'draw', 'undo')"
            # SQLite reads the flag as 1, PostgreSQL as 'true'; a game without it (or without a clock) is rated
            f" AND g.status = 'finished' AND COALESCE(CAST({self._sql.game_unrated} AS TEXT), '') NOT IN ('1', 'true')"
            " GROUP BY g.type",
            (player_id, player_id),
        ) as cursor:
            return {str(r[0]): (float(r[1]), int(r[2])) for r in await cursor.fetchall()}

    async def shared_games(self, player_id: str, other_id: str) -> list[FinishedGame]:
        """The finished games two players both played, oldest first."""
        return await self._finished(
            " JOIN game_players a ON a.game_id = g.id AND a.player_id = ?"
            " JOIN game_players b ON b.game_id = g.id AND b.player_id = ?",
            [player_id, other_id],
            "g.id",
        )

    async def finished_games(self) -> list[FinishedGame]:
        """Every finished game in the order a rebuild rates them: games rated live in the order they were rated;
        before them, games that never were (they ended before ratings existed), in the order they ended."""
        return await self._finished("", [], "r.seq IS NOT NULL, r.seq, g.updated_at, g.id")

    async def _finished(self, joins: str, params: list[Any], order: str) -> list[FinishedGame]:
        field = self._sql.snapshot_field
        async with self._db.execute(
            f"SELECT g.id, g.type, g.options, {self._sql.game_unrated}, g.outcome,"
            f" {field.format(key='players')}, {field.format(key='resigned')}, g.updated_at, r.seq,"
            " m.length, CASE WHEN m.status = 'finished' AND mg.number = m.games THEN 1 ELSE 0 END FROM games g"
            f"{joins} LEFT JOIN (SELECT game_id, MIN(seq) AS seq FROM rating_changes GROUP BY game_id) r"
            " ON r.game_id = g.id LEFT JOIN match_games mg ON mg.game_id = g.id"
            f" LEFT JOIN matches m ON m.id = mg.match_id WHERE g.status = 'finished' ORDER BY {order}",
            params,
        ) as cursor:
            rows = await cursor.fetchall()
        out = []
        options: dict[str, dict[str, Any]] = {}  # most games share a few option sets: each is read once
        for row in rows:
            try:
                known = options.get(row[2])
                if known is None:
                    known = options[row[2]] = dict(json.loads(row[2]))
                out.append(
                    FinishedGame(
                        int(row[0]),
                        str(row[1]),
                        known,
                        row[3] in (1, "true"),
                        json.loads(row[4]),
                        json.loads(row[5]),
                        json.loads(row[6] or "[]"),
                        float(row[7]),
                        None if row[8] is None else int(row[8]),
                        None if row[9] is None else int(row[9]),
                        row[10] == 1,
                    )
                )
            except (TypeError, ValueError):
                continue  # a damaged game is reported when it is opened (and by pbm check)
        return out

    async def replace_ratings(
        self, ratings: Sequence[RatingRow], variants: Sequence[VariantRow], changes: Sequence[RatingChange]
    ) -> int:
        """Make the ratings, variant results and rating changes exactly these (a rebuild), in one transaction; how
        many rows that wrote or removed. Rows already stored as given are left alone: a rebuild that finds the
        live ratings exact writes nothing (and takes a third of the time of one that starts from nothing)."""
        written = 0
        async with self._larger_cache(), self.transaction() as db:
            for table, columns, keys, rows in (
                ("rating_changes", CHANGE_COLUMNS, ("game_id", "player_id"), changes),
                ("rating_variants", VARIANT_COLUMNS, ("player_id", "game_type", "variant"), variants),
                ("ratings", RATING_COLUMNS, ("player_id", "game_type"), ratings),
            ):
                async with db.execute(f"SELECT {columns} FROM {table}") as cursor:
                    stored = {tuple(row) for row in await cursor.fetchall()}
                # named tuples equal the plain tuples read when their values do; new rows keep their order (the
                # order of rating: an index filled in order is written a page at a time)
                fresh = [row for row in rows if row not in stored]
                stale = [row[: len(keys)] for row in stored.difference(rows)] if stored else []
                where = " AND ".join(f"{key} = ?" for key in keys)
                await db.executemany(f"DELETE FROM {table} WHERE {where}", stale)
                marks = ", ".join("?" for _ in columns.split(","))
                await db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", fresh)
                written += len(stale) + len(fresh)
        return written

    @asynccontextmanager
    async def _larger_cache(self) -> AsyncIterator[None]:
        """SQLite's page cache at 64 MiB for a rebuild (the default 2 MiB holds a tenth of the indexes of 250,000
        rating changes: writing them would evict and reread pages), back to what it was afterwards."""
        if not self._sql.is_sqlite:
            yield
            return
        async with self._db.execute("PRAGMA cache_size") as cursor:
            before = int((await cursor.fetchone())[0])
        await self._db.execute(f"PRAGMA cache_size = {-REBUILD_CACHE_KIB}")
        try:
            yield
        finally:
            await self._db.execute(f"PRAGMA cache_size = {before}")


_VARIANT_BOARD = (
    "SELECT r.player_id, r.game_type, r.mu, r.sigma, r.score, v.games, v.wins, v.losses, v.draws, v.points_won,"
    " v.points_lost, r.streak, r.updated_at FROM rating_variants v"
    " JOIN ratings r ON r.player_id = v.player_id AND r.game_type = v.game_type"
)


def change_row(row: Sequence[Any]) -> RatingChange:
    """A ``rating_changes`` row as read."""
    return RatingChange(
        int(row[0]),
        str(row[1]),
        int(row[2]),
        str(row[3]),
        str(row[4]),
        int(row[5]),
        str(row[6]),
        int(row[7]),
        *(float(value) for value in row[8:13]),
    )


def _variant_row(row: Sequence[Any]) -> VariantRow:
    return VariantRow(str(row[0]), str(row[1]), str(row[2]), float(row[3]), *(int(value) for value in row[4:10]))
