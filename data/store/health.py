"""What an operator's probes and the fronts' recovery ask of the database: whether it answers at all, how late the
oldest due timer is (the sweep's lag), whether a move that met a failure was logged after all, and a way to count
the database's failures (see :mod:`data.store.availability`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from data.store.core import CoreStore


class LoggedMove(NamedTuple):
    """One entry of a game's move log, as far as telling a player about their move needs: who and what."""

    player_id: str
    text: str


class HealthStore(CoreStore):
    """Probes of the database for ``/healthz``, ``/metrics`` and a move's recovery after a failure."""

    async def ping(self) -> None:
        """One round trip to the database (raises what the database raises: on PostgreSQL, within the store's
        timeout, :class:`data.store.DatabaseUnavailableError` when it cannot be used)."""
        async with self._db.execute("SELECT 1") as cursor:
            await cursor.fetchone()

    async def oldest_timer_due(self) -> float | None:
        """When the timer that is due soonest (or most overdue) falls due; ``None`` without timers. A timer is
        deleted when it is acted on, so one due long ago says the sweep is behind (one indexed lookup)."""
        async with self._db.execute("SELECT MIN(due_at) FROM timers") as cursor:
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else float(row[0])

    async def move_at(self, game_id: int, seq: int) -> LoggedMove | None:
        """The entry at place ``seq`` (from 1) of a game's move log, or ``None`` when the log is shorter: where a
        move guarded by the log length ``seq - 1`` went, if it was committed."""
        async with self._db.execute(
            "SELECT player_id, text FROM moves WHERE game_id = ? AND seq = ?", (game_id, seq)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else LoggedMove(str(row[0]), str(row[1]))

    def count_failures(self, listener: Callable[[str], None]) -> None:
        """Tell ``listener`` the kind of every failure of the database from now on ("unavailable", "timeout",
        "error"). Only PostgreSQL's connections report them; an SQLite file's errors come with the command that
        met them."""
        connection = self._conn
        if hasattr(connection, "on_error"):
            connection.on_error = listener
