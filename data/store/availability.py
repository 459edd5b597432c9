"""A database that cannot be used for a while: a PostgreSQL server stopped, restarting, unreachable, or hung.

Such a failure is not a bug and not a damaged database: the command that met it is rolled back whole (every command
is one transaction, see :mod:`data.store.unit`), the bot goes on, and the next command after the server is back
works without a restart. The store raises :class:`DatabaseUnavailableError` for it, so the fronts can say what is
wrong ("the database is unavailable; try again in a minute") instead of "something went wrong".

A hung server is found out by the statement timeout: no statement waits longer than the store's ``timeout``
(:data:`DEFAULT_TIMEOUT`), nor does getting a connection. One case stays uncertain: a ``COMMIT`` that was sent but
never answered may have been carried out by the server (``outcome_unknown``); whoever needs to know looks again
once the server answers (see :meth:`data.store.health.HealthStore.move_at`).

This module imports no database driver: the console's start-up on SQLite must not pay for PostgreSQL.
"""

from __future__ import annotations

#: seconds a statement (or getting a connection) may take before the database counts as unavailable
DEFAULT_TIMEOUT = 5.0


class DatabaseUnavailableError(Exception):
    """The database server could not be reached or did not answer in time; what the command wrote is rolled back,
    except, when ``outcome_unknown``, a commit that was sent and never answered: it may have been carried out.

    Not a :class:`data.store.StoreError`: those are answers about the data (no such game, a damaged row), and code
    that turns them into a refusal must not turn an outage into one."""

    def __init__(self, reason: str, *, outcome_unknown: bool = False) -> None:
        super().__init__(f"the database is unavailable ({reason})")
        self.reason = reason
        self.outcome_unknown = outcome_unknown
