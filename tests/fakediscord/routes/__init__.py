"""The fake's REST routes (discord.py 2.7's), by resource: :mod:`.application` (users, the application, the
gateway's address, commands), :mod:`.messages` (channel messages), :mod:`.channels` (channels, threads, DMs,
guilds) and :mod:`.webhooks` (interaction callbacks and webhooks). :class:`Routes` maps each route template to its
handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from tests.fakediscord.routes.application import ApplicationRoutes
from tests.fakediscord.routes.channels import ChannelRoutes
from tests.fakediscord.routes.webhooks import WebhookRoutes

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Routes(ApplicationRoutes, ChannelRoutes, WebhookRoutes):
    """Every REST route of the fake and the table of their templates."""

    def _routes(self) -> list[tuple[str, str, Handler]]:
        app_cmds = "/applications/{application_id}/commands"
        guild_cmds = "/applications/{application_id}/guilds/{guild_id}/commands"
        hook = "/webhooks/{application_id}/{token}"
        return [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/oauth2/token", self.oauth.token),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", app_cmds, self._get_commands),
            ("PUT", app_cmds, self._put_commands),
            ("GET", guild_cmds, self._get_commands),
            ("PUT", guild_cmds, self._put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", hook, self._post_followup),
            ("GET", hook + "/messages/{message_id}", self._get_webhook_message),
            ("PATCH", hook + "/messages/{message_id}", self._patch_webhook_message),
            ("DELETE", hook + "/messages/{message_id}", self._delete_webhook_message),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._patch_channel),
            ("DELETE", "/channels/{channel_id}", self._delete_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_history),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/typing", self._no_content),
            ("POST", "/channels/{channel_id}/threads", self._post_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._post_thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._put_thread_member),
            ("POST", "/users/@me/channels", self._post_dm),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/threads/active", self._get_active_threads),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
        ]
