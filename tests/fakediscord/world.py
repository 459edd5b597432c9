"""Building the world a test plays in, and changing it as Discord's people do: guilds, text channels, members,
roles and permissions, threads made earlier, DM channels; a moderator archiving a thread or deleting a channel.

Every change the bot would hear of is announced on the gateway (GUILD_CREATE, CHANNEL_CREATE, GUILD_ROLE_CREATE,
THREAD_CREATE, THREAD_UPDATE, CHANNEL_DELETE / THREAD_DELETE) to the connections whose shard owns the guild.
"""

from __future__ import annotations

from typing import Any

from tests.fakediscord import payloads as p
from tests.fakediscord.members import bits_of
from tests.fakediscord.records import Thread
from tests.fakediscord.state import FakeState, Guild


class WorldBuilder(FakeState):
    """The test-facing API that makes guilds, channels, members, roles, threads and DMs (see the module)."""

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
