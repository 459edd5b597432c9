"""All database access, in one place, split by concern: :mod:`data.store.core` (the connection, migrations,
players, games, the move log, challenges, settings) and :mod:`data.store.correspondence` (timers, vacations,
proposals, conditional moves). :class:`Store` is all of it."""

from __future__ import annotations

from data.rows import (
    ChallengeRow,
    GameRow,
    GameSummary,
    LogEntry,
    LogLine,
    LogRow,
    ProposalRow,
    QueuedLine,
    TimerRow,
    VacationRow,
)
from data.store.core import (
    MAX_GAME_ID,
    ClockWrite,
    DamagedRowError,
    DatabaseUnusableError,
    NotFoundError,
    StaleWriteError,
    StoreError,
    describe_database_error,
)
from data.store.correspondence import CorrespondenceStore

__all__ = [
    "MAX_GAME_ID",
    "ChallengeRow",
    "ClockWrite",
    "DamagedRowError",
    "DatabaseUnusableError",
    "GameRow",
    "GameSummary",
    "LogEntry",
    "LogLine",
    "LogRow",
    "NotFoundError",
    "ProposalRow",
    "QueuedLine",
    "StaleWriteError",
    "Store",
    "StoreError",
    "TimerRow",
    "VacationRow",
    "describe_database_error",
]


class Store(CorrespondenceStore):
    """The database. Create with :meth:`open`; use as an async context manager or call :meth:`close`."""
