"""REST routes of channels, threads, DMs and guilds: fetch, rename, archive or lock, delete; start a thread (from a
message it shares its id, else private unless asked otherwise) and add members to it; open a DM; read a guild, its
channels, active threads and members.

Refused as Discord refuses: a thread under anything but a text channel (400/50024), a second thread from one
message (400/160004), adding to an archived thread (400/50083), unlocking a locked thread without MANAGE_THREADS
and creating threads without the permission (403/50013), unknown channels, guilds, members and users (404).
"""

from __future__ import annotations

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.limits import ApiError
from tests.fakediscord.records import Thread
from tests.fakediscord.replies import json_response
from tests.fakediscord.routes.messages import MessageRoutes
from tests.fakediscord.state import Guild
from tests.fakediscord.world import WorldBuilder


class ChannelRoutes(MessageRoutes, WorldBuilder):
    """The channel, thread, DM and guild routes (see the module)."""

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
