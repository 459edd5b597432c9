"""A loopback Discord: gateway websocket plus the REST routes discord.py 2.7 uses, with records and fault knobs.

The real discord.py client logs in, syncs commands, receives INTERACTION_CREATE events the test dispatches and
answers through the real interaction callback, webhook and channel routes. Everything it sends is recorded
(:mod:`tests.fakediscord.records`) so tests assert on what a Discord user would see: message text, who was
pinged, buttons, uploaded bytes, threads and their members, DMs. Faults (429, 403 with a code, delays) can be
planned per route to prove the bot copes with them.

Facts reproduced from Discord because discord.py depends on them: a JSON reply's ``Content-Type`` is exactly
``application/json``; a 429 carries a ``Via`` header and ``retry_after``; the interaction callback answers
``?with_response=1`` with the created message so views bind to its id; the first followup after a deferred
("thinking") reply replaces that reply and pings nobody; a thread started from a message shares its id; a message
sent to an archived, unlocked thread unarchives it; an interaction not answered within 3 s is unknown; a message
posted with ``enforce_nonce`` and a nonce used in the last five minutes is not created again (the first is returned).

Refused as Discord refuses them (see also :mod:`tests.fakediscord.limits`, :mod:`tests.fakediscord.components`,
:mod:`tests.fakediscord.commands`): a response type that does not fit the interaction (400/50035 at ``type``), a
second initial response (400/40060), a deferred reply flagged anything but ephemeral, followups and edits of the
original response once the interaction is 15 minutes old on the fake's clock (401/50027; :meth:`FakeDiscord.advance`
moves the clock), command definitions Discord would not accept (400/50035), and a RESUME of a session Discord no
longer knows (INVALID_SESSION, ``d: false``; :meth:`FakeDiscord.expire_sessions`). Planned 429s come with the bucket
headers, with only ``Retry-After``, or as the global limit.

Sharding as Discord does it: IDENTIFY may carry ``shard: [shard_id, shard_count]``; that connection then receives
only the guilds (GUILD_CREATE, every later guild event, interactions included) with
``(guild_id >> 22) % shard_count == shard_id``, and DMs only on shard 0. ``/gateway/bot`` recommends ``shards``
(the constructor's argument, default 1). A connection that names no shard gets everything, as a single bot does.

Where each part lives: :mod:`tests.fakediscord.state` (what the fake knows and records),
:mod:`tests.fakediscord.world` (building guilds, channels, members, threads), :mod:`tests.fakediscord.faults`
(planned failures), :mod:`tests.fakediscord.waiting` (waiting for the bot), :mod:`tests.fakediscord.interactions`
(what a user does), :mod:`tests.fakediscord.gateway_server` (the websocket), :mod:`tests.fakediscord.routes` (the
REST routes by resource) and :mod:`tests.fakediscord.replies` (HTTP answers as Discord's edge sends them); this
module serves them and checks every request's token.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from tests.fakediscord.faults import FaultKnobs
from tests.fakediscord.gateway_server import GatewayServer
from tests.fakediscord.interactions import InteractionDriver
from tests.fakediscord.limits import ApiError
from tests.fakediscord.records import Request, route_key
from tests.fakediscord.replies import error_response, json_response
from tests.fakediscord.routes import Handler, Routes
from tests.fakediscord.state import API_PREFIX
from tests.fakediscord.waiting import Waiting
from tests.fakediscord.world import WorldBuilder

#: routes a bot token does not authorise (an interaction's token, or a person's OAuth2 flow, does)
_UNAUTHENTICATED = ("/webhooks/", "/interactions/", "/oauth2/authorize", "/oauth2/token")


class FakeDiscord(Routes, WorldBuilder, InteractionDriver, GatewayServer, FaultKnobs, Waiting):
    """The fake server and its test-facing API. Create, ``await start()``, point discord.py at ``base_url``,
    ``gateway_url`` and ``cdn_url``, then build guilds/channels/members and drive interactions."""

    async def start(self) -> None:
        """Serve on 127.0.0.1 with an ephemeral port."""
        self._changed = asyncio.Condition()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/oauth2/authorize", self.oauth.authorize)
        for method, template, handler in self._routes():
            app.router.add_route(method, API_PREFIX + template, handler)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        """Close every gateway session and the server."""
        for session in list(self.sessions):
            await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway" or request.path.startswith("/cdn"):
            return await handler(request)
        route = request.match_info.route
        if route.resource is None or isinstance(request.match_info.http_exception, web.HTTPException):
            self.unhandled.append(f"{request.method} {request.path}")
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        template = route.resource.canonical.removeprefix(API_PREFIX)
        key = route_key(request.method, template)
        params = dict(request.match_info)
        body = await self._peek_json(request)
        record = Request(key, params, dict(request.query), body, at=asyncio.get_running_loop().time())
        self.requests.append(record)
        response = await self._serve(request, handler, key, params)
        record.status = response.status
        await self._notify()
        return response

    async def _serve(
        self, request: web.Request, handler: Handler, key: str, params: dict[str, str]
    ) -> web.StreamResponse:
        needs_token = not any(part in request.path for part in _UNAUTHENTICATED)
        bearer = request.headers.get("Authorization", "").startswith("Bearer ") and key == "GET /users/@me"
        if needs_token and not bearer and request.headers.get("Authorization") != f"Bot {self.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        planned = await self._planned_fault(key, params, needs_token)
        if planned is not None:
            return planned
        try:
            return await handler(request)
        except ApiError as err:
            return error_response(err)

    @staticmethod
    async def _peek_json(request: web.Request) -> Any:
        json_body = request.headers.get("Content-Type", "").split(";")[0].strip() == "application/json"
        if json_body and request.body_exists:
            return json.loads(await request.read() or b"null")
        return None
