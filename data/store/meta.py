"""The database's own notes (the ``meta`` table): values by key, the boards still to be posted, and claims of the
jobs that one process at a time does."""

from __future__ import annotations

from collections.abc import Sequence

from data.store.core import SET_META, UNPOSTED_END, UNPOSTED_PREFIX, CoreStore


class MetaStore(CoreStore):
    """The meta table: values, unposted boards, claims (see the module docstring)."""

    async def get_meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self.write(SET_META, (key, value))

    # ---- boards still to be posted ---------------------------------------------------------------------------

    async def mark_unposted(self, game_id: int, mark: str) -> None:
        """Remember that the game's current board is still to be posted; ``mark`` is the front's note on it (the
        Discord nonce its post carries, so that a post that did go out before a crash is not made twice)."""
        await self.set_meta(f"{UNPOSTED_PREFIX}{game_id}", mark)

    async def clear_unposted(self, game_id: int, marks: Sequence[str] = ()) -> None:
        """The game's board was posted: forget its mark, or only a mark that holds one of ``marks`` (the marks of
        that post), so a newer board marked meanwhile stays marked."""
        key = f"{UNPOSTED_PREFIX}{game_id}"
        if not marks:
            await self.write("DELETE FROM meta WHERE key = ?", (key,))
        else:
            places = ", ".join("?" for _ in marks)
            await self.write(f"DELETE FROM meta WHERE key = ? AND value IN ({places})", (key, *marks))

    async def unposted_boards(self) -> list[tuple[int, str]]:
        """Every game whose board is still to be posted, with its mark, by game number."""
        async with self._db.execute(
            "SELECT key, value FROM meta WHERE key >= ? AND key < ?", (UNPOSTED_PREFIX, UNPOSTED_END)
        ) as cursor:
            rows = await cursor.fetchall()
        found = []
        for key, value in rows:
            number = str(key)[len(UNPOSTED_PREFIX) :]
            if number.isdigit():
                found.append((int(number), str(value)))
        return sorted(found)

    async def claim_meta(self, key: str, *, unless: tuple[str, str] | None = None, now: float, lease: float) -> bool:
        """Claim the job named ``key`` for ``lease`` seconds, atomically over every process on this database: true
        when no claim of ``key`` younger than ``lease`` exists and (with ``unless=(other_key, value)``) the meta
        row ``other_key`` does not already hold ``value`` (the job is done). The claim is the meta row ``key``
        holding its time; :meth:`release_meta` ends it early."""
        async with self.transaction() as db:
            if unless is not None:
                async with db.execute("SELECT value FROM meta WHERE key = ?", (unless[0],)) as cursor:
                    row = await cursor.fetchone()
                if row is not None and str(row[0]) == unless[1]:
                    return False
            cursor = await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
                " WHERE CAST(meta.value AS DOUBLE PRECISION) <= ?",
                (key, repr(now), now - lease),
            )
            return cursor.rowcount == 1

    async def release_meta(self, key: str) -> None:
        """End a claim taken by :meth:`claim_meta`."""
        await self.write("DELETE FROM meta WHERE key = ?", (key,))
