"""REST routes of channel messages: post, fetch, edit, delete, history; and the message store every route that
creates or edits a message shares (interaction replies and followups included).

Reproduced from Discord: who a message pings (mentions, ``allowed_mentions``, ``@everyone`` only where the bot may,
none when SUPPRESS_NOTIFICATIONS), uploaded files served from the fake CDN, a layout message's (IS_COMPONENTS_V2)
components filled in as Discord returns them, a message sent to an archived, unlocked thread unarchiving it, and
``enforce_nonce``: a message posted with a nonce used in the last five minutes is not created again (the first is
returned). Refused: missing permissions (403/50013), closed DMs (403/50007), locked threads (403/50083), bodies
over Discord's limits (:mod:`tests.fakediscord.limits`), unknown channels and messages (404), an ephemeral message
through the channel routes.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tests.fakediscord import multipart
from tests.fakediscord import payloads as p
from tests.fakediscord.limits import ApiError, check_message
from tests.fakediscord.records import Attachment, Interaction, Message
from tests.fakediscord.replies import json_response
from tests.fakediscord.state import FakeState

#: how long Discord remembers a message's nonce for ``enforce_nonce`` ("the past few minutes")
NONCE_WINDOW = 300.0


class MessageRoutes(FakeState):
    """The message store and the channel message routes (see the module)."""

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
