"""Backgammon matches as stored: one row per match (length, players, score, how it ended) and the link of each of its
games to it, in order (migration 9).

A match's games are made by the same commands as every game (:meth:`data.store.games.GameStore.create_game`); this
store links them and keeps the match's row up to date. A match's game number is its link table's key, so the next
game of a match is started once however many processes end the game before it at the same moment: the second link
is refused as a :class:`StaleWriteError` (and the commit that ended the game was refused before it, by the move
log's guard). Every write joins the command's transaction (see :mod:`data.store.unit`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from data.rows import MatchRow
from data.store.core import UNPOSTED_PREFIX, DamagedRowError, NotFoundError, StaleWriteError
from data.store.meta import MetaStore

_MATCH_COLUMNS = "id, length, players, score, games, status, winner, created_at, updated_at"


class MatchStore(MetaStore):
    """Matches: started, their games linked, their score and end recorded, read back."""

    async def create_match(self, length: int, players: Sequence[str]) -> int:
        """A new match to ``length`` points between ``players`` (seat order), at 0-0 with no game yet; its id."""
        now = self.now()
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO matches (length, players, score, games, status, created_at, updated_at)"
                " VALUES (?, ?, ?, 0, 'active', ?, ?)" + self._sql.returning_id,
                (length, json.dumps(list(players)), json.dumps([0, 0]), now, now),
            )
            return int(cursor.lastrowid)

    async def link_match_game(self, match_id: int, number: int, game_id: int) -> None:
        """Game ``game_id`` is game ``number`` of the match; :class:`StaleWriteError` when that number is taken
        (another process started it) or the match is over."""
        now = self.now()
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET games = ?, updated_at = ? WHERE id = ? AND games = ? AND status = 'active'",
                (number, now, match_id, number - 1),
            )
            if cursor.rowcount != 1:
                raise StaleWriteError(f"game {number} of match {match_id} was started meanwhile")
            await db.execute(
                "INSERT INTO match_games (match_id, number, game_id) VALUES (?, ?, ?)", (match_id, number, game_id)
            )

    async def record_match(
        self, match_id: int, score: Sequence[int], *, status: str = "active", winner: str | None = None
    ) -> None:
        """The match's score after a game, and (``status`` ``finished`` or ``cancelled``) how it ended."""
        await self.write(
            "UPDATE matches SET score = ?, status = ?, winner = ?, updated_at = ? WHERE id = ?",
            (json.dumps(list(score)), status, winner, self.now(), match_id),
        )

    async def load_match(self, match_id: int) -> MatchRow:
        """The match; :class:`NotFoundError` if there is none, :class:`DamagedRowError` if it cannot be read."""
        async with self._db.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise NotFoundError(f"there is no match {match_id}")
        return _match_row(row)

    async def pass_unposted(self, from_game: int, to_game: int) -> None:
        """A board of ``from_game`` still to be posted becomes ``to_game``'s, under the same mark: the game ended
        and its match's next game started, whose board is the one the front posts (with that mark's nonce), or
        the sweep posts after a crash. Nothing when ``from_game`` has no mark."""
        mark = await self.get_meta(f"{UNPOSTED_PREFIX}{from_game}")
        if mark is None:
            return
        await self.mark_unposted(to_game, mark)
        await self.clear_unposted(from_game, (mark,))

    async def match_game_ids(self, match_id: int) -> list[int]:
        """The games of a match, in the order they were played."""
        async with self._db.execute(
            "SELECT game_id FROM match_games WHERE match_id = ? ORDER BY number", (match_id,)
        ) as cursor:
            return [int(row[0]) for row in await cursor.fetchall()]


def _match_row(row: Sequence[Any]) -> MatchRow:
    try:
        return MatchRow(
            int(row[0]),
            int(row[1]),
            [str(p) for p in json.loads(row[2])],
            [int(s) for s in json.loads(row[3])],
            int(row[4]),
            str(row[5]),
            None if row[6] is None else str(row[6]),
            float(row[7]),
            float(row[8]),
        )
    except (TypeError, ValueError) as exc:
        raise DamagedRowError(f"match {row[0]} is damaged ({exc})") from exc
