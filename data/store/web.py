"""What the web front keeps: sessions (a browser signed in as a player), one-time sign-in links, and how the pages
of running games learn that a game changed.

Tokens are never stored: the caller hands in each token's SHA-256 (see :mod:`bot.signin`), so reading the database
does not let anyone sign in. Every row has an expiry; rows past it are deleted when new ones are written, and a
lookup never returns one.

A game's *version* is what a page watching it compares: its log length, its deadline and its status, read for many
games in one indexed query (:meth:`WebStore.game_versions`). On SQLite that is polled; on PostgreSQL the commit that
changes a game also sends a NOTIFY (:data:`data.store.dialect.CHANGES_CHANNEL`) that :meth:`WebStore.listen_for_changes`
hears, from any process.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple

from data.store.ratings import RatingStore

#: how many games one version query asks about at most (SQLite allows 32,766 parameters; well below)
VERSION_BATCH = 500


class WebSession(NamedTuple):
    """A signed-in browser: the player, the token its forms carry, whether trusted local play made it, and when it
    ends (POSIX time)."""

    player_id: str
    csrf: str
    trusted: bool
    expires_at: float


class LinkUse(NamedTuple):
    """What using a sign-in link gave: the player (``None`` when refused) and, when refused, why in a few words
    (``unknown``, ``used``, ``expired``)."""

    player_id: str | None
    problem: str | None


#: a game's version as watchers compare it: log length, deadline, status
Version = tuple[int, float | None, str]


class WebStore(RatingStore):
    """Sessions, sign-in links and game versions (see the module docstring)."""

    # ---- sessions ------------------------------------------------------------------------------------------

    async def create_web_session(
        self, key: str, player_id: str, csrf: str, *, expires_at: float, trusted: bool = False
    ) -> None:
        """A new session under ``key`` (the SHA-256 of its cookie's token); the player is recorded if new.
        Sessions already expired are cleared in the same transaction."""
        now = self.now()
        async with self.transaction() as db:
            await db.execute("DELETE FROM web_sessions WHERE expires_at <= ?", (now,))
            await db.execute(
                "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING", (player_id, now)
            )
            await db.execute(
                "INSERT INTO web_sessions (id, player_id, csrf, trusted, created_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (key, player_id, csrf, int(trusted), now, expires_at),
            )

    async def web_session(self, key: str) -> WebSession | None:
        """The session under ``key`` if it has not expired."""
        async with self._db.execute(
            "SELECT player_id, csrf, trusted, expires_at FROM web_sessions WHERE id = ? AND expires_at > ?",
            (key, self.now()),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return WebSession(str(row[0]), str(row[1]), bool(row[2]), float(row[3]))

    async def end_web_session(self, key: str) -> None:
        """Sign one browser out."""
        await self.write("DELETE FROM web_sessions WHERE id = ?", (key,))

    async def end_web_sessions(self, player_id: str) -> int:
        """Sign a player out everywhere; how many sessions that ended (expired ones not counted)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM web_sessions WHERE player_id = ? AND expires_at > ?", (player_id, self.now())
            )
            ended = max(cursor.rowcount, 0)
            await db.execute("DELETE FROM web_sessions WHERE player_id = ?", (player_id,))
        return ended

    # ---- one-time links ------------------------------------------------------------------------------------

    async def create_web_link(self, key: str, player_id: str, *, expires_at: float) -> None:
        """A sign-in link for ``player_id`` under ``key`` (the SHA-256 of its token); the player is recorded if
        new. Links already expired are cleared in the same transaction."""
        now = self.now()
        async with self.transaction() as db:
            await db.execute("DELETE FROM web_links WHERE expires_at <= ?", (now,))
            await db.execute(
                "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING", (player_id, now)
            )
            await db.execute(
                "INSERT INTO web_links (id, player_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                (key, player_id, now, expires_at),
            )

    async def use_web_link(self, key: str) -> LinkUse:
        """Use the link under ``key``: its player, once. A second use, or a use after it expired, is refused; of
        two processes using it at the same moment, one gets the player (the row is locked and re-read)."""
        now = self.now()
        async with self.transaction() as db:
            async with db.execute(
                "SELECT player_id, expires_at, used_at FROM web_links WHERE id = ?" + self._sql.for_update, (key,)
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return LinkUse(None, "unknown")
            if row[2] is not None:
                return LinkUse(None, "used")
            if float(row[1]) <= now:
                return LinkUse(None, "expired")
            cursor = await db.execute("UPDATE web_links SET used_at = ? WHERE id = ? AND used_at IS NULL", (now, key))
            if cursor.rowcount != 1:
                return LinkUse(None, "used")
        return LinkUse(str(row[0]), None)

    # ---- watching games ------------------------------------------------------------------------------------

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, Version]:
        """The version of each game named (games that do not exist are left out): one query per
        :data:`VERSION_BATCH` games, each a primary-key lookup."""
        found: dict[int, Version] = {}
        ids = list(dict.fromkeys(game_ids))
        for start in range(0, len(ids), VERSION_BATCH):
            batch = ids[start : start + VERSION_BATCH]
            marks = ", ".join("?" for _ in batch)
            async with self._db.execute(
                f"SELECT id, log_length, deadline, status FROM games WHERE id IN ({marks})", batch
            ) as cursor:
                for row in await cursor.fetchall():
                    found[int(row[0])] = (int(row[1]), None if row[2] is None else float(row[2]), str(row[3]))
        return found

    @property
    def announces_changes(self) -> bool:
        """Whether a commit that changes a game is announced to every process (PostgreSQL); else watchers poll."""
        return self._sql.notify_change is not None

    async def listen_for_changes(self, heard: Callable[[int], None]) -> Callable[[], Awaitable[None]]:
        """Call ``heard(game_id)`` for every game a commit changes, in any process (PostgreSQL only: a connection
        of its own, listening); returns what stops it. Payloads that are not a game id are ignored."""
        if not self.announces_changes:
            raise RuntimeError("only PostgreSQL announces changes; poll game_versions on SQLite")
        from data.store.dialect import CHANGES_CHANNEL

        connection: Any = await self._conn.listener()

        def on_notice(_connection: Any, _pid: int, _channel: str, payload: str) -> None:
            if payload.isdigit():
                heard(int(payload))

        await connection.add_listener(CHANGES_CHANNEL, on_notice)

        async def stop() -> None:
            try:
                await connection.remove_listener(CHANGES_CHANNEL, on_notice)
            finally:
                await connection.close()

        return stop
