"""Each Discord server's settings, the moderators' audit log, and the counts the per-member limits read.

**Settings** are one row per server: a JSON object (what it holds is :mod:`bot.actions.settings`'s business; the
store keeps it whole) and a ``version`` that every change raises. A process caches a server's settings and, at
each command, reads only the version (one primary key lookup): equal, the cache stands; different, the row is
read again. A change made by any process on the database is so seen by every other at its next command, with no
message between processes. A change is written only if the version is still the one the writer read
(:class:`StaleWriteError` otherwise), so of two moderators changing settings at once neither loses the other's
change: the second reads again and applies its change to the first's.

**The audit log** keeps what moderators did: who, what, about whom or which game, why, and when; per server
(``guild_id``; ``None`` for the console's operator).

**Counts** for the limits are read per server and member from the indexes there are: a member's open challenges
from the server's open challenges (``challenges_by_guild``), their running games from their seats
(``game_players_by_player``).
"""

from collections.abc import Sequence
from typing import Any, NamedTuple

from data.rows import ChallengeRow
from data.store.challenges import _CHALLENGE_COLUMNS, _challenge_row
from data.store.core import CoreStore, DamagedRowError, StaleWriteError, _dumps, _loads

#: the character that escapes ``%`` and ``_`` in a LIKE pattern (player names may hold ``_``)
_LIKE_ESCAPE = "!"


class AuditRow(NamedTuple):
    """One moderator's action: who (``moderator``), what (``action``: ``cancel``, ``decide``, ``forfeit``,
    ``challenges``, ``settings``), about what (``target``: a game, a member, a setting), why, the details (what it
    did, JSON), and when."""

    id: int
    guild_id: int | None
    moderator: str
    action: str
    target: str
    reason: str
    detail: dict[str, Any]
    created_at: float


class ServerSettingsRow(NamedTuple):
    """A server's stored settings: the JSON object and its version (``0`` and ``{}`` for a server that never
    changed anything)."""

    version: int
    data: dict[str, Any]


def _like_prefix(player: str) -> str:
    """The LIKE pattern of a challenge's ``players`` JSON whose first name (the challenger) is ``player``."""
    quoted = _dumps(player)
    escaped = "".join(_LIKE_ESCAPE + c if c in "%_" + _LIKE_ESCAPE else c for c in quoted)
    return f"[{escaped}%"


class SettingsStore(CoreStore):
    """Server settings, the audit log, and the limits' counts (see the module docstring)."""

    # ---- server settings -----------------------------------------------------------------------------------

    async def server_settings_version(self, guild_id: int) -> int:
        """The version of a server's settings (0: never changed): what a cache compares at each command."""
        async with self._db.execute("SELECT version FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return 0 if row is None else int(row[0])

    async def server_settings(self, guild_id: int) -> ServerSettingsRow:
        """A server's settings as stored (version 0 and ``{}`` when it has none)."""
        async with self._db.execute(
            "SELECT version, data FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return ServerSettingsRow(0, {})
        data = _loads(row[1], f"the settings of server {guild_id}")
        if not isinstance(data, dict):
            raise DamagedRowError(f"the settings of server {guild_id} are damaged (not an object)")
        return ServerSettingsRow(int(row[0]), data)

    async def save_server_settings(self, guild_id: int, data: dict[str, Any], *, expected_version: int, by: str) -> int:
        """Replace a server's settings if they are still at ``expected_version`` (else :class:`StaleWriteError`
        and nothing written); the new version."""
        now = self.now()
        async with self.transaction() as db:
            if expected_version == 0:
                cursor = await db.execute(
                    "INSERT INTO guild_settings (guild_id, data, version, updated_by, updated_at)"
                    " VALUES (?, ?, 1, ?, ?) ON CONFLICT(guild_id) DO NOTHING",
                    (guild_id, _dumps(data), by, now),
                )
            else:
                cursor = await db.execute(
                    "UPDATE guild_settings SET data = ?, version = version + 1, updated_by = ?, updated_at = ?"
                    " WHERE guild_id = ? AND version = ?",
                    (_dumps(data), by, now, guild_id, expected_version),
                )
            if cursor.rowcount != 1:
                raise StaleWriteError(f"the settings of server {guild_id} changed while they were being changed")
        return expected_version + 1

    # ---- the audit log -------------------------------------------------------------------------------------

    async def add_audit(
        self,
        guild_id: int | None,
        moderator: str,
        action: str,
        target: str,
        reason: str,
        detail: dict[str, Any] | None = None,
    ) -> int:
        """Record what a moderator did; the entry's number."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO audit_log (guild_id, moderator, action, target, reason, detail, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)" + self._sql.returning_id,
                (guild_id, moderator, action, target, reason, _dumps(detail or {}), self.now()),
            )
            return int(cursor.lastrowid)

    async def audit_log(self, guild_id: int | None, *, limit: int = 20, offset: int = 0) -> tuple[list[AuditRow], int]:
        """A page of the audit log, newest first, and how many entries there are: one server's (``guild_id``), or
        with ``None`` every entry (the console's operator sees everything)."""
        condition, params = ("WHERE guild_id = ?", [guild_id]) if guild_id is not None else ("", [])
        async with self._db.execute(f"SELECT COUNT(*) FROM audit_log {condition}", params) as cursor:
            total = int((await cursor.fetchone())[0])
        async with self._db.execute(
            "SELECT id, guild_id, moderator, action, target, reason, detail, created_at FROM audit_log"
            f" {condition} ORDER BY id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            AuditRow(
                int(r[0]),
                None if r[1] is None else int(r[1]),
                str(r[2]),
                str(r[3]),
                str(r[4]),
                str(r[5]),
                _loads(r[6], f"audit entry {r[0]}"),
                float(r[7]),
            )
            for r in rows
        ], total

    # ---- what the limits count -----------------------------------------------------------------------------

    async def open_challenges_sent(self, guild_id: int, challenger: str, now: float) -> int:
        """How many challenges ``challenger`` made in a server that are open and unexpired."""
        async with self._db.execute(
            "SELECT COUNT(*) FROM challenges WHERE guild_id = ? AND status = 'open'"
            f" AND (expires_at IS NULL OR expires_at > ?) AND players LIKE ? ESCAPE '{_LIKE_ESCAPE}'",
            (guild_id, now, _like_prefix(challenger)),
        ) as cursor:
            return int((await cursor.fetchone())[0])

    async def same_open_challenge(
        self,
        guild_id: int,
        game_type: str,
        players: Sequence[str],
        options: Sequence[str],
        open_seats: int,
        now: float,
    ) -> ChallengeRow | None:
        """An open, unexpired challenge in a server just like the one described (the same challenger, the same
        players in the same order, game, options and open seats), if there is one: the oldest."""
        async with self._db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE guild_id = ? AND status = 'open'"
            " AND (expires_at IS NULL OR expires_at > ?) AND type = ? AND players = ? AND options = ?"
            " AND open_seats = ? ORDER BY id LIMIT 1",
            (guild_id, now, game_type, _dumps(list(players)), _dumps(list(options)), open_seats),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _challenge_row(row)

    async def member_challenges(self, player: str, guild_id: int | None, *, named: bool = False) -> list[ChallengeRow]:
        """The open challenges ``player`` made (with ``named``, also those naming them), in one server or (with
        ``None``) everywhere, oldest first; a damaged row is skipped."""
        condition, params = "status = 'open'", []
        if guild_id is not None:
            condition += " AND guild_id = ?"
            params.append(guild_id)
        if named:
            condition += f" AND players LIKE ? ESCAPE '{_LIKE_ESCAPE}'"
            params.append("%" + _like_prefix(player)[1:])
        else:
            condition += f" AND players LIKE ? ESCAPE '{_LIKE_ESCAPE}'"
            params.append(_like_prefix(player))
        async with self._db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE {condition} ORDER BY id", params
        ) as cursor:
            raw = await cursor.fetchall()
        found = []
        for row in raw:
            try:
                challenge = _challenge_row(row)
            except DamagedRowError:
                continue
            if challenge.players[0] == player or (named and player in challenge.players):
                found.append(challenge)
        return found

    async def running_games_in(self, guild_id: int, player: str, *, with_computer: bool = False) -> int:
        """How many running games ``player`` sits in in a server (with ``with_computer``, only those where a
        computer player sits too)."""
        computer = (
            " AND EXISTS (SELECT 1 FROM game_players c WHERE c.game_id = g.id AND c.player_id >= 'ai:'"
            " AND c.player_id < 'ai;')"
            if with_computer
            else ""
        )
        async with self._db.execute(
            "SELECT COUNT(*) FROM game_players p JOIN games g ON g.id = p.game_id"
            f" WHERE p.player_id = ? AND g.status = 'active' AND g.guild_id = ?{computer}",
            (player, guild_id),
        ) as cursor:
            return int((await cursor.fetchone())[0])

    async def running_game_ids(self, player: str, guild_id: int | None) -> list[int]:
        """The running games ``player`` sits in, in one server or (``None``) everywhere, oldest first."""
        condition, params = "", [player]
        if guild_id is not None:
            condition = " AND g.guild_id = ?"
            params.append(guild_id)
        async with self._db.execute(
            "SELECT g.id FROM game_players p JOIN games g ON g.id = p.game_id"
            f" WHERE p.player_id = ? AND g.status = 'active'{condition} ORDER BY g.id",
            params,
        ) as cursor:
            return [int(r[0]) for r in await cursor.fetchall()]
