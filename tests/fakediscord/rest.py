"""Talking to the fake's REST routes directly, as a bot would, for tests of what the fake accepts and refuses
without a discord.py client in between."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import aiohttp

from tests.fakediscord import payloads as p
from tests.fakediscord.records import Interaction

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord


async def send(
    fake: FakeDiscord, method: str, path: str, body: Any = None, files: int | list[str] = 0
) -> tuple[int, dict[str, Any]]:
    """One REST request as the bot makes it (JSON, or multipart with ``files`` uploads: a count, or the file
    names); status and JSON answer."""
    return (await exchange(fake, method, path, body, files))[:2]


async def exchange(
    fake: FakeDiscord, method: str, path: str, body: Any = None, files: int | list[str] = 0
) -> tuple[int, dict[str, Any], dict[str, str]]:
    """:func:`send`, with the answer's headers too."""
    headers = {"Authorization": f"Bot {fake.token}"}
    names = [f"f{i}.txt" for i in range(files)] if isinstance(files, int) else files
    async with aiohttp.ClientSession() as session:
        if names:
            form = aiohttp.FormData()
            payload = {**body, "attachments": [{"id": i, "filename": name} for i, name in enumerate(names)]}
            form.add_field("payload_json", json.dumps(payload))
            for i, name in enumerate(names):
                form.add_field(f"files[{i}]", b"x", filename=name, content_type="application/octet-stream")
            request = session.request(method, fake.base_url + path, data=form, headers=headers)
        else:
            request = session.request(method, fake.base_url + path, json=body, headers=headers)
        async with request as response:
            text = await response.text()
            return response.status, json.loads(text) if text else {}, dict(response.headers)


def refused(answer: tuple[int, dict[str, Any]], *path: str) -> bool:
    """Whether the answer is Discord's 400 Invalid Form Body with an error at ``path`` of its errors tree."""
    status, data = answer
    node = data.get("errors") or {}
    for key in path:
        node = node.get(key) or {}
    form_error = status == 400 and data.get("code") == 50035 and data.get("message") == "Invalid Form Body"
    return form_error and "_errors" in node


def error_codes(answer: tuple[int, dict[str, Any]], *path: str) -> list[str]:
    """The error codes at ``path`` of a 50035 answer's errors tree."""
    node = answer[1].get("errors") or {}
    for key in path:
        node = node.get(key) or {}
    return [e["code"] for e in node.get("_errors", [])]


def interaction(
    fake: FakeDiscord, channel: int, user: int, kind: int = 2, *, clicked: int | None = None
) -> Interaction:
    """An interaction the fake knows, as if dispatched just now (``kind`` 2 command, 3 component, 4
    autocomplete, 5 modal submit; ``clicked``: the message of the component), so its routes answer."""
    record = Interaction(p.snowflake(), f"token{len(fake.interactions)}", kind, user, channel, {}, fake._now())
    record.clicked_id = clicked
    fake.record_interaction(record)
    return record


def callback_route(record: Interaction) -> str:
    """The route of an interaction's initial response."""
    return f"/interactions/{record.id}/{record.token}/callback"


def webhook_route(fake: FakeDiscord, record: Interaction, message: str = "") -> str:
    """The interaction's webhook route: followups, or ``message`` ("@original", an id) to fetch or edit."""
    base = f"/webhooks/{fake.application_id}/{record.token}"
    return f"{base}/messages/{message}" if message else base
