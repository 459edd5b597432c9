"""Rating a finished game inside the transaction that ends it, so a rating never misses a game nor counts one twice:
the guarded commit of the game's last actions (:meth:`data.store.games.GameStore.commit_actions`) calls
:func:`write_rating` after its guard held, and everything is one transaction.

The store knows no rating formula: a :class:`Rater` (``bot.ratings``) gives a new player's rating and works out
the ratings after a game from those before it. The store reads the players' ratings under a row lock (PostgreSQL:
``FOR UPDATE``, in player order, so two games that share players wait for each other instead of deadlocking;
SQLite's write transaction is exclusive anyway), hands them to the rater, and writes what it gives back, with the
game's row per player in ``rating_changes`` and the players' results per variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from data.rows import RatedGame, RatingChange, RatingRow
from data.store.dialect import Dialect

if TYPE_CHECKING:
    from data.store.core import Connection

RATING_COLUMNS = (
    "player_id, game_type, mu, sigma, score, games, wins, losses, draws, points_won, points_lost, streak, updated_at"
)
CHANGE_COLUMNS = (
    "game_id, player_id, seq, game_type, variant, place, result, points, mu_before, sigma_before, mu_after,"
    " sigma_after, created_at"
)
VARIANT_COLUMNS = "player_id, game_type, variant, score, games, wins, losses, draws, points_won, points_lost"


class Rater(Protocol):
    """The rating formula, as the store needs it."""

    def fresh(self, player_id: str, game_type: str, now: float) -> RatingRow:
        """The rating of a player who has not played a rated game of ``game_type`` yet."""
        ...

    def rate(self, game: RatedGame, before: Sequence[RatingRow], now: float) -> list[RatingRow]:
        """Every player's rating after ``game`` (in the order of ``game.players``), from their ratings before it."""
        ...


class RatingWrite(NamedTuple):
    """A finished game to rate in the commit that ends it, and the formula to rate it with."""

    game: RatedGame
    rater: Rater


async def write_rating(
    db: Connection, sql: Dialect, game_id: int, write: RatingWrite, now: float
) -> list[RatingChange]:
    """Rate a finished game inside the caller's transaction: update its players' ratings and variant results, and
    record what changed (the rows written to ``rating_changes``, in the order of ``write.game.players``)."""
    game, rater = write.game, write.rater
    players = sorted(set(game.players))
    await db.executemany(
        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ({_marks(13)}) ON CONFLICT(player_id, game_type) DO NOTHING",
        [tuple(rater.fresh(player, game.game_type, now)) for player in players],
    )
    async with db.execute(
        f"SELECT {RATING_COLUMNS} FROM ratings WHERE game_type = ? AND player_id IN ({_marks(len(players))})"
        f" ORDER BY player_id{sql.for_update}",
        (game.game_type, *players),
    ) as cursor:
        current = {row.player_id: row for row in map(rating_row, await cursor.fetchall())}
    before = [current[player] for player in game.players]
    after = rater.rate(game, before, now)
    # read only now, under the players' row locks: a game sharing a player with this one committed before it
    async with db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM rating_changes") as cursor:
        seq = int((await cursor.fetchone())[0])
    await db.executemany(
        "UPDATE ratings SET mu = ?, sigma = ?, score = ?, games = ?, wins = ?, losses = ?, draws = ?,"
        " points_won = ?, points_lost = ?, streak = ?, updated_at = ? WHERE player_id = ? AND game_type = ?",
        [(*row[2:], row.player_id, row.game_type) for row in after],
    )
    await db.executemany(
        "UPDATE rating_variants SET score = ? WHERE player_id = ? AND game_type = ?",
        [(row.score, row.player_id, row.game_type) for row in after],
    )
    await db.executemany(
        f"INSERT INTO rating_variants ({VARIANT_COLUMNS}) VALUES ({_marks(10)})"
        " ON CONFLICT(player_id, game_type, variant) DO UPDATE SET score = excluded.score,"
        " games = rating_variants.games + 1, wins = rating_variants.wins + excluded.wins,"
        " losses = rating_variants.losses + excluded.losses, draws = rating_variants.draws + excluded.draws,"
        " points_won = rating_variants.points_won + excluded.points_won,"
        " points_lost = rating_variants.points_lost + excluded.points_lost",
        [variant_increment(game, index, row.score) for index, row in enumerate(after)],
    )
    changes = [
        RatingChange(
            game_id,
            player,
            seq,
            game.game_type,
            game.variant,
            game.places[index],
            game.results[index],
            game.points[index],
            before[index].mu,
            before[index].sigma,
            after[index].mu,
            after[index].sigma,
            now,
        )
        for index, player in enumerate(game.players)
    ]
    await db.executemany(f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ({_marks(13)})", changes)
    return changes


def variant_increment(game: RatedGame, index: int, score: float) -> tuple[Any, ...]:
    """The row one game adds to a player's results in its variant (the ``rating_variants`` columns)."""
    result, points = game.results[index], game.points[index]
    return (
        game.players[index],
        game.game_type,
        game.variant,
        score,
        1,
        int(result == "win"),
        int(result == "loss"),
        int(result == "draw"),
        max(points, 0),
        max(-points, 0),
    )


def rating_row(row: Sequence[Any]) -> RatingRow:
    """A ``ratings`` row as read (the columns of :data:`RATING_COLUMNS`)."""
    return RatingRow(
        str(row[0]),
        str(row[1]),
        float(row[2]),
        float(row[3]),
        float(row[4]),
        *(int(value) for value in row[5:12]),
        float(row[12]),
    )


def _marks(count: int) -> str:
    return ", ".join("?" for _ in range(count))
