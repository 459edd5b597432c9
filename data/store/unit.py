"""A command's writes as one transaction (see :meth:`data.store.core.CoreStore.atomic`).

The store's methods each write in a transaction of their own, which is all a one-write command needs. A command
that writes several times (a vacation ending: the bank, its timer, every paused clock) must not stop halfway: a
failure between two writes would leave the first ones behind, and a game paused for a vacation nobody is on. Inside
:meth:`~data.store.core.CoreStore.atomic` the store's transactions join one transaction of the command, its
*unit*, which commits when the command ends and is rolled back entirely when it raises.

The unit is opened by the command's first write, not when the command starts: a command that only reads, or is
refused before it writes, takes no lock, and a move's reads before its commit run as they always did. Every write
after the first is a savepoint inside the unit, so a guarded write that fails (:class:`StaleWriteError`) undoes
itself alone and the command goes on, as it did when each write was its own transaction. A command that must wait
for something slow that needs no database (a computer player thinking) commits what it wrote so far and lets go
of the unit meanwhile (:meth:`~data.store.core.CoreStore.suspended`): other writers are never kept waiting on a
search.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from data.store.core import CoreStore


def current_owner() -> object:
    """Whose unit a write joins: the running asyncio task (the bot's coroutines each have their own), or ``None``
    where no event loop runs (the console drives one command at a time, see :mod:`data.connection`). asyncio is
    only looked at when something imported it, so the console does not load it for this."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return None
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop is running in this thread
        return None


class Unit:
    """The transaction of one command: opened by its first write, committed when the command ends."""

    def __init__(self, store: CoreStore) -> None:
        self._store = store
        #: what holds the store's write lock (SQLite) or a pooled connection (PostgreSQL) while the unit is open
        self._holding: AsyncExitStack | None = None
        #: savepoints open now, one per store transaction running inside the unit
        self._savepoints = 0
        #: what to do once the unit's writes are committed (and never, if they are rolled back)
        self._after: list[Callable[[], None]] = []

    @property
    def open(self) -> bool:
        return self._holding is not None

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once what the unit wrote is committed; at once when nothing is pending."""
        if self._holding is None:
            callback()
        else:
            self._after.append(callback)

    @asynccontextmanager
    async def step(self) -> AsyncIterator[Any]:
        """One of the store's transactions inside the unit. The first opens the unit: if it fails, nothing came
        before it, and the whole unit is rolled back (it opens again at the next write). Later ones are
        savepoints, undone alone when they fail."""
        store = self._store
        if self._holding is None:
            await self._begin()
            try:
                yield store._conn
            except BaseException as exc:
                await self.end(commit=False)
                store._raise_conflict(exc)
                raise
            return
        self._savepoints += 1
        name = f"pbm_step_{self._savepoints}"
        try:
            await store._conn.execute(f"SAVEPOINT {name}")
            try:
                yield store._conn
            except BaseException as exc:
                await store._conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                await store._conn.execute(f"RELEASE SAVEPOINT {name}")
                store._raise_conflict(exc)
                raise
            await store._conn.execute(f"RELEASE SAVEPOINT {name}")
        finally:
            self._savepoints -= 1

    async def _begin(self) -> None:
        holding = AsyncExitStack()
        await holding.enter_async_context(self._store._holding())
        try:
            await self._store._begin()
        except BaseException:
            await holding.aclose()
            raise
        self._holding = holding

    async def end(self, *, commit: bool) -> None:
        """Commit (or roll back) what the unit wrote and let go of the lock or connection; the unit opens again at
        its next write. Refused while one of the store's transactions runs inside it: that transaction would
        lose its savepoint."""
        if self._holding is None:
            return
        if self._savepoints and commit:
            raise RuntimeError("a unit cannot commit while one of its transactions is still running")
        holding, self._holding = self._holding, None
        after, self._after = self._after, []
        conn = self._store._conn
        try:
            if not commit:
                await conn.execute("ROLLBACK")
                return
            try:
                await conn.execute("COMMIT")
            except BaseException as exc:
                with suppress(*self._store._sql.errors):  # PostgreSQL ended it already; SQLite may keep it open
                    await conn.execute("ROLLBACK")
                self._store._raise_conflict(exc)
                raise
        finally:
            await holding.aclose()
        for callback in after:
            callback()


class Units:
    """What :class:`data.store.core.CoreStore` offers commands: their writes as one transaction."""

    _units: dict[object, Unit]

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """Everything the block writes is one transaction: committed when it ends, rolled back entirely when it
        raises (see :mod:`data.store.unit`). Each command runs in one, so a failure halfway leaves nothing behind.
        A block inside another joins it."""
        owner = current_owner()
        if owner in self._units:
            yield
            return
        unit = self._units[owner] = Unit(cast("CoreStore", self))
        try:
            try:
                yield
            except BaseException:
                await unit.end(commit=False)
                raise
            await unit.end(commit=True)
        finally:
            del self._units[owner]

    @asynccontextmanager
    async def suspended(self) -> AsyncIterator[None]:
        """Around something slow that needs no database (a computer player thinking): what the command wrote so
        far is committed first, and its lock or connection let go of, so no other writer waits on it. The
        command's next write opens its transaction again."""
        unit = self._units.get(current_owner())
        if unit is not None:
            await unit.end(commit=True)
        yield

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once what the current command wrote is committed (at once outside :meth:`atomic`)."""
        unit = self._units.get(current_owner())
        if unit is None:
            callback()
        else:
            unit.after_commit(callback)
