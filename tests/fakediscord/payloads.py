"""JSON shapes of Discord objects as the REST API and the gateway send them, reduced to what discord.py 2.7 reads.

Kept apart from the server so every route and event builds a user, member, channel or message the same way; a
field discord.py indexes with ``data[...]`` must be present or the client crashes far from the cause.
"""

from __future__ import annotations

import itertools
import re
import time
from datetime import UTC, datetime
from typing import Any

from tests.fakediscord.components import TEXT_DISPLAY, attachment_name, walk

DISCORD_EPOCH_MS = 1420070400000
#: every permission bit Discord defines up to 2026 (the fake grants all of them unless a test denies some)
ALL_PERMISSIONS = (1 << 51) - 1
PERMISSION_BITS = {
    "administrator": 1 << 3,
    "manage_guild": 1 << 5,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "mention_everyone": 1 << 17,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}
#: what an ordinary member may do (the @everyone defaults of a new guild, Manage Server and Administrator not among
#: them): view channels, send messages, embed links, attach files, read history, add reactions, use application
#: commands, create public threads, send messages in threads
MEMBER_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31) | (1 << 35) | (1 << 38)
)
TEXT_CHANNEL, DM_CHANNEL, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
EPHEMERAL, LOADING, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 12, 1 << 15
_MENTION = re.compile(r"<@!?(\d+)>")

_counter = itertools.count()


def snowflake() -> int:
    """A fresh id shaped like Discord's (milliseconds since 2015 in the high bits), unique within the process so
    several fakes in one test run never hand out the same id."""
    millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (millis << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    """The current time in the ISO-8601 form Discord uses for timestamps."""
    return datetime.now(UTC).isoformat()


def user(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A user object; ``discriminator`` "0" marks the new unique-username system."""
    return {
        "id": str(uid),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def member(user_payload: dict[str, Any], *, joined: str, permissions: int | None = None) -> dict[str, Any]:
    """A guild member; ``permissions`` is only present in interaction payloads (resolved for the channel)."""
    payload: dict[str, Any] = {
        "user": user_payload,
        "roles": [],
        "nick": None,
        "avatar": None,
        "joined_at": joined,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def everyone_role(guild_id: int) -> dict[str, Any]:
    """The @everyone role, whose id equals the guild id; it grants everything so permission checks are the fake's
    own per-channel denials."""
    return {
        "id": str(guild_id),
        "name": "@everyone",
        "permissions": str(ALL_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def role(rid: int, name: str, permissions: int, position: int) -> dict[str, Any]:
    """A guild role other than @everyone."""
    return {
        "id": str(rid),
        "name": name,
        "permissions": str(permissions),
        "position": position,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def resolved_channel(channel: dict[str, Any], permissions: int) -> dict[str, Any]:
    """A channel as an interaction's ``resolved`` data carries it: the channel and the member's permissions in it."""
    return {**channel, "permissions": str(permissions)}


def text_channel(cid: int, guild_id: int, name: str, position: int) -> dict[str, Any]:
    """A guild text channel."""
    return {
        "id": str(cid),
        "type": TEXT_CHANNEL,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "default_auto_archive_duration": 1440,
        "flags": 0,
    }


def thread(
    tid: int, parent: dict[str, Any], owner_id: int, name: str, *, private: bool, auto_archive: int
) -> dict[str, Any]:
    """A thread under ``parent``; ``thread_metadata`` carries the archive state the server toggles."""
    return {
        "id": str(tid),
        "type": PRIVATE_THREAD if private else PUBLIC_THREAD,
        "guild_id": parent["guild_id"],
        "parent_id": parent["id"],
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": auto_archive,
            "archive_timestamp": iso_now(),
            "locked": False,
            "invitable": not private,
            "create_timestamp": iso_now(),
        },
    }


def dm_channel(cid: int, recipient: dict[str, Any]) -> dict[str, Any]:
    """A direct-message channel with one recipient."""
    return {"id": str(cid), "type": DM_CHANNEL, "last_message_id": None, "recipients": [recipient], "flags": 0}


def attachment(aid: int, filename: str, size: int, content_type: str | None, cdn: str, cid: int) -> dict[str, Any]:
    """An uploaded file as the message payload lists it."""
    url = f"{cdn}/attachments/{cid}/{aid}/{filename}"
    return {
        "id": str(aid),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
    }


def message(
    mid: int, channel: dict[str, Any], author: dict[str, Any], body: dict[str, Any], attachments: list[dict[str, Any]]
) -> dict[str, Any]:
    """A message built from the JSON body a client sent (content, embeds, components, flags)."""
    payload: dict[str, Any] = {
        "id": str(mid),
        "channel_id": channel["id"],
        "author": author,
        "content": body.get("content") or "",
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": body.get("embeds") or [],
        "components": body.get("components") or [],
        "pinned": False,
        "type": 0,
        "flags": int(body.get("flags") or 0),
    }
    if "guild_id" in channel:
        payload["guild_id"] = channel["guild_id"]
    return payload


def mentioned_ids(content: str) -> list[int]:
    """User ids written as ``<@id>`` or ``<@!id>`` in ``content``, in order, without repeats."""
    seen: dict[int, None] = {}
    for match in _MENTION.finditer(content):
        seen[int(match.group(1))] = None
    return list(seen)


_EVERYONE = re.compile(r"@(everyone|here)\b")


def mentions_everyone(content: str, allowed_mentions: dict[str, Any] | None) -> bool:
    """Whether ``content`` writes ``@everyone`` or ``@here`` and ``allowed_mentions`` lets it through (absent means
    it does; otherwise ``parse`` must include "everyone"). Discord then pings only if the author may mention
    everyone."""
    if not _EVERYONE.search(content):
        return False
    return allowed_mentions is None or "everyone" in (allowed_mentions.get("parse") or [])


def pinged_ids(content: str, allowed_mentions: dict[str, Any] | None) -> list[int]:
    """Who Discord would notify for ``content`` under ``allowed_mentions``: absent means every user mention
    pings; otherwise only users listed in ``users`` or all of them when ``parse`` includes "users"."""
    written = mentioned_ids(content)
    if allowed_mentions is None or "users" in (allowed_mentions.get("parse") or []):
        return written
    allowed = {int(u) for u in allowed_mentions.get("users") or []}
    return [uid for uid in written if uid in allowed]


def json_copy(value: Any) -> Any:
    """A copy of a tree of dicts and lists read from JSON (a message's components): ``copy.deepcopy`` without its
    memo and dispatch, which cost the load test a tenth of the fake's time."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


def layout_components(components: list[dict[str, Any]], attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A layout message's components as Discord returns them: ``attachment://name`` media resolved to the file's
    CDN url (with its ``attachment_id`` and content type), and every component numbered (``id``) where the sender
    left it out, counting on from the numbers already taken."""
    resolved = json_copy(components)
    files = {a["filename"]: a for a in attachments}
    taken = {c["id"] for c in walk(resolved) if c.get("id")}
    numbers = (n for n in itertools.count(1) if n not in taken)
    for component in walk(resolved):
        if not component.get("id"):
            component["id"] = next(numbers)
        medias = [item.get("media") for item in component.get("items") or []]
        medias += [component.get("media"), component.get("file")]
        for media in medias:
            name = attachment_name(media.get("url")) if isinstance(media, dict) else None
            if name is not None and name in files:
                found = files[name]
                media.update(
                    url=found["url"],
                    proxy_url=found["proxy_url"],
                    content_type=found["content_type"],
                    attachment_id=found["id"],
                    flags=0,
                )
    return resolved


def shown_text(payload: dict[str, Any]) -> str:
    """The text a message shows, where mentions are read from: its content, or a layout message's text displays."""
    if int(payload.get("flags") or 0) & IS_COMPONENTS_V2:
        return "\n".join(c.get("content") or "" for c in walk(payload["components"]) if c.get("type") == TEXT_DISPLAY)
    return payload["content"]
