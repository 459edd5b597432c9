"""Interactions a user makes in Discord's client, dispatched to the bot as INTERACTION_CREATE: slash commands
(subcommands and user, channel and role options resolved as Discord resolves them), autocomplete, button presses,
select-menu choices and message context-menu commands.

What the client would not let a user do is refused here before anything is sent: a command hidden from the member
by ``default_member_permissions`` (:class:`PermissionError`, unless ``crafted``), a component the message does not
have, select values the menu does not offer. The interaction goes to the connection whose shard owns the guild
(shard 0 for DMs); it carries the member's permissions and the bot's ``app_permissions`` in the channel.
"""

from __future__ import annotations

import secrets
from typing import Any

from tests.fakediscord import payloads as p
from tests.fakediscord.members import may_use
from tests.fakediscord.records import Interaction, Message
from tests.fakediscord.state import FakeState

#: application command option types whose values the fake resolves (user, channel, role)
_USER_OPTION, _CHANNEL_OPTION, _ROLE_OPTION = 6, 7, 8


class InteractionDriver(FakeState):
    """The test-facing API that dispatches interactions as a user would (see the module)."""

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
