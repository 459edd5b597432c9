"""Challenges as stored: made, read, answered under a guard (a second click, or two players answering at once,
changes nothing twice), and the lists of them (open, with open seats, expired)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.rows import ChallengeRow
from data.store.core import CoreStore, DamagedRowError, NotFoundError, StaleWriteError, _dumps, _loads, set_clause

_CHALLENGE_COLUMNS = (
    "id, type, options, players, accepted, status, game_id, guild_id, channel_id, message_id, created_at, expires_at,"
    " open_seats, joined, rating_min, rating_max"
)


class ChallengeStore(CoreStore):
    """Challenges (see the module docstring)."""

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
