"""All database access, in one place, split by concern: :mod:`data.store.core` (the connection, transactions,
migrations, backups), :mod:`data.store.games` (games, the move log, memories, listings),
:mod:`data.store.challenges`, :mod:`data.store.players` (players and their settings), :mod:`data.store.meta` (the
database's notes: boards still to be posted, claims of jobs), :mod:`data.store.copying` (``pbm db copy``),
:mod:`data.store.correspondence` (timers, vacations, proposals, conditional moves), :mod:`data.store.ratings`
(ratings, leaderboards; games are rated in the commit that ends them, :mod:`data.store.rate`),
:mod:`data.store.settings` (each server's settings, the moderators' audit log, the counts of the per-member limits),
:mod:`data.store.web` (the web front's sessions and sign-in links, and the versions of the games its pages watch),
:mod:`data.store.matches` (Backgammon matches and their games), :mod:`data.store.health` (what the operator's
probes ask, and whether a move that met a failure was logged) and :mod:`data.store.tournaments` (tournaments
and their games). :class:`Store` is all of it."""

from __future__ import annotations

from data.rows import (
    ChallengeRow,
    FinishedGame,
    GameRow,
    GameSummary,
    LogEntry,
    LogLine,
    LogRow,
    MatchRow,
    ProposalRow,
    QueuedLine,
    RatedGame,
    RatingChange,
    RatingRow,
    TimerRow,
    VacationRow,
    VariantRow,
)
from data.store.availability import DatabaseBusyError, DatabaseUnavailableError, unavailability
from data.store.challenges import ChallengeStore
from data.store.copying import CopyStore
from data.store.core import (
    MAX_GAME_ID,
    ClockWrite,
    DamagedRowError,
    DatabaseUnusableError,
    NotFoundError,
    OutOfDateError,
    StaleWriteError,
    StoreError,
    describe_database_error,
)
from data.store.games import GameStore
from data.store.health import HealthStore, LoggedMove
from data.store.matches import MatchStore
from data.store.players import PlayerStore
from data.store.rate import Rater, RatingWrite
from data.store.settings import AuditRow, ServerSettingsRow, SettingsStore
from data.store.tournaments import TournamentGame, TournamentRow, TournamentStore
from data.store.web import LinkUse, WebSession, WebStore

__all__ = [
    "MAX_GAME_ID",
    "AuditRow",
    "ChallengeRow",
    "ClockWrite",
    "DamagedRowError",
    "DatabaseBusyError",
    "DatabaseUnavailableError",
    "DatabaseUnusableError",
    "FinishedGame",
    "GameRow",
    "GameSummary",
    "LinkUse",
    "LogEntry",
    "LogLine",
    "LogRow",
    "LoggedMove",
    "MatchRow",
    "NotFoundError",
    "OutOfDateError",
    "ProposalRow",
    "QueuedLine",
    "RatedGame",
    "Rater",
    "RatingChange",
    "RatingRow",
    "RatingWrite",
    "ServerSettingsRow",
    "StaleWriteError",
    "Store",
    "StoreError",
    "TimerRow",
    "TournamentGame",
    "TournamentRow",
    "VacationRow",
    "VariantRow",
    "WebSession",
    "describe_database_error",
    "unavailability",
]


class Store(
    TournamentStore, SettingsStore, MatchStore, WebStore, HealthStore, GameStore, ChallengeStore, PlayerStore, CopyStore
):
    """The database. Create with :meth:`open`; use as an async context manager or call :meth:`close`."""
