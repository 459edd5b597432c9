"""The fake's ``/gateway`` websocket endpoint: HELLO, then IDENTIFY answered with READY and one GUILD_CREATE per
guild, RESUME answered with RESUMED, heartbeats acknowledged (the sessions and opcodes are in
:mod:`tests.fakediscord.gateway`).

Sharding as Discord does it: IDENTIFY may carry ``shard: [shard_id, shard_count]``; that connection then receives
only the guilds (GUILD_CREATE, every later guild event, interactions included) with
``(guild_id >> 22) % shard_count == shard_id``, and DMs only on shard 0. A RESUME keeps the shard of the session it
resumes; a RESUME of a session Discord no longer knows is answered INVALID_SESSION (``d: false``).
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tests.fakediscord.gateway import HEARTBEAT, HEARTBEAT_ACK, HELLO, IDENTIFY, INVALID_SESSION, RESUME, GatewaySession
from tests.fakediscord.state import FakeState


class GatewayServer(FakeState):
    """The gateway connections' handler (see the module)."""

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws)
        self.sessions.append(session)
        await session.send(HELLO, {"heartbeat_interval": 41250})
        try:
            async for frame in ws:
                if frame.type is web.WSMsgType.TEXT:
                    await self._on_frame(session, json.loads(frame.data))
        finally:
            self.sessions.remove(session)
            await self._notify()
        return ws

    async def _on_frame(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            session.heartbeats += 1
            await session.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(session, data)
        elif op == RESUME:
            await self._resume(session, data)

    async def _identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        session.intents = data.get("intents")
        shard = data.get("shard")
        if shard is not None:
            shard_id, count = int(shard[0]), int(shard[1])
            if not 0 <= shard_id < count:
                await session.ws.close(code=4010, message=b"Invalid shard.")
                return
            session.shard = (shard_id, count)
        self._session_shards[session.session_id] = session.shard
        guilds = [g for g in self.guilds.values() if session.owns(g.id)]
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if shard is not None:
            ready["shard"] = shard
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", self._guild_payload(guild))
        session.ready = True
        await self._notify()

    async def _resume(self, session: GatewaySession, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        if data.get("session_id") not in self._session_shards:
            # a session Discord no longer knows: not resumable; the client must identify afresh
            self.refused_resumes += 1
            await session.send(INVALID_SESSION, False)
            return
        session.session_id, session.seq, session.resumed = data["session_id"], int(data.get("seq") or 0), True
        session.shard = self._session_shards.get(session.session_id)
        await session.dispatch("RESUMED", {})
        session.ready = True
        await self._notify()
