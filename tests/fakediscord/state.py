"""The fake's model of Discord: what exists (users, guilds, channels, threads, messages, synced commands), what
happened (requests, interactions, gateway sessions), and the lookups, clock and event fan-out every part shares.

:class:`FakeState` holds that state; the parts of the fake (:mod:`tests.fakediscord.world`,
:mod:`tests.fakediscord.faults`, :mod:`tests.fakediscord.waiting`, :mod:`tests.fakediscord.interactions`,
:mod:`tests.fakediscord.gateway_server`, the REST routes of :mod:`tests.fakediscord.routes`) are mixins over it,
which :class:`tests.fakediscord.server.FakeDiscord` puts together.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.gateway import GatewaySession
from tests.fakediscord.limits import ApiError
from tests.fakediscord.members import Roles, member_permissions
from tests.fakediscord.oauth import OAuth
from tests.fakediscord.records import CommandSync, Fault, Interaction, Message, Request, Thread

API_PREFIX = "/api/v10"


@dataclass
class Guild:
    """A guild: its channels (ids, in creation order), members (user id -> member payload), and roles and
    permissions (:mod:`tests.fakediscord.members`)."""

    id: int
    name: str
    owner_id: int
    channel_ids: list[int] = field(default_factory=list)
    members: dict[int, dict[str, Any]] = field(default_factory=dict)
    roles: Roles = field(default_factory=Roles)


class FakeState:
    """Everything the fake knows and records, with the lookups and notifications its parts share."""

    def __init__(
        self,
        *,
        bot_name: str = "pbm-bot",
        interaction_deadline: float = 3.0,
        shards: int = 1,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """``clock`` (seconds; default the event loop's time) dates interactions, for the 3-second deadline and the
        15-minute token; :meth:`advance` moves it on without waiting."""
        self.token = f"fake.{secrets.token_hex(12)}"
        self._clock = clock
        self._skew = 0.0
        self.application_id = p.snowflake()
        self.bot_user = p.user(self.application_id, bot_name, bot=True)
        self.interaction_deadline = interaction_deadline
        #: the shard count ``/gateway/bot`` recommends (what an AutoShardedClient without a count runs)
        self.shards = shards
        #: the shard of every session id Discord still knows, so a RESUME (which names no shard) keeps it; a
        #: RESUME of any other session is refused (:meth:`expire_sessions`)
        self._session_shards: dict[str, tuple[int, int] | None] = {}
        self.refused_resumes = 0
        self.users: dict[int, dict[str, Any]] = {self.application_id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, Message] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.threads: dict[int, Thread] = {}
        self.dm_channels: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        self.denied: dict[int, set[str]] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.syncs: list[CommandSync] = []
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        #: the message id and loop time of every message created with ``enforce_nonce``, by its nonce
        self._nonces: dict[str, tuple[int, float]] = {}
        #: callables told of every message the bot creates or edits (see :meth:`watch`)
        self._watchers: list[Callable[[Message], None]] = []
        self.requests: list[Request] = []
        self.unhandled: list[str] = []
        self.faults: list[Fault] = []
        self.sessions: list[GatewaySession] = []
        self._changed: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None
        self._port = 0
        #: Discord's OAuth2 for sites that sign people in with Discord (see :mod:`tests.fakediscord.oauth`)
        self.oauth = OAuth(self)

    @property
    def base_url(self) -> str:
        """Value for ``DISCORD_API_BASE`` / ``discord.http.Route.BASE``."""
        return f"http://127.0.0.1:{self._port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Value for ``DISCORD_GATEWAY_URL`` / ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self._port}/gateway"

    @property
    def cdn_url(self) -> str:
        """Value for ``DISCORD_CDN_BASE`` / ``discord.asset.Asset.BASE``."""
        return f"http://127.0.0.1:{self._port}/cdn"

    def env(self) -> dict[str, str]:
        """The environment variables that point the product bot at this fake, token included."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.base_url,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_CDN_BASE": self.cdn_url,
        }

    def _now(self) -> float:
        """The fake's clock: the given clock (or the event loop's time) plus what :meth:`advance` added."""
        base = self._clock() if self._clock is not None else asyncio.get_running_loop().time()
        return base + self._skew

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on by ``seconds``, as if that long had passed (interaction tokens age by it)."""
        self._skew += seconds

    async def _notify(self) -> None:
        """Wake every :meth:`wait_for`: something the fake records has changed."""
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    def _told(self, message: Message) -> None:
        """Tell the :meth:`watch` callbacks of a message the bot created or edited."""
        for callback in self._watchers:
            callback(message)

    def _new_user(self, name: str, *, bot: bool = False) -> int:
        """A new user (not a member of any guild yet); returns the id."""
        uid = p.snowflake()
        self.users[uid] = p.user(uid, name, bot=bot)
        return uid

    def _user(self, uid: int) -> dict[str, Any]:
        """The user payload of ``uid``, or Discord's 404 / 10013 for a route to answer."""
        if uid not in self.users:
            raise ApiError(404, 10013, "Unknown User")
        return self.users[uid]

    def _channel(self, channel_id: int) -> dict[str, Any]:
        """The channel payload of ``channel_id``, or Discord's 404 / 10003 for a route to answer."""
        if channel_id not in self.channels:
            raise ApiError(404, 10003, "Unknown Channel")
        return self.channels[channel_id]

    def _guild_of(self, channel_id: int) -> Guild | None:
        """The guild a channel or thread is in (``None``: a DM or an unknown channel)."""
        gid = self.channels.get(channel_id, {}).get("guild_id")
        return self.guilds.get(int(gid)) if gid else None

    def _denials(self, channel_id: int) -> set[str]:
        """Permissions withheld from the bot in a channel, its parent's included (a thread's parent)."""
        channel = self.channels.get(channel_id, {})
        parent = channel.get("parent_id")
        return self.denied.get(channel_id, set()) | (self.denied.get(int(parent), set()) if parent else set())

    def _require(self, channel_id: int, *permissions: str) -> None:
        """Refuse with 403 / 50013 when the bot lacks any of ``permissions`` in the channel."""
        missing = self._denials(channel_id) & set(permissions)
        if missing:
            raise ApiError(403, 50013, "Missing Permissions")

    def _app_permissions(self, channel_id: int) -> int:
        """The bot's permission bits in a channel, as an interaction's ``app_permissions`` carries them."""
        bits = p.ALL_PERMISSIONS
        for name in self._denials(channel_id):
            bits &= ~p.PERMISSION_BITS[name]
        return bits

    def member_permissions(self, guild_id: int, user_id: int) -> int:
        """The permissions interactions of this member carry (:func:`members.member_permissions`)."""
        guild = self.guilds[guild_id]
        return member_permissions(guild.owner_id, guild.roles, user_id)

    def channel_log(self, channel_id: int, *, ephemeral: bool = False) -> list[Message]:
        """Messages in a channel in posting order, without deleted ones (ephemeral ones only when asked)."""
        found = [self.messages[mid] for mid in self.channel_messages.get(channel_id, [])]
        return [m for m in found if not m.deleted and (ephemeral or not m.ephemeral)]

    def _live_session(self, *, shard: int | None = None) -> GatewaySession | None:
        """The newest identified connection (of shard ``shard``, when given)."""
        live = [s for s in self.sessions if s.ready and not s.ws.closed]
        if shard is not None:
            live = [s for s in live if s.shard is not None and s.shard[0] == shard]
        return live[-1] if live else None

    def _session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The newest identified connection that receives the events of ``guild_id`` (``None``: DMs)."""
        live = [s for s in self.sessions if s.ready and not s.ws.closed and s.owns(guild_id)]
        return live[-1] if live else None

    async def _dispatch_all(self, event: str, data: dict[str, Any]) -> None:
        """Send a guild event to every connection that receives that guild's events (its shard's)."""
        raw = data["id"] if event == "GUILD_CREATE" else data.get("guild_id")
        guild_id = int(raw) if raw else None
        for session in [s for s in self.sessions if s.ready and not s.ws.closed and s.owns(guild_id)]:
            await session.dispatch(event, data)

    def _guild_payload(self, guild: Guild) -> dict[str, Any]:
        """The guild as GUILD_CREATE and ``GET /guilds/{id}`` send it: its text channels and unarchived threads."""
        channels = [self.channels[c] for c in guild.channel_ids if c in self.channels]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "owner_id": str(guild.owner_id),
            "unavailable": False,
            "member_count": len(guild.members),
            "large": False,
            "joined_at": p.iso_now(),
            "roles": [p.everyone_role(guild.id), *guild.roles.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "members": list(guild.members.values()),
            "channels": [c for c in channels if c["type"] == p.TEXT_CHANNEL],
            "threads": [c for c in channels if c["type"] != p.TEXT_CHANNEL and not c["thread_metadata"]["archived"]],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_tier": 0,
            "preferred_locale": "en-US",
        }
