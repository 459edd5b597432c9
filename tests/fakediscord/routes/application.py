"""REST routes of the bot's application and users: who the bot (or, with an OAuth2 Bearer token, a person) is,
other users, the application, the gateway's address and recommended shard count, and the application commands
(global and per guild), whose definitions are checked as Discord checks them (400/50035,
:mod:`tests.fakediscord.commands`) and keep their ids across syncs.
"""

from __future__ import annotations

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.commands import check_commands
from tests.fakediscord.limits import ApiError
from tests.fakediscord.records import CommandSync
from tests.fakediscord.replies import json_response
from tests.fakediscord.state import FakeState


class ApplicationRoutes(FakeState):
    """The user, application, gateway and command routes (see the module)."""

    async def _no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _get_me(self, request: web.Request) -> web.Response:
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):  # a person's OAuth2 token: who they are
            user = self.oauth.me(authorization)
            if user is None:
                return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
            return json_response(user)
        return json_response({**self.bot_user, "verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.Response:
        return json_response(self._user(int(request.match_info["user_id"])))

    async def _get_application(self, request: web.Request) -> web.Response:
        owner = next(iter(self.guilds.values())).owner_id if self.guilds else self.application_id
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user["username"],
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.users[owner],
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user,
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": self.shards, "session_start_limit": limit})

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild_id = request.match_info.get("guild_id")
        return json_response(self.guild_commands.get(int(guild_id), []) if guild_id else self.global_commands)

    async def _put_commands(self, request: web.Request) -> web.Response:
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        previous = {c["name"]: c for c in (self.guild_commands.get(guild_id, []) if guild_id else self.global_commands)}
        bodies = await request.json()
        refused = check_commands(bodies)
        if refused:
            raise ApiError(400, 50035, "Invalid Form Body", refused)
        commands = []
        for body in bodies:
            old = previous.get(body["name"])
            command = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **body,
                "id": old["id"] if old else str(p.snowflake()),
                "application_id": str(self.application_id),
                "version": str(p.snowflake()),
            }
            if guild_id is not None:
                command["guild_id"] = str(guild_id)
            commands.append(command)
        if guild_id is None:
            self.global_commands = commands
        else:
            self.guild_commands[guild_id] = commands
        self.syncs.append(CommandSync(guild_id, commands))
        return json_response(commands)
