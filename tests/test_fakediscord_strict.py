"""The fake Discord refuses what Discord refuses: oversized or empty messages, components that break the layout
rules, oversized autocomplete answers, ephemeral messages reached through channel routes; and it pings
``@everyone`` only when ``allowed_mentions`` lets it through and the bot holds the permission. Requests are sent
straight to the fake's REST routes; the last test plays a game with the product bot and checks it never lets
``@everyone`` through."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp

from tests.fakediscord import payloads as p
from tests.fakediscord.pbm import pbm_running, start_game
from tests.fakediscord.records import Interaction

if TYPE_CHECKING:
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


async def send(
    fake: FakeDiscord, method: str, path: str, body: Any = None, files: int = 0
) -> tuple[int, dict[str, Any]]:
    """One REST request as the bot makes it (JSON, or multipart with ``files`` uploads); status and JSON answer."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        if files:
            form = aiohttp.FormData()
            payload = {**body, "attachments": [{"id": i, "filename": f"f{i}.txt"} for i in range(files)]}
            form.add_field("payload_json", json.dumps(payload))
            for i in range(files):
                form.add_field(f"files[{i}]", b"x", filename=f"f{i}.txt", content_type="text/plain")
            request = session.request(method, fake.base_url + path, data=form, headers=headers)
        else:
            request = session.request(method, fake.base_url + path, json=body, headers=headers)
        async with request as response:
            text = await response.text()
            return response.status, json.loads(text) if text else {}


def refused(answer: tuple[int, dict[str, Any]], *path: str) -> bool:
    """Whether the answer is Discord's 400 Invalid Form Body with an error at ``path`` of its errors tree."""
    status, data = answer
    node = data.get("errors") or {}
    for key in path:
        node = node.get(key) or {}
    form_error = status == 400 and data.get("code") == 50035 and data.get("message") == "Invalid Form Body"
    return form_error and "_errors" in node


def interaction(fake: FakeDiscord, channel: int, user: int, kind: int = 2) -> Interaction:
    """An interaction the fake knows, as if dispatched just now, so its callback and webhook routes answer."""
    record = Interaction(p.snowflake(), f"token{len(fake.interactions)}", kind, user, channel, {}, fake._now())
    fake.record_interaction(record)
    return record


def button(custom_id: str, label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def menu(custom_id: str, options: list[str]) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": o, "value": o} for o in options]}


def rows(*items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"content": "pick", "components": [{"type": 1, "components": row} for row in items]}


async def test_messages_over_discords_size_limits_or_empty_are_refused(discord_world: World) -> None:
    w = discord_world
    post = f"/channels/{w.channel}/messages"
    ok = await send(w.fake, "POST", post, {"content": "x" * 2000})
    too_long = await send(w.fake, "POST", post, {"content": "x" * 2001})
    empty = await send(w.fake, "POST", post, {"content": ""})
    embeds = await send(w.fake, "POST", post, {"embeds": [{"title": str(i)} for i in range(11)]})
    ten_files = await send(w.fake, "POST", post, {}, files=10)
    eleven_files = await send(w.fake, "POST", post, {}, files=11)
    emptied = await send(w.fake, "PATCH", f"{post}/{ok[1]['id']}", {"content": ""})
    assert ok[0] == 200 and ten_files[0] == 200
    assert refused(too_long, "content") and refused(embeds, "embeds") and refused(eleven_files, "attachments")
    assert empty == (400, {"message": "Cannot send an empty message", "code": 50006})
    assert emptied[1]["code"] == 50006
    assert [len(m.content) for m in w.fake.channel_log(w.channel)] == [2000, 0]


async def test_components_that_break_discords_layout_rules_are_refused(discord_world: World) -> None:
    w = discord_world
    post = f"/channels/{w.channel}/messages"
    good = rows([button(f"b{i}") for i in range(5)], [menu("m", [str(i) for i in range(25)])])
    answers = {
        "fine": await send(w.fake, "POST", post, good),
        "six rows": await send(w.fake, "POST", post, rows(*[[button(f"r{i}")] for i in range(6)])),
        "six buttons": await send(w.fake, "POST", post, rows([button(f"b{i}") for i in range(6)])),
        "26 options": await send(w.fake, "POST", post, rows([menu("m", [str(i) for i in range(26)])])),
        "no options": await send(w.fake, "POST", post, rows([menu("m", [])])),
        "select and button": await send(w.fake, "POST", post, rows([menu("m", ["a"]), button("b")])),
        "long custom_id": await send(w.fake, "POST", post, rows([button("c" * 101)])),
        "long label": await send(w.fake, "POST", post, rows([button("b", "l" * 81)])),
        "long option label": await send(w.fake, "POST", post, rows([menu("m", ["o" * 101])])),
        "repeated custom_id": await send(w.fake, "POST", post, rows([button("b"), button("b")])),
    }
    assert answers.pop("fine")[0] == 200
    assert refused(answers.pop("six rows"), "components")
    assert refused(answers.pop("six buttons"), "components", "0", "components")
    assert refused(answers.pop("26 options"), "components", "0", "components", "0", "options")
    assert refused(answers.pop("no options"), "components", "0", "components", "0", "options")
    assert refused(answers.pop("select and button"), "components", "0", "components")
    assert refused(answers.pop("long custom_id"), "components", "0", "components", "0", "custom_id")
    assert refused(answers.pop("long label"), "components", "0", "components", "0", "label")
    assert refused(answers.pop("long option label"), "components", "0", "components", "0", "options", "0", "label")
    assert refused(answers.pop("repeated custom_id"), "components", "0", "components", "1", "custom_id")
    assert len(w.fake.channel_log(w.channel)) == 1


async def test_autocomplete_answers_over_25_choices_or_100_characters_are_refused(discord_world: World) -> None:
    w = discord_world

    async def answer(choices: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
        record = interaction(w.fake, w.channel, w.alice, kind=4)
        body = {"type": 8, "data": {"choices": choices}}
        return await send(w.fake, "POST", f"/interactions/{record.id}/{record.token}/callback", body)

    fine = await answer([{"name": str(i), "value": str(i)} for i in range(25)])
    too_many = await answer([{"name": str(i), "value": str(i)} for i in range(26)])
    long_name = await answer([{"name": "n" * 101, "value": "v"}])
    long_value = await answer([{"name": "n", "value": "v" * 101}])
    assert fine[0] == 200
    assert refused(too_many, "data", "choices")
    assert refused(long_name, "data", "choices", "0", "name")
    assert refused(long_value, "data", "choices", "0", "value")


async def test_an_ephemeral_message_is_unknown_to_the_channel_routes(discord_world: World) -> None:
    w = discord_world
    record = interaction(w.fake, w.channel, w.alice)
    body = {"type": 4, "data": {"content": "only you", "flags": 64}}
    assert (await send(w.fake, "POST", f"/interactions/{record.id}/{record.token}/callback", body))[0] == 200
    assert record.original_id is not None
    channel_route = f"/channels/{w.channel}/messages/{record.original_id}"
    webhook_route = f"/webhooks/{w.fake.application_id}/{record.token}/messages/@original"
    unknown = {"message": "Unknown Message", "code": 10008}
    assert await send(w.fake, "GET", channel_route) == (404, unknown)
    assert await send(w.fake, "PATCH", channel_route, {"content": "edited"}) == (404, unknown)
    assert await send(w.fake, "DELETE", channel_route) == (404, unknown)
    assert (await send(w.fake, "PATCH", webhook_route, {"content": "edited"}))[0] == 200
    assert w.fake.messages[record.original_id].content == "edited"


async def test_everyone_pings_only_when_allowed_and_permitted_and_the_bot_never_allows_it(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    post = f"/channels/{w.channel}/messages"
    await send(w.fake, "POST", post, {"content": "@everyone look"})
    await send(w.fake, "POST", post, {"content": "@here look", "allowed_mentions": {"parse": ["users"]}})
    await send(w.fake, "POST", post, {"content": "@here look", "allowed_mentions": {"parse": ["everyone"]}})
    w.fake.deny(w.channel, "mention_everyone")
    await send(w.fake, "POST", post, {"content": "@everyone look"})
    w.fake.allow(w.channel)
    loud, suppressed, here, forbidden = w.fake.channel_log(w.channel)
    assert loud.pinged_everyone and set(loud.pinged) == {w.fake.guilds[w.guild].owner_id, w.alice, w.bob, w.carol}
    assert loud.payload["mention_everyone"] and here.pinged_everyone
    assert not suppressed.pinged_everyone and suppressed.pinged == []
    assert not forbidden.pinged_everyone and forbidden.pinged == []
    everyone = await w.fake.add_member(w.guild, "@everyone")
    before = set(w.fake.messages)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [everyone, w.bob], options="-size=5")
        await table.move_and_wait(everyone, "c3")
        await table.move_and_wait(w.bob, "a1")
    posted = [m for mid, m in w.fake.messages.items() if mid not in before and not m.ephemeral]
    turns = w.fake.channel_log(table.thread.id)
    assert len(turns) >= 3 and any("@everyone" in m.text() for m in posted)
    for message in posted:
        parse = (message.allowed_mentions or {}).get("parse") or []
        assert message.allowed_mentions is not None and "everyone" not in parse, message.content
        assert not message.pinged_everyone, message.content
