"""The correspondence tables: timers (every due time, in one table), vacation banks, takeback and draw proposals,
and conditional moves.

A timer is claimed by deleting its row inside the transaction that acts on it: of two processes that read the
same due row, one deletes it and acts, the other finds nothing to delete and does nothing (timer ids are never
reused, so the other cannot delete a successor by mistake). A game's clock timer
is claimed together with the write of its clock (:class:`data.store.core.ClockWrite`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.rows import ProposalRow, QueuedLine, TimerRow, VacationRow
from data.store.core import (
    ClockWrite,
    CoreStore,
    DamagedRowError,
    NotFoundError,
    StaleWriteError,
    _dumps,
    _loads,
    _write_clock,
    insert_timer,
    set_clause,
)

#: an active game as a vacation switch needs it: id, log length, clock, player to move, clock timer id
ClockGame = tuple[int, int, dict[str, Any] | None, str | None, int | None]

_PROPOSAL_COLUMNS = (
    "id, game_id, kind, proposer, log_length, accepted, status, channel_id, message_id, created_at, expires_at"
)


class CorrespondenceStore(CoreStore):
    """Timers, vacations, proposals and queued lines (see the module docstring)."""

    # ---- timers --------------------------------------------------------------------------------------------

    async def due_timers(self, now: float, limit: int = 1000) -> list[TimerRow]:
        """Timers due at ``now``, earliest first: one index range scan, however many games are running."""
        async with self._db.execute(
            "SELECT id, due_at, kind, game_id, player_id, ref, data FROM timers WHERE due_at <= ?"
            " ORDER BY due_at LIMIT ?",
            (now, limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_timer_row(r) for r in rows]

    async def add_timer(
        self,
        kind: str,
        due_at: float,
        *,
        game_id: int | None = None,
        player_id: str | None = None,
        ref: int | None = None,
        data: dict[str, Any] | None = None,
    ) -> int:
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO timers (due_at, kind, game_id, player_id, ref, data) VALUES (?, ?, ?, ?, ?, ?)"
                + self._sql.returning_id,
                (due_at, kind, game_id, player_id, ref, _dumps(data or {})),
            )
            return int(cursor.lastrowid)

    async def hold_ping(
        self, game_id: int, player_id: str, due_at: float, *, move_number: int | None, news: str | None
    ) -> None:
        """Hold a ping for a player through their quiet hours until ``due_at``: ``news`` to tell them, or (``None``)
        their turn at ``move_number``. What is already held for them in that game is merged in: one ``deliver``
        timer, due at the earliest, with each piece of news once, in order, and the latest turn (the move it is
        about is the timer's ``ref``). A timer held by an older pbm (its text written out) is left as it is."""
        async with self.transaction() as db:
            async with db.execute(
                "SELECT id, due_at, ref, data FROM timers WHERE game_id = ? AND player_id = ? AND kind = 'deliver'"
                + self._sql.for_update,
                (game_id, player_id),
            ) as cursor:
                rows = await cursor.fetchall()
            lines: list[str] = []
            turn, ref, due = news is None, move_number if news is None else None, due_at
            for r in rows:
                try:
                    data = _loads(r[3], f"timer {r[0]}")
                except DamagedRowError:
                    continue
                if "news" not in data:
                    continue
                lines += [str(line) for line in data["news"]]
                if data.get("turn") and not turn:
                    turn, ref = True, None if r[2] is None else int(r[2])
                due = min(due, float(r[1]))
                await db.execute("DELETE FROM timers WHERE id = ?", (r[0],))
            merged = {"news": list(dict.fromkeys([*lines, *([] if news is None else [news])])), "turn": turn}
            await db.execute(
                "INSERT INTO timers (due_at, kind, game_id, player_id, ref, data) VALUES (?, 'deliver', ?, ?, ?, ?)",
                (due, game_id, player_id, ref, _dumps(merged)),
            )

    async def claim_timer(self, timer_id: int) -> bool:
        """Take a due timer for this process: ``True`` once, ``False`` to everyone else (it was already taken)."""
        async with self.transaction() as db:
            cursor = await db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
            return cursor.rowcount == 1

    async def delete_timers(self, kind: str, *, player_id: str | None = None, ref: int | None = None) -> None:
        """Forget the timers of ``kind`` for a player or a reference (a vacation ended by hand, a proposal
        answered)."""
        sql, params = "DELETE FROM timers WHERE kind = ?", [kind]
        if player_id is not None:
            sql += " AND player_id = ?"
            params.append(player_id)
        if ref is not None:
            sql += " AND ref = ?"
            params.append(ref)
        async with self.transaction() as db:
            await db.execute(sql, params)

    async def update_clock(self, game_id: int, expected_log_length: int, write: ClockWrite) -> None:
        """Write a game's clock alone (a warning sent, a pause for vacation), only if the game still has
        ``expected_log_length`` logged actions and (with ``write.claim``) its clock timer is the one read;
        otherwise :class:`StaleWriteError` and nothing is written."""
        async with self.transaction() as db:
            async with db.execute(
                "SELECT log_length FROM games WHERE id = ?" + self._sql.for_update, (game_id,)
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                raise NotFoundError(f"there is no game {game_id}")
            if int(row[0]) != expected_log_length:
                raise StaleWriteError(f"game {game_id} changed meanwhile")
            await _write_clock(db, game_id, write)
            if self._sql.notify_change is not None:  # a paused or resumed clock shows on the game's web page
                await db.execute(self._sql.notify_change, (str(game_id),))

    async def clock_games_of(
        self, player_id: str
    ) -> list[tuple[int, int, dict[str, Any] | None, str | None, int | None]]:
        """The active games of a player as a vacation switch needs them: (game id, log length, clock, player to
        move, clock timer id)."""
        async with self._db.execute(
            "SELECT g.id, g.log_length, g.clock, g.to_move,"
            " (SELECT id FROM timers t WHERE t.game_id = g.id AND t.kind = 'clock' ORDER BY id LIMIT 1)"
            " FROM game_players p JOIN games g ON g.id = p.game_id"
            " WHERE p.player_id = ? AND g.status = 'active' ORDER BY g.id",
            (player_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        out = []
        for r in rows:
            try:
                clock = None if r[2] is None else _loads(r[2], f"game {r[0]}")
            except DamagedRowError:
                continue  # a damaged game is reported when it is opened
            out.append((int(r[0]), int(r[1]), clock, r[3], r[4]))
        return out

    # ---- vacations -----------------------------------------------------------------------------------------

    async def player_since(self, player_id: str) -> float | None:
        """When a player was first seen (membership, for the vacation bank)."""
        async with self._db.execute("SELECT created_at FROM players WHERE id = ?", (player_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else float(row[0])

    async def vacation(self, player_id: str) -> VacationRow | None:
        async with self._db.execute(
            "SELECT balance, as_of, since FROM vacations WHERE player_id = ?", (player_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return (
            None
            if row is None
            else VacationRow(float(row[0]), float(row[1]), None if row[2] is None else float(row[2]))
        )

    async def set_vacation(self, player_id: str, vacation: VacationRow) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING",
                (player_id, vacation.as_of),
            )
            await db.execute(
                "INSERT INTO vacations (player_id, balance, as_of, since) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(player_id) DO UPDATE SET balance = excluded.balance, as_of = excluded.as_of,"
                " since = excluded.since",
                (player_id, vacation.balance, vacation.as_of, vacation.since),
            )

    async def player_settings(self, player_id: str) -> tuple[str | None, str | None, bool, str | None, str | None]:
        """What a player's clocks depend on and how they want their turns handled, in one query: their time zone
        and quiet hours settings, whether they are on vacation, and their ``confirm`` and ``notify_dm`` settings
        (``None`` when unset)."""
        async with self._db.execute(
            "SELECT (SELECT value FROM settings WHERE player_id = ? AND key = 'tz'),"
            " (SELECT value FROM settings WHERE player_id = ? AND key = 'quiet'),"
            " EXISTS (SELECT 1 FROM vacations WHERE player_id = ? AND since IS NOT NULL),"
            " (SELECT value FROM settings WHERE player_id = ? AND key = 'confirm'),"
            " (SELECT value FROM settings WHERE player_id = ? AND key = 'notify_dm')",
            (player_id,) * 5,
        ) as cursor:
            row = await cursor.fetchone()
        return row[0], row[1], bool(row[2]), row[3], row[4]

    # ---- proposals -----------------------------------------------------------------------------------------

    async def create_proposal(
        self, game_id: int, kind: str, proposer: str, log_length: int, *, expires_at: float | None
    ) -> int:
        """Store an open proposal for the position after ``log_length`` actions (the proposer agrees by making it),
        unless the game already has one that holds: open, made in this position, and not yet expired (one whose
        time is up counts as rejected from then on, before the sweep tells its proposer).
        :class:`StaleWriteError` when it has one."""
        now = self.now()
        async with self.transaction() as db:
            if self._sql.for_update:  # two processes proposing at once: the second waits, then sees the first
                await db.execute("SELECT id FROM games WHERE id = ?" + self._sql.for_update, (game_id,))
            async with db.execute(
                "SELECT id FROM proposals WHERE game_id = ? AND status = 'open' AND log_length = ?"
                " AND (expires_at IS NULL OR expires_at > ?)",
                (game_id, log_length, now),
            ) as cursor:
                if await cursor.fetchone() is not None:
                    raise StaleWriteError(f"game {game_id} already has an open proposal")
            cursor = await db.execute(
                "INSERT INTO proposals (game_id, kind, proposer, log_length, accepted, status, created_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?, 'open', ?, ?)" + self._sql.returning_id,
                (game_id, kind, proposer, log_length, _dumps([proposer]), now, expires_at),
            )
            proposal_id = int(cursor.lastrowid)
            if expires_at is not None:
                await insert_timer(db, expires_at, "proposal", game_id=game_id, ref=proposal_id)
            return proposal_id

    async def load_proposal(self, proposal_id: int) -> ProposalRow:
        async with self._db.execute(
            f"SELECT {_PROPOSAL_COLUMNS} FROM proposals WHERE id = ?", (proposal_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise NotFoundError(f"there is no proposal {proposal_id}")
        return _proposal_row(row)

    async def last_proposal(self, game_id: int) -> ProposalRow | None:
        """A game's latest proposal, whatever became of it (``None``: it never had one)."""
        async with self._db.execute(
            f"SELECT {_PROPOSAL_COLUMNS} FROM proposals WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _proposal_row(row)

    async def open_proposal(self, game_id: int) -> ProposalRow | None:
        async with self._db.execute(
            f"SELECT {_PROPOSAL_COLUMNS} FROM proposals WHERE game_id = ? AND status = 'open' ORDER BY id DESC LIMIT 1",
            (game_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _proposal_row(row)

    async def update_proposal(
        self,
        proposal_id: int,
        *,
        status: str | None = None,
        accepted: Sequence[str] | None = None,
        message_id: int | None = None,
        channel_id: int | None = None,
    ) -> None:
        """Change an open proposal (a second answer to a closed one changes nothing: :class:`StaleWriteError`);
        closing it forgets its timer."""
        sets, params = set_clause(status=status, message_id=message_id, channel_id=channel_id, accepted=accepted)
        async with self.transaction() as db:
            cursor = await db.execute(
                f"UPDATE proposals SET {sets} WHERE id = ? AND status = 'open'", (*params, proposal_id)
            )
            if cursor.rowcount != 1:
                raise StaleWriteError(f"proposal {proposal_id} has already been settled")
            if status is not None and status != "open":
                await db.execute("DELETE FROM timers WHERE kind = 'proposal' AND ref = ?", (proposal_id,))

    async def forget_proposal_message(self, proposal_id: int) -> None:
        """A settled proposal's message was closed (its buttons removed): forget where it is, so it is closed
        once. An open proposal keeps its message."""
        await self.write(
            "UPDATE proposals SET channel_id = NULL, message_id = NULL WHERE id = ? AND status != 'open'",
            (proposal_id,),
        )

    # ---- conditional moves ---------------------------------------------------------------------------------

    async def queued_lines(self, game_id: int, player_id: str | None = None) -> list[QueuedLine]:
        """A player's stored lines for a game (everyone's with ``player_id`` ``None``), oldest first."""
        sql = "SELECT id, game_id, player_id, moves FROM queued_lines WHERE game_id = ?"
        params: list[Any] = [game_id]
        if player_id is not None:
            sql += " AND player_id = ?"
            params.append(player_id)
        async with self._db.execute(sql + " ORDER BY id", params) as cursor:
            rows = await cursor.fetchall()
        return [
            QueuedLine(int(r[0]), int(r[1]), str(r[2]), _loads(r[3], f"a queued line of game {game_id}")) for r in rows
        ]

    async def add_queued_line(self, game_id: int, player_id: str, moves: Sequence[str]) -> int:
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO queued_lines (game_id, player_id, moves, created_at) VALUES (?, ?, ?, ?)"
                + self._sql.returning_id,
                (game_id, player_id, _dumps(list(moves)), self.now()),
            )
            return int(cursor.lastrowid)

    async def replace_queued_lines(
        self, game_id: int, player_id: str | None, lines: Sequence[Sequence[str]] = ()
    ) -> None:
        """Replace a player's lines (everyone's with ``player_id`` ``None``, then ``lines`` must be empty)."""
        async with self.transaction() as db:
            if player_id is None:
                await db.execute("DELETE FROM queued_lines WHERE game_id = ?", (game_id,))
                return
            await db.execute("DELETE FROM queued_lines WHERE game_id = ? AND player_id = ?", (game_id, player_id))
            now = self.now()
            await db.executemany(
                "INSERT INTO queued_lines (game_id, player_id, moves, created_at) VALUES (?, ?, ?, ?)",
                [(game_id, player_id, _dumps(list(line)), now) for line in lines],
            )


def _timer_row(r: Sequence[Any]) -> TimerRow:
    return TimerRow(
        id=int(r[0]),
        due_at=float(r[1]),
        kind=str(r[2]),
        game_id=None if r[3] is None else int(r[3]),
        player_id=r[4],
        ref=None if r[5] is None else int(r[5]),
        data=_loads(r[6], f"timer {r[0]}"),
    )


def _proposal_row(r: Sequence[Any]) -> ProposalRow:
    return ProposalRow(
        id=int(r[0]),
        game_id=int(r[1]),
        kind=str(r[2]),
        proposer=str(r[3]),
        log_length=int(r[4]),
        accepted=_loads(r[5], f"proposal {r[0]}"),
        status=str(r[6]),
        channel_id=r[7],
        message_id=r[8],
        created_at=float(r[9]),
        expires_at=None if r[10] is None else float(r[10]),
    )


__all__ = ["ClockWrite", "CorrespondenceStore"]
