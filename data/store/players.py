"""Players as stored: recorded the first time they appear, found by their Discord id, and their own settings."""

from __future__ import annotations

from collections.abc import Sequence

from data.store.core import CoreStore


class PlayerStore(CoreStore):
    """Players and their settings (see the module docstring)."""

    async def ensure_player(self, player_id: str, discord_id: int | None = None) -> None:
        """Record a player the first time they appear (and their Discord id once known)."""
        await self.write(
            "INSERT INTO players (id, discord_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET discord_id = COALESCE(players.discord_id, excluded.discord_id)",
            (player_id, discord_id, self.now()),
        )

    async def player_by_discord_id(self, discord_id: int) -> str | None:
        known = self._player_of_discord_id.get(discord_id)
        if known is not None:
            return known
        async with self._db.execute("SELECT id FROM players WHERE discord_id = ?", (discord_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        self._player_of_discord_id[discord_id] = str(row[0])
        return str(row[0])

    async def discord_id_of(self, player_id: str) -> int | None:
        known = self._discord_id_of_player.get(player_id)
        if known is not None:
            return known
        async with self._db.execute("SELECT discord_id FROM players WHERE id = ?", (player_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None or row[0] is None:
            return None
        self._discord_id_of_player[player_id] = int(row[0])
        return int(row[0])

    # ---- settings ------------------------------------------------------------------------------------------

    async def settings_of(self, player_id: str, keys: Sequence[str]) -> dict[str, str]:
        """Several settings of a player in one query."""
        marks = ", ".join("?" for _ in keys)
        async with self._db.execute(
            f"SELECT key, value FROM settings WHERE player_id = ? AND key IN ({marks})", (player_id, *keys)
        ) as cursor:
            return {str(r[0]): str(r[1]) for r in await cursor.fetchall()}

    async def get_setting(self, player_id: str, key: str, default: str | None = None) -> str | None:
        async with self._db.execute(
            "SELECT value FROM settings WHERE player_id = ? AND key = ?", (player_id, key)
        ) as cursor:
            row = await cursor.fetchone()
        return default if row is None else str(row[0])

    async def set_setting(self, player_id: str, key: str, value: str) -> None:
        await self.write(
            "INSERT INTO settings (player_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT(player_id, key) DO UPDATE SET value = excluded.value",
            (player_id, key, value),
        )
