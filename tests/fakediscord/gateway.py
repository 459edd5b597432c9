"""The gateway side of the fake: one websocket session per connected client, speaking Discord's JSON opcodes.

discord.py sends IDENTIFY (or RESUME after a drop) after HELLO and heartbeats on the interval HELLO gives; the fake
answers READY plus one GUILD_CREATE per guild (of its shard, when IDENTIFY names one), HEARTBEAT_ACK, RESUMED, and
pushes dispatch events. Frames are sent as text, which discord.py accepts even though it asked for zlib-stream
compression.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 0, 1, 2, 6, 7, 9, 10, 11


@dataclass
class GatewaySession:
    """One websocket connection. ``ready`` is set once READY and the GUILD_CREATEs went out (or RESUMED)."""

    ws: web.WebSocketResponse
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    ready: bool = False
    intents: int | None = None
    resumed: bool = False
    heartbeats: int = 0
    #: ``(shard_id, shard_count)`` from IDENTIFY (kept over a RESUME); None for a connection without sharding
    shard: tuple[int, int] | None = None

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord would send this connection the events of ``guild_id`` (``None``: a DM): guilds go to
        shard ``(guild_id >> 22) % shard_count``, DMs to shard 0; an unsharded connection gets everything."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        """Send one frame; dispatches carry the next sequence number as Discord's do."""
        frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        if op == DISPATCH:
            self.seq += 1
            frame["s"] = self.seq
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(frame))

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a DISPATCH event such as INTERACTION_CREATE."""
        await self.send(DISPATCH, data, event)
