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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from tests.fakediscord import multipart
from tests.fakediscord import payloads as p
from tests.fakediscord.commands import check_commands
from tests.fakediscord.gateway import (
    HEARTBEAT,
    HEARTBEAT_ACK,
    HELLO,
    IDENTIFY,
    INVALID_SESSION,
    RESUME,
    GatewaySession,
)
from tests.fakediscord.limits import ApiError, check_choices, check_message
from tests.fakediscord.members import Roles, bits_of, may_use, member_permissions
from tests.fakediscord.oauth import OAuth
from tests.fakediscord.records import (
    Attachment,
    CommandSync,
    Fault,
    Interaction,
    Message,
    Request,
    Thread,
    route_key,
)

API_PREFIX = "/api/v10"
T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
#: application command option types whose values the fake resolves (user, channel, role, mentionable)
_USER_OPTION, _SUBCOMMAND, _GROUP, _CHANNEL_OPTION, _ROLE_OPTION = 6, 1, 2, 7, 8
_UNAUTHENTICATED = ("/webhooks/", "/interactions/", "/oauth2/authorize", "/oauth2/token")
#: seconds between re-checks of a wait condition that depends on something besides the fake
_POLL = 0.01
#: seconds an interaction token serves followups and edits of the original response
TOKEN_LIFETIME = 15 * 60
#: the callback types Discord accepts for each interaction type (a modal submit from a button may also update
#: that button's message): 4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete choices,
#: 9 modal, 12 launch activity
_CALLBACKS = {2: (4, 5, 9, 12), 3: (4, 5, 6, 7, 9, 12), 4: (8,), 5: (4, 5)}
_MODAL_FROM_COMPONENT = (4, 5, 6, 7)
#: how long Discord remembers a message's nonce for ``enforce_nonce`` ("the past few minutes")
NONCE_WINDOW = 300.0


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON reply whose Content-Type is exactly ``application/json`` (discord.py ignores the body otherwise)."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def _error(err: ApiError) -> web.Response:
    return json_response(err.body(), status=err.status)


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


class FakeDiscord:
    """The fake server and its test-facing API. Create, ``await start()``, point discord.py at ``base_url``,
    ``gateway_url`` and ``cdn_url``, then build guilds/channels/members and drive interactions."""

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

    # ----------------------------------------------------------------------------------------------- lifecycle

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

    # ------------------------------------------------------------------------------------------- world setup

    async def add_guild(self, name: str = "Guild", *, shard: tuple[int, int] | None = None) -> int:
        """A guild owned by a fresh user, with the bot as a member; ``shard=(shard_id, shard_count)`` picks an id
        that shard owns."""
        owner = self._new_user(f"{name}-owner")
        gid = p.snowflake()
        if shard is not None:
            shard_id, count = shard
            millis = gid >> 22
            gid = ((millis - (millis - shard_id) % count) << 22) | (gid & 0x3FFFFF)
        guild = Guild(gid, name, owner)
        self.guilds[guild.id] = guild
        for uid in (owner, self.application_id):
            guild.members[uid] = p.member(self.users[uid], joined=p.iso_now())
        await self._dispatch_all("GUILD_CREATE", self._guild_payload(guild))
        return guild.id

    async def add_channel(self, guild_id: int, name: str = "games") -> int:
        """A text channel in ``guild_id``."""
        guild = self.guilds[guild_id]
        cid = p.snowflake()
        self.channels[cid] = p.text_channel(cid, guild_id, name, len(guild.channel_ids))
        self.channel_messages[cid] = []
        guild.channel_ids.append(cid)
        await self._dispatch_all("CHANNEL_CREATE", self.channels[cid])
        return cid

    async def add_member(
        self, guild_id: int, name: str, *, bot: bool = False, permissions: tuple[str, ...] | None = None
    ) -> int:
        """A new user who is a member of ``guild_id`` (another bot with ``bot=True``); returns the user id. They
        have an ordinary member's permissions, or with ``permissions`` those named (``("manage_guild",)``) as well.
        """
        uid = self._new_user(name, bot=bot)
        self.guilds[guild_id].members[uid] = p.member(self.users[uid], joined=p.iso_now())
        if permissions:
            self.grant(guild_id, uid, *permissions)
        return uid

    def grant(self, guild_id: int, user_id: int, *permissions: str) -> None:
        """Give a member permissions besides an ordinary member's (any of ``payloads.PERMISSION_BITS``)."""
        roles = self.guilds[guild_id].roles
        roles.granted[user_id] = roles.granted.get(user_id, p.MEMBER_PERMISSIONS) | bits_of(*permissions)

    def member_permissions(self, guild_id: int, user_id: int) -> int:
        """The permissions interactions of this member carry (:func:`members.member_permissions`)."""
        guild = self.guilds[guild_id]
        return member_permissions(guild.owner_id, guild.roles, user_id)

    async def add_role(self, guild_id: int, name: str, *permissions: str) -> int:
        """A new role in ``guild_id`` granting ``permissions``, announced to the bot (GUILD_ROLE_CREATE)."""
        guild = self.guilds[guild_id]
        rid = p.snowflake()
        guild.roles.roles[rid] = p.role(rid, name, bits_of(*permissions), len(guild.roles.roles) + 1)
        await self._dispatch_all("GUILD_ROLE_CREATE", {"guild_id": str(guild_id), "role": guild.roles.roles[rid]})
        return rid

    def give_role(self, guild_id: int, user_id: int, role_id: int) -> None:
        """Give a member a role: their next interactions carry it."""
        guild = self.guilds[guild_id]
        held = guild.roles.held.setdefault(user_id, [])
        if role_id not in held:
            held.append(role_id)
        guild.members[user_id]["roles"] = [str(r) for r in held]

    def join(self, guild_id: int, user_id: int) -> None:
        """Make an existing user a member of another guild too."""
        self.guilds[guild_id].members[user_id] = p.member(self.users[user_id], joined=p.iso_now())

    async def add_thread(self, channel_id: int, name: str, members: list[int]) -> int:
        """A public thread the bot made earlier under text channel ``channel_id``, with ``members`` added: the world
        of a test that starts with games already under way (their threads arrive with GUILD_CREATE)."""
        parent = self.channels[channel_id]
        tid = p.snowflake()
        data = p.thread(
            tid, parent, self.application_id, name, private=False, auto_archive=parent["default_auto_archive_duration"]
        )
        data["member_count"] = len(members) + 1
        self._add_thread(data, Thread(tid, channel_id, name, None, False, list(members)))
        await self._dispatch_all("THREAD_CREATE", {**data, "newly_created": True})
        return tid

    def _add_thread(self, data: dict[str, Any], thread: Thread) -> None:
        self.channels[thread.id] = data
        self.channel_messages[thread.id] = []
        self.threads[thread.id] = thread
        guild = self._guild_of(thread.id)
        if guild is not None:
            guild.channel_ids.append(thread.id)

    def open_dm(self, user_id: int) -> int:
        """The id of the DM channel between the bot and ``user_id`` (opened if needed), where that user can type
        slash commands."""
        recipient = self._user(user_id)
        if user_id not in self.dm_channels:
            cid = p.snowflake()
            self.channels[cid] = p.dm_channel(cid, recipient)
            self.channel_messages[cid] = []
            self.dm_channels[user_id] = cid
        return self.dm_channels[user_id]

    def _new_user(self, name: str, *, bot: bool = False) -> int:
        uid = p.snowflake()
        self.users[uid] = p.user(uid, name, bot=bot)
        return uid

    # ---------------------------------------------------------------------------------------------- fault knobs

    def fail(self, route: str, status: int = 403, code: int = 50013, *, times: int | None = 1, **params: int) -> None:
        """Make ``route`` (e.g. "POST /channels/{channel_id}/messages") answer ``status`` with Discord error
        ``code`` (50013 missing permissions, 50007 cannot DM the user, ...), ``times`` times (None: always)."""
        message = {50013: "Missing Permissions", 50007: "Cannot send messages to this user"}.get(code, "Error")
        self._plan(route, status, code, message, 0.0, 0.0, times, params)

    def rate_limit(
        self,
        route: str,
        retry_after: float = 0.05,
        *,
        times: int | None = 1,
        bucket_headers: bool = True,
        **params: int,
    ) -> None:
        """Make ``route`` answer 429 with ``retry_after``, as Discord does for a route's (user) limit: the bucket
        headers (X-RateLimit-Limit, -Remaining, -Reset, -Reset-After, -Bucket, -Scope) and ``Retry-After``, or
        with ``bucket_headers=False`` only ``Retry-After``, as some of Discord's limits answer."""
        self._plan(route, 429, 0, "You are being rate limited.", retry_after, 0.0, times, params)
        self.faults[-1].bucket_headers = bucket_headers

    def global_rate_limit(self, retry_after: float = 0.05, *, route: str = "*", times: int = 1, **params: int) -> None:
        """Make the next ``times`` requests (to ``route`` with ``params``, or to any route the bot token
        authorises) answer the global 429: ``X-RateLimit-Global: true``, scope global, and ``{"global": true,
        "retry_after": ...}``; a client must then hold every request, on every route, until ``retry_after`` has
        passed."""
        self._plan(route, 429, 0, "You are being rate limited.", retry_after, 0.0, times, params)
        self.faults[-1].scope = "global"

    def delay(self, route: str, seconds: float, *, times: int | None = None, **params: int) -> None:
        """Hold requests to ``route`` for ``seconds`` before serving them normally."""
        self._plan(route, None, None, "", 0.0, seconds, times, params)

    def hold(self, route: str, *, times: int | None = 1, **params: int) -> asyncio.Event:
        """Hold requests to ``route`` until the returned event is set, then serve them normally: a bot kept
        waiting at a chosen step (its acknowledgement, say) while the test does something else."""
        self._plan(route, None, None, "", 0.0, 0.0, times, params)
        gate = asyncio.Event()
        self.faults[-1].gate = gate
        return gate

    def clear_faults(self) -> None:
        """Forget every planned fault."""
        self.faults.clear()

    def _plan(
        self,
        route: str,
        status: int | None,
        code: int | None,
        message: str,
        retry_after: float,
        delay: float,
        times: int | None,
        params: dict[str, int],
    ) -> None:
        method, _, template = route.partition(" ")
        fault = Fault(route_key(method, template), status, code, message, retry_after, delay, times, {})
        fault.params = {k: str(v) for k, v in params.items()}
        self.faults.append(fault)

    def deny(self, channel_id: int, *permissions: str) -> None:
        """Withhold permissions from the bot in a channel (and its threads): any of ``payloads.PERMISSION_BITS``.
        Requests that need them get 403 / 50013 and interactions there report reduced ``app_permissions``."""
        unknown = set(permissions) - set(p.PERMISSION_BITS)
        if unknown:
            raise ValueError(f"unknown permissions {sorted(unknown)}")
        self.denied.setdefault(channel_id, set()).update(permissions)

    def allow(self, channel_id: int, *permissions: str) -> None:
        """Give back permissions taken by :meth:`deny` (all of them when none are named)."""
        held = self.denied.get(channel_id, set())
        held.difference_update(permissions or set(held))

    def close_dms(self, user_id: int) -> None:
        """The user does not accept DMs: sending them one answers 403 / 50007."""
        self.closed_dms.add(user_id)

    async def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """Archive a thread as Discord does after inactivity (or lock it, which a bot message cannot undo)."""
        meta = self.channels[thread_id]["thread_metadata"]
        meta.update(archived=True, locked=locked, archive_timestamp=p.iso_now())
        await self._dispatch_all("THREAD_UPDATE", self.channels[thread_id])

    async def delete_channel(self, channel_id: int) -> None:
        """Delete a channel or thread as a moderator would; later requests to it get 404 / 10003."""
        data = self.channels.pop(channel_id)
        for guild in self.guilds.values():
            if channel_id in guild.channel_ids:
                guild.channel_ids.remove(channel_id)
        event = "THREAD_DELETE" if data["type"] in (p.PUBLIC_THREAD, p.PRIVATE_THREAD) else "CHANNEL_DELETE"
        await self._dispatch_all(event, data)
        await self._notify()

    def expire_sessions(self) -> None:
        """Forget every gateway session, as Discord does after a long enough outage: a client that reconnects and
        sends RESUME is answered INVALID_SESSION (``d: false``) and must IDENTIFY again."""
        self._session_shards.clear()

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection with a resumable code; discord.py reconnects and sends RESUME."""
        for session in list(self.sessions):
            await session.ws.close(code=code)

    # ------------------------------------------------------------------------------------------------- waiting

    async def _notify(self) -> None:
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, check: Callable[[], T], timeout: float = 5.0, what: str = "condition") -> T:
        """Wait until ``check()`` is truthy and return it; raise ``TimeoutError`` naming ``what`` otherwise.
        ``check`` is re-evaluated after every change the fake records, and every few milliseconds for
        conditions on the bot's side (its own error list, a database row)."""
        assert self._changed is not None

        async def poll() -> T:
            assert self._changed is not None
            async with self._changed:
                while not (value := check()):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), _POLL)
                return value

        try:
            return await asyncio.wait_for(poll(), timeout)
        except TimeoutError:
            raise TimeoutError(f"fake Discord: no {what} within {timeout} s") from None

    def watch(self, callback: Callable[[Message], None]) -> None:
        """Call ``callback`` with every message the bot creates or edits, as it happens: for a driver that follows
        thousands of threads at once, where a :meth:`wait_for` per thread would re-check them all on every change."""
        self._watchers.append(callback)

    def _told(self, message: Message) -> None:
        for callback in self._watchers:
            callback(message)

    async def wait_connected(self, timeout: float = 5.0, *, shard: int | None = None) -> GatewaySession:
        """The newest gateway session once it has received READY and every GUILD_CREATE (of shard ``shard``, when
        given)."""
        what = "identified gateway session" + ("" if shard is None else f" of shard {shard}")
        return await self.wait_for(lambda: self._live_session(shard=shard), timeout, what)

    async def next_message(
        self, channel_id: int, *, after: int | None = None, timeout: float = 5.0, ephemeral: bool = False
    ) -> Message:
        """The first message posted in ``channel_id`` after message id ``after`` (or after the call when None);
        ephemeral replies are skipped unless asked for."""
        ids = self.channel_messages.setdefault(channel_id, [])
        start = ids.index(after) + 1 if after is not None else len(ids)

        def found() -> Message | None:
            later = (self.messages[mid] for mid in ids[start:])
            return next((m for m in later if ephemeral or not m.ephemeral), None)

        return await self.wait_for(found, timeout, f"message in channel {channel_id}")

    def channel_log(self, channel_id: int, *, ephemeral: bool = False) -> list[Message]:
        """Messages in a channel in posting order, without deleted ones (ephemeral ones only when asked)."""
        found = [self.messages[mid] for mid in self.channel_messages.get(channel_id, [])]
        return [m for m in found if not m.deleted and (ephemeral or not m.ephemeral)]

    def dms(self, user_id: int) -> list[Message]:
        """Direct messages the bot sent to ``user_id``."""
        cid = self.dm_channels.get(user_id)
        return [] if cid is None else self.channel_log(cid)

    async def acked(self, interaction: Interaction, timeout: float = 5.0) -> Interaction:
        """Wait until the bot answered the interaction's callback."""
        await self.wait_for(lambda: interaction.callbacks, timeout, f"callback for interaction {interaction.id}")
        return interaction

    async def reply(self, interaction: Interaction, timeout: float = 5.0) -> Message:
        """The interaction's original reply once it is final: sent, a deferred reply filled in, or a deferred
        reply deleted (``deleted``: the bot had nothing to add to what it posted elsewhere)."""

        def settled() -> Message | None:
            if interaction.original_id is None:
                return None
            original = self.messages[interaction.original_id]
            return None if original.loading and not original.deleted else original

        return await self.wait_for(settled, timeout, f"reply to interaction {interaction.id}")

    async def followup(self, interaction: Interaction, index: int = 0, timeout: float = 5.0) -> Message:
        """The ``index``-th message the interaction produced besides its original reply."""

        def extra() -> Message | None:
            others = [m for m in interaction.messages if m.id != interaction.original_id]
            return others[index] if len(others) > index else None

        return await self.wait_for(extra, timeout, f"followup {index} of interaction {interaction.id}")

    # ------------------------------------------------------------------------------------------- interactions

    def record_interaction(self, record: Interaction) -> None:
        """Know an interaction, so its callback and webhook routes answer (what dispatching one does)."""
        self.interactions[record.id] = record
        self._by_token[record.token] = record

    async def slash(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        crafted: bool = False,
    ) -> Interaction:
        """Dispatch a slash command as ``user_id`` typed it in ``channel_id``. ``name`` may hold a subcommand
        ("group sub"); option values are given plainly (a user, channel or role option takes its id). A command
        Discord hides from the member (``default_member_permissions``) raises :class:`PermissionError`, as their
        client would not offer it; ``crafted`` sends it all the same, as a forged request would."""
        data = self._command_data(channel_id, name, options or {}, focused=None)
        guild = self._guild_of(channel_id)
        if not crafted and guild is not None:
            command = self._command(channel_id, name.split()[0])
            if not may_use(command, self.member_permissions(guild.id, user_id)):
                raise PermissionError(f"Discord does not show /{name.split()[0]} to user {user_id}")
        return await self._interact(2, user_id, channel_id, data)

    async def autocomplete(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: dict[str, Any],
        focused: str,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Dispatch an autocomplete request with ``focused`` being typed and return the choices the bot sent."""
        data = self._command_data(channel_id, name, options, focused=focused)
        record = await self._interact(4, user_id, channel_id, data)
        await self.wait_for(lambda: record.choices is not None, timeout, f"autocomplete choices for {name}")
        assert record.choices is not None
        return record.choices

    async def click(self, user_id: int, message: Message, custom_id: str) -> Interaction:
        """Dispatch a button press on ``message`` by ``user_id``."""
        if custom_id not in message.custom_ids():
            raise ValueError(f"message {message.id} has no component {custom_id!r}; it has {message.custom_ids()}")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, user_id, message.channel_id, data, message=message.payload)

    async def select(self, user_id: int, message: Message, custom_id: str, values: list[str]) -> Interaction:
        """Dispatch a choice in a select menu of ``message`` by ``user_id``; the values must be among the menu's
        options and within its min/max counts, as Discord's client enforces."""
        menu = next(
            (c for c in message.all_components() if c.get("custom_id") == custom_id and c.get("type") == 3), None
        )
        if menu is None:
            raise ValueError(f"message {message.id} has no select menu {custom_id!r}")
        offered = {option["value"] for option in menu.get("options", [])}
        if not set(values) <= offered or not menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1):
            raise ValueError(f"values {values} cannot be chosen in {custom_id!r} (offered {sorted(offered)})")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._interact(3, user_id, message.channel_id, data, message=message.payload)

    async def message_command(self, user_id: int, message: Message, name: str) -> Interaction:
        """Dispatch a message context-menu command (``name`` as synced, type 3) on ``message`` by ``user_id``."""
        command = self._command(message.channel_id, name)
        if command.get("type") != 3:
            raise LookupError(f"/{name} is not a message command")
        data: dict[str, Any] = {
            "id": command["id"],
            "name": name,
            "type": 3,
            "target_id": str(message.id),
            "resolved": {"messages": {str(message.id): message.payload}},
        }
        if "guild_id" in self.channels[message.channel_id]:
            data["guild_id"] = self.channels[message.channel_id]["guild_id"]
        return await self._interact(2, user_id, message.channel_id, data)

    def _command(self, channel_id: int, name: str) -> dict[str, Any]:
        guild_id = int(self.channels[channel_id].get("guild_id") or 0)
        for command in self.guild_commands.get(guild_id, []) + self.global_commands:
            if command["name"] == name:
                return command
        raise LookupError(f"no synced command /{name} (synced: {[c['name'] for c in self.global_commands]})")

    def _command_data(self, channel_id: int, name: str, options: dict[str, Any], focused: str | None) -> dict[str, Any]:
        top, *subs = name.split()
        command = self._command(channel_id, top)
        definitions = command.get("options") or []
        resolved: dict[str, dict[str, Any]] = {}
        built = self._options(definitions, subs, options, focused, resolved, channel_id)
        data: dict[str, Any] = {"id": command["id"], "name": top, "type": 1, "options": built}
        if "guild_id" in self.channels[channel_id]:
            data["guild_id"] = self.channels[channel_id]["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _options(
        self,
        definitions: list[dict[str, Any]],
        subs: list[str],
        values: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
        channel_id: int,
    ) -> list[dict[str, Any]]:
        if subs:
            sub = next(d for d in definitions if d["name"] == subs[0])
            inner = self._options(sub.get("options") or [], subs[1:], values, focused, resolved, channel_id)
            return [{"name": sub["name"], "type": sub["type"], "options": inner}]
        types = {d["name"]: d["type"] for d in definitions}
        unknown = set(values) - set(types)
        if unknown:
            raise LookupError(f"unknown options {sorted(unknown)}; the command declares {sorted(types)}")
        built = []
        for key, value in values.items():
            option: dict[str, Any] = {"name": key, "type": types[key], "value": value}
            if types[key] == _USER_OPTION and key != focused:
                option["value"] = str(value)
                self._resolve_user(int(value), resolved, channel_id)
            if types[key] == _CHANNEL_OPTION and key != focused:
                option["value"] = str(value)
                channel = self.channels[int(value)]
                resolved.setdefault("channels", {})[str(value)] = p.resolved_channel(channel, p.ALL_PERMISSIONS)
            if types[key] == _ROLE_OPTION and key != focused:
                option["value"] = str(value)
                guild = self._guild_of(channel_id)
                assert guild is not None, "a role option is given in a guild"
                role = guild.roles.roles.get(int(value)) or p.everyone_role(guild.id)
                resolved.setdefault("roles", {})[str(value)] = role
            if key == focused:
                option["focused"] = True
                option["value"] = str(value)
            built.append(option)
        return built

    def _resolve_user(self, uid: int, resolved: dict[str, dict[str, Any]], channel_id: int) -> None:
        resolved.setdefault("users", {})[str(uid)] = self.users[uid]
        guild = self._guild_of(channel_id)
        if guild is not None and uid in guild.members:
            member = {k: v for k, v in guild.members[uid].items() if k != "user"}
            permissions = self.member_permissions(guild.id, uid)
            resolved.setdefault("members", {})[str(uid)] = {**member, "permissions": str(permissions)}

    async def _interact(
        self, kind: int, user_id: int, channel_id: int, data: dict[str, Any], message: dict[str, Any] | None = None
    ) -> Interaction:
        guild = self._guild_of(channel_id)
        session = self._session_for(guild.id if guild is not None else None)
        if session is None:
            where = f"guild {guild.id}" if guild is not None else "DMs"
            raise RuntimeError(f"no bot connected to the fake gateway receives the events of {where}")
        record = Interaction(p.snowflake(), secrets.token_urlsafe(24), kind, user_id, channel_id, data, self._now())
        record.clicked_id = int(message["id"]) if message is not None else None
        self.record_interaction(record)
        payload = self._interaction_payload(record, message)
        await session.dispatch("INTERACTION_CREATE", payload)
        return record

    def _interaction_payload(self, record: Interaction, message: dict[str, Any] | None) -> dict[str, Any]:
        channel = self.channels[record.channel_id]
        guild = self._guild_of(record.channel_id)
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": record.type,
            "data": record.data,
            "channel_id": channel["id"],
            "channel": channel,
            "token": record.token,
            "version": 1,
            "app_permissions": str(self._app_permissions(record.channel_id)),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            member = guild.members.get(record.user_id) or p.member(self.users[record.user_id], joined=p.iso_now())
            payload.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                member={**member, "permissions": str(self.member_permissions(guild.id, record.user_id))},
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(user=self.users[record.user_id], authorizing_integration_owners={"0": "0"}, context=1)
        if message is not None:
            payload["message"] = message
        return payload

    def _app_permissions(self, channel_id: int) -> int:
        bits = p.ALL_PERMISSIONS
        for name in self._denials(channel_id):
            bits &= ~p.PERMISSION_BITS[name]
        return bits

    # --------------------------------------------------------------------------------------------- gateway

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

    # ------------------------------------------------------------------------------------------- middleware

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
        for fault in self.faults:
            # interaction routes are outside the global limit (their token authorises them, not the bot's)
            if fault.matches(key, params) and (needs_token or fault.route != "*"):
                fault.hits += 1
                if fault.gate is not None:
                    await fault.gate.wait()
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.status == 429:
                    return self._too_many(fault)
                if fault.status is not None:
                    return _error(ApiError(fault.status, fault.code or 0, fault.message))
                break
        try:
            return await handler(request)
        except ApiError as err:
            return _error(err)

    @staticmethod
    def _too_many(fault: Fault) -> web.Response:
        """A 429 as Discord's edge sends it (``Via`` included: discord.py reads a 429 without it as a Cloudflare
        ban); ``Retry-After`` is whole seconds, the body's ``retry_after`` exact."""
        headers = {"Via": "1.1 google", "Retry-After": str(max(1, math.ceil(fault.retry_after)))}
        is_global = fault.scope == "global"
        if is_global:
            headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
        elif fault.bucket_headers:
            headers.update(
                {
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                    "X-RateLimit-Bucket": f"fake-{abs(hash(fault.route)):x}",
                    "X-RateLimit-Scope": fault.scope,
                }
            )
        body = {"message": fault.message, "retry_after": fault.retry_after, "global": is_global}
        return json_response(body, status=429, headers=headers)

    @staticmethod
    async def _peek_json(request: web.Request) -> Any:
        json_body = request.headers.get("Content-Type", "").split(";")[0].strip() == "application/json"
        if json_body and request.body_exists:
            return json.loads(await request.read() or b"null")
        return None

    def _now(self) -> float:
        base = self._clock() if self._clock is not None else asyncio.get_running_loop().time()
        return base + self._skew

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on by ``seconds``, as if that long had passed (interaction tokens age by it)."""
        self._skew += seconds

    # -------------------------------------------------------------------------------------------- routes

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

    def _user(self, uid: int) -> dict[str, Any]:
        if uid not in self.users:
            raise ApiError(404, 10013, "Unknown User")
        return self.users[uid]

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

    # ------------------------------------------------------------------------------------------- commands

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

    # ----------------------------------------------------------------------------------------- interactions

    def _interaction_by_token(self, token: str) -> Interaction:
        """The interaction a webhook route names; after :data:`TOKEN_LIFETIME` its token is refused, as Discord
        refuses followups and edits of the original response 15 minutes after the interaction."""
        record = self._by_token.get(token)
        if record is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if self._now() - record.sent_at > TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return record

    async def _callback(self, request: web.Request) -> web.Response:
        record = self.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        if record.callbacks:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self._now() - record.sent_at > self.interaction_deadline:
            raise ApiError(404, 10062, "Unknown interaction")
        self._check_callback(record, body)
        record.callbacks.append(body)
        record.acked_at = self._now()
        resource = await self._apply_callback(record, body.get("type"), body.get("data") or {}, files)
        answer: dict[str, Any] = {"interaction": {"id": str(record.id), "type": record.type}, "resource": resource}
        message = resource.get("message")
        if message is not None:
            flags = int(message.get("flags") or 0)
            answer["interaction"].update(
                response_message_id=message["id"],
                response_message_loading=bool(flags & p.LOADING),
                response_message_ephemeral=bool(flags & p.EPHEMERAL),
            )
        await self._notify()
        return json_response(answer)

    @staticmethod
    def _check_callback(record: Interaction, body: dict[str, Any]) -> None:
        """Refuse a response type that does not fit the interaction (an autocomplete answer to a command, an
        update of a message a command does not have, a modal answering a modal), and a deferred reply flagged
        anything but ephemeral (a layout message comes with the edit of the original response)."""
        kind = body.get("type")
        allowed = _CALLBACKS.get(record.type, ())
        if record.type == 5 and record.clicked_id is not None:
            allowed = _MODAL_FROM_COMPONENT
        if kind not in allowed:
            choices = "{" + ", ".join(str(a) for a in allowed) + "}"
            error = {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": f"Value must be one of {choices}."}]}
            raise ApiError(400, 50035, "Invalid Form Body", {"type": error})
        flags = int((body.get("data") or {}).get("flags") or 0)
        if kind == 5 and flags & ~p.EPHEMERAL:
            error = {"_errors": [{"code": "MESSAGE_FLAGS_INVALID", "message": "Only EPHEMERAL may be set."}]}
            raise ApiError(400, 50035, "Invalid Form Body", {"data": {"flags": error}})

    async def _apply_callback(
        self, record: Interaction, kind: int | None, data: dict[str, Any], files: list[Attachment]
    ) -> dict[str, Any]:
        if kind == 4:
            check_message(data, [f.filename for f in files], prefix=["data"])
        if kind in (4, 5):
            if kind == 5:
                data = {"flags": p.LOADING | (int(data.get("flags") or 0) & p.EPHEMERAL)}
            message = self._store_message(record.channel_id, data, files, record=record, pings=kind == 4)
            record.original_id = message.id
            return {"type": kind, "message": message.payload}
        if kind == 7:
            target = self._clicked_message(record)
            check_message(data, [f.filename for f in files], prefix=["data"], current=target.payload)
            self._edit(target, data, files)
            return {"type": 7, "message": target.payload}
        if kind == 8:
            check_choices(list(data.get("choices") or []))
            record.choices = list(data.get("choices") or [])
        if kind in (6, 8, 9, 12):
            return {"type": kind}
        raise ApiError(400, 50035, f"Invalid Form Body: unknown interaction callback type {kind}")

    def _clicked_message(self, record: Interaction) -> Message:
        message = self.messages.get(record.clicked_id) if record.clicked_id is not None else None
        if message is None or message.deleted:
            raise ApiError(400, 50035, "Invalid Form Body: this interaction has no message to update")
        return message

    async def _post_followup(self, request: web.Request) -> web.Response:
        record = self._interaction_by_token(request.match_info["token"])
        if not record.callbacks:
            raise ApiError(404, 10015, "Unknown Webhook")
        body, files = await self._read_body(request)
        check_message(body, [f.filename for f in files])
        original = self.messages.get(record.original_id) if record.original_id else None
        if original is not None and original.loading and not original.deleted:
            self._edit(original, body, files)
        else:
            original = self._store_message(record.channel_id, body, files, record=record, pings=True)
        await self._notify()
        return json_response(original.payload)

    def _webhook_message(self, request: web.Request) -> Message:
        """The message a webhook route names: one the interaction produced, or (``@original`` of a component
        interaction answered by updating its message, types 6 and 7) the message whose component was used."""
        record = self._interaction_by_token(request.match_info["token"])
        raw = request.match_info["message_id"]
        if raw == "@original" and record.original_id is None and record.response_type in (6, 7):
            message = self.messages.get(record.clicked_id) if record.clicked_id is not None else None
            if message is None or message.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            return message
        mid = record.original_id if raw == "@original" else int(raw)
        message = self.messages.get(mid) if mid is not None else None
        if message is None or message.deleted or message not in record.messages:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        return json_response(self._webhook_message(request).payload)

    async def _patch_webhook_message(self, request: web.Request) -> web.Response:
        message = self._webhook_message(request)
        body, files = await self._read_body(request)
        check_message(body, [f.filename for f in files], current=message.payload)
        self._edit(message, body, files)
        await self._notify()
        return json_response(message.payload)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        self._webhook_message(request).deleted = True
        await self._notify()
        return web.Response(status=204)

    # --------------------------------------------------------------------------------------------- messages

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """The JSON payload and uploaded files of a JSON or multipart request."""
        content_type = request.headers.get("Content-Type", "")
        raw = await request.read()
        if not content_type.startswith("multipart/form-data"):
            return (json.loads(raw) if raw else {}), []
        form = multipart.parts(raw, content_type)
        fields = {part.name: part for part in form}
        body = json.loads(fields["payload_json"].data) if "payload_json" in fields else {}
        described = {str(a.get("id")): a for a in body.get("attachments") or []}
        files = []
        for part in form:
            if part.filename is not None:
                index = part.name.removeprefix("files[").removesuffix("]")
                desc = described.get(index, {}).get("description")
                files.append(Attachment(part.filename, part.data, part.content_type, desc))
        return body, files

    def _channel(self, channel_id: int) -> dict[str, Any]:
        if channel_id not in self.channels:
            raise ApiError(404, 10003, "Unknown Channel")
        return self.channels[channel_id]

    def _guild_of(self, channel_id: int) -> Guild | None:
        gid = self.channels.get(channel_id, {}).get("guild_id")
        return self.guilds.get(int(gid)) if gid else None

    def _denials(self, channel_id: int) -> set[str]:
        channel = self.channels.get(channel_id, {})
        parent = channel.get("parent_id")
        return self.denied.get(channel_id, set()) | (self.denied.get(int(parent), set()) if parent else set())

    def _require(self, channel_id: int, *permissions: str) -> None:
        missing = self._denials(channel_id) & set(permissions)
        if missing:
            raise ApiError(403, 50013, "Missing Permissions")

    def _check_postable(self, channel: dict[str, Any], files: list[Attachment]) -> None:
        """Discord's refusals for a bot posting into a channel: permissions, closed DMs, locked threads."""
        cid = int(channel["id"])
        if channel["type"] == p.DM_CHANNEL:
            recipient = int(channel["recipients"][0]["id"])
            if recipient in self.closed_dms:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        is_thread = channel["type"] in (p.PUBLIC_THREAD, p.PRIVATE_THREAD)
        self._require(cid, "view_channel", "send_messages_in_threads" if is_thread else "send_messages")
        if files:
            self._require(cid, "attach_files")
        if is_thread and channel["thread_metadata"]["locked"]:
            raise ApiError(403, 50083, "Thread is archived")

    def _store_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[Attachment],
        *,
        record: Interaction | None = None,
        pings: bool,
    ) -> Message:
        channel = self._channel(channel_id)
        mid = p.snowflake()
        cdn_files = [
            p.attachment(p.snowflake(), f.filename, len(f.data), f.content_type, self.cdn_url, channel_id)
            for f in files
        ]
        payload = p.message(mid, channel, self.bot_user, body, cdn_files)
        if payload["flags"] & p.IS_COMPONENTS_V2:
            payload["components"] = p.layout_components(payload["components"], cdn_files)
        if body.get("nonce") is not None:
            payload["nonce"] = body["nonce"]
        content = p.shown_text(payload)
        payload["mentions"] = [self.users[u] for u in p.mentioned_ids(content) if u in self.users]
        if record is not None:
            payload["webhook_id"] = str(self.application_id)
            payload["application_id"] = str(self.application_id)
            payload["interaction_metadata"] = {
                "id": str(record.id),
                "type": record.type,
                "user": self.users[record.user_id],
                "authorizing_integration_owners": {},
            }
        flags = payload["flags"]
        allowed = body.get("allowed_mentions")
        loud = pings and not flags & p.SUPPRESS_NOTIFICATIONS
        pinged = p.pinged_ids(content, allowed) if loud else []
        everyone = loud and self._may_ping_everyone(channel) and p.mentions_everyone(content, allowed)
        if everyone:
            payload["mention_everyone"] = True
            pinged += [u for u in self._audience(channel) if u not in pinged]
        message = Message(
            mid,
            channel_id,
            self.application_id,
            payload["content"],
            payload["embeds"],
            payload["components"],
            files,
            allowed,
            flags,
            pinged,
            payload,
            interaction_id=record.id if record else None,
        )
        message.pinged_everyone = everyone
        self.messages[mid] = message
        self.channel_messages.setdefault(channel_id, []).append(mid)
        if record is not None:
            record.messages.append(message)
        channel["last_message_id"] = str(mid)
        self._told(message)
        return message

    def _may_ping_everyone(self, channel: dict[str, Any]) -> bool:
        """Discord honours ``@everyone``/``@here`` only in a guild channel where the bot holds MENTION_EVERYONE."""
        return "guild_id" in channel and "mention_everyone" not in self._denials(int(channel["id"]))

    def _audience(self, channel: dict[str, Any]) -> list[int]:
        """Who an ``@everyone`` reaches: a thread's members, or every member of the channel's guild (not the bot)."""
        cid = int(channel["id"])
        if cid in self.threads:
            return list(self.threads[cid].members)
        guild = self._guild_of(cid)
        return [u for u in (guild.members if guild else {}) if u != self.application_id]

    def _edit(self, message: Message, body: dict[str, Any], files: list[Attachment]) -> None:
        """Apply an edit; edits never ping, but filling in a deferred reply keeps its first content. The layout
        flag, once set, stays."""
        message.edits.append(body)
        payload = message.payload
        if "attachments" in body or files:
            kept_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in payload["attachments"] if a["id"] in kept_ids]
            kept_files = [f for f, a in zip(message.attachments, payload["attachments"], strict=True) if a in kept]
            new = [
                p.attachment(p.snowflake(), f.filename, len(f.data), f.content_type, self.cdn_url, message.channel_id)
                for f in files
            ]
            payload["attachments"] = kept + new
            message.attachments = kept_files + files
        if "allowed_mentions" in body and message.loading:
            message.allowed_mentions = body["allowed_mentions"]
        kept_flags = p.SUPPRESS_NOTIFICATIONS | p.IS_COMPONENTS_V2
        message.flags = (message.flags & ~p.LOADING) | (int(body.get("flags") or 0) & kept_flags)
        payload["flags"] = message.flags
        for key in ("content", "embeds", "components"):
            if key in body:
                payload[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "components" in body and message.layout:
            payload["components"] = p.layout_components(payload["components"], payload["attachments"])
        payload["edited_timestamp"] = p.iso_now()
        message.content, message.embeds, message.components = (
            payload["content"],
            payload["embeds"],
            payload["components"],
        )
        self._told(message)

    async def _post_message(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["channel_id"])
        channel = self._channel(cid)
        body, files = await self._read_body(request)
        self._check_postable(channel, files)
        check_message(body, [f.filename for f in files])
        earlier = self._same_nonce(body)
        if earlier is not None:
            return json_response(earlier.payload)
        meta = channel.get("thread_metadata")
        if meta is not None and meta["archived"]:
            meta["archived"] = False
            await self._dispatch_all("THREAD_UPDATE", channel)
        message = self._store_message(cid, body, files, pings=True)
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            self._nonces[str(body["nonce"])] = (message.id, self._now())
        await self._notify()
        return json_response(message.payload)

    def _same_nonce(self, body: dict[str, Any]) -> Message | None:
        """Discord's ``enforce_nonce``: a message whose nonce the bot used within the last few minutes is not
        created again; the first one is returned instead (a post retried after a crash appears once)."""
        if not body.get("enforce_nonce") or body.get("nonce") is None:
            return None
        earlier = self._nonces.get(str(body["nonce"]))
        if earlier is None or self._now() - earlier[1] > NONCE_WINDOW:
            return None
        message = self.messages.get(earlier[0])
        return message if message is not None and not message.deleted else None

    def _message(self, request: web.Request) -> Message:
        self._channel(int(request.match_info["channel_id"]))
        message = self.messages.get(int(request.match_info["message_id"]))
        if message is None or message.deleted or message.channel_id != int(request.match_info["channel_id"]):
            raise ApiError(404, 10008, "Unknown Message")
        if message.ephemeral:  # only the interaction's webhook routes reach an ephemeral message
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, request: web.Request) -> web.Response:
        return json_response(self._message(request).payload)

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        body, files = await self._read_body(request)
        check_message(body, [f.filename for f in files], current=message.payload)
        self._edit(message, body, files)
        await self._notify()
        return json_response(message.payload)

    async def _delete_message(self, request: web.Request) -> web.Response:
        self._message(request).deleted = True
        await self._notify()
        return web.Response(status=204)

    async def _get_history(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["channel_id"])
        self._channel(cid)
        limit = int(request.query.get("limit", 50))
        found = [m.payload for m in reversed(self.channel_log(cid))]
        if "before" in request.query:
            found = [m for m in found if int(m["id"]) < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if int(m["id"]) > int(request.query["after"])]
        return json_response(found[:limit])

    # ---------------------------------------------------------------------------------------------- channels

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(int(request.match_info["channel_id"])))

    async def _patch_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(int(request.match_info["channel_id"]))
        body = await request.json()
        meta = channel.get("thread_metadata")
        if meta is not None:
            if meta["locked"] and body.get("archived") is False and body.get("locked") is not False:
                self._require(int(channel["id"]), "manage_threads")
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body[key]
        if "name" in body:
            channel["name"] = body["name"]
        event = "THREAD_UPDATE" if meta is not None else "CHANNEL_UPDATE"
        await self._dispatch_all(event, channel)
        await self._notify()
        return json_response(channel)

    async def _delete_channel(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["channel_id"])
        data = self._channel(cid)
        await self.delete_channel(cid)
        return json_response(data)

    async def _post_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(int(request.match_info["channel_id"]))
        if parent["type"] != p.TEXT_CHANNEL:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        starter = request.match_info.get("message_id")
        private = starter is None and body.get("type", p.PRIVATE_THREAD) == p.PRIVATE_THREAD
        self._require(
            int(parent["id"]), "view_channel", "create_private_threads" if private else "create_public_threads"
        )
        if starter is not None:
            self._message(request)
        tid = int(starter) if starter is not None else p.snowflake()
        if tid in self.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        auto_archive = int(body.get("auto_archive_duration") or parent["default_auto_archive_duration"])
        data = p.thread(tid, parent, self.application_id, body["name"], private=private, auto_archive=auto_archive)
        self._add_thread(data, Thread(tid, int(parent["id"]), body["name"], int(starter) if starter else None, private))
        await self._dispatch_all("THREAD_CREATE", {**data, "newly_created": True})
        await self._notify()
        return json_response(data, status=201)

    async def _put_thread_member(self, request: web.Request) -> web.Response:
        tid = int(request.match_info["channel_id"])
        channel = self._channel(tid)
        if tid not in self.threads:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if channel["thread_metadata"]["archived"]:
            raise ApiError(400, 50083, "Thread is archived")
        raw = request.match_info["user_id"]
        uid = self.application_id if raw == "@me" else int(raw)
        self._user(uid)
        members = self.threads[tid].members
        if uid not in members:
            members.append(uid)
            channel["member_count"] = len(members) + 1
        await self._notify()
        return web.Response(status=204)

    async def _post_dm(self, request: web.Request) -> web.Response:
        uid = int((await request.json())["recipient_id"])
        return json_response(self.channels[self.open_dm(uid)])

    # ------------------------------------------------------------------------------------------------ guilds

    def _guild(self, request: web.Request) -> Guild:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, request: web.Request) -> web.Response:
        return json_response(self._guild_payload(self._guild(request)))

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        return json_response(self._guild_payload(self._guild(request))["channels"])

    async def _get_active_threads(self, request: web.Request) -> web.Response:
        return json_response({"threads": self._guild_payload(self._guild(request))["threads"], "members": []})

    async def _get_member(self, request: web.Request) -> web.Response:
        member = self._guild(request).members.get(int(request.match_info["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member)
