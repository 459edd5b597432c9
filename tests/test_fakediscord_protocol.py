"""The fake Discord answers protocol mistakes as Discord does: a response type that does not fit the interaction
(400/50035 at ``type``), a second initial response (400/40060), command definitions Discord refuses in a bulk
overwrite (400/50035 with the errors at their place), followups and edits after the interaction token's 15
minutes (401/50027, on the fake's clock, without waiting); and its 429s come in Discord's three shapes. Requests
go straight to the fake's REST routes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.rest import (
    callback_route,
    error_codes,
    exchange,
    interaction,
    refused,
    send,
    webhook_route,
)

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]

COMMANDS = "/applications/{app}/commands"


async def test_response_types_that_do_not_fit_the_interaction_are_refused(discord_world: World) -> None:
    w = discord_world
    command = interaction(w.fake, w.channel, w.alice, kind=2)
    typing = interaction(w.fake, w.channel, w.alice, kind=4)
    modal = interaction(w.fake, w.channel, w.alice, kind=5)
    answers = {
        "choices to a command": await send(w.fake, "POST", callback_route(command), {"type": 8, "data": {}}),
        "update to a command": await send(w.fake, "POST", callback_route(command), {"type": 7, "data": {}}),
        "message to autocomplete": await send(w.fake, "POST", callback_route(typing), {"type": 4, "data": {}}),
        "modal to a modal": await send(w.fake, "POST", callback_route(modal), {"type": 9, "data": {}}),
    }
    # a refused response acknowledges nothing: the fitting one is still accepted, once
    first = await send(w.fake, "POST", callback_route(command), {"type": 5, "data": {"flags": 64}})
    second = await send(w.fake, "POST", callback_route(command), {"type": 4, "data": {"content": "again"}})
    for what, answer in answers.items():
        assert refused(answer, "type") and error_codes(answer, "type") == ["BASE_TYPE_CHOICES"], what
    assert answers["choices to a command"][1]["errors"]["type"]["_errors"][0]["message"] == (
        "Value must be one of {4, 5, 9, 12}."
    )
    assert answers["message to autocomplete"][1]["errors"]["type"]["_errors"][0]["message"] == (
        "Value must be one of {8}."
    )
    assert first[0] == 200 and command.response_type == 5 and len(command.callbacks) == 1
    assert second == (400, {"message": "Interaction has already been acknowledged.", "code": 40060})


async def test_a_deferred_update_edits_the_clicked_message_through_original(discord_world: World) -> None:
    w = discord_world
    posted = await send(w.fake, "POST", f"/channels/{w.channel}/messages", {"content": "page 1"})
    clicked = int(posted[1]["id"])
    click = interaction(w.fake, w.channel, w.bob, kind=3, clicked=clicked)
    command = interaction(w.fake, w.channel, w.bob, kind=2)
    before = await send(w.fake, "PATCH", webhook_route(w.fake, click, "@original"), {"content": "too soon"})
    await send(w.fake, "POST", callback_route(click), {"type": 6})
    edited = await send(w.fake, "PATCH", webhook_route(w.fake, click, "@original"), {"content": "page 2"})
    await send(w.fake, "POST", callback_route(command), {"type": 4, "data": {"content": "hello"}})
    others = await send(w.fake, "PATCH", webhook_route(w.fake, command, str(clicked)), {"content": "no"})
    assert before[0] == 404 and edited[0] == 200 and others[0] == 404
    assert w.fake.messages[clicked].content == "page 2" and w.fake.messages[clicked].pinged == []


def slash(name: str, description: str = "does it", options: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"name": name, "type": 1, "description": description, "options": options or []}


def option(name: str, *, required: bool = False, choices: int = 0, choice_name: str = "c") -> dict[str, Any]:
    made: dict[str, Any] = {"name": name, "type": 3, "description": "an option", "required": required}
    if choices:
        made["choices"] = [{"name": f"{choice_name}{i}", "value": str(i)} for i in range(choices)]
    return made


async def test_command_definitions_discord_refuses_are_refused_where_they_are_wrong(discord_world: World) -> None:
    w = discord_world
    route = COMMANDS.format(app=w.fake.application_id)
    fine = [
        slash("move", options=[option("move", required=True), option("game")]),
        slash("ça-va_2"),
        {"name": "Show board", "type": 3},
    ]
    cases: dict[str, tuple[list[dict[str, Any]], tuple[str, ...]]] = {
        "capital letter": ([slash("Move")], ("0", "name")),
        "space": ([slash("make move")], ("0", "name")),
        "33 characters": ([slash("m" * 33)], ("0", "name")),
        "no description": ([slash("move", "")], ("0", "description")),
        "101-character description": ([slash("move", "d" * 101)], ("0", "description")),
        "26 options": ([slash("move", options=[option(f"o{i}") for i in range(26)])], ("0", "options")),
        "required after optional": (
            [slash("move", options=[option("game"), option("move", required=True)])],
            ("0", "options", "1", "required"),
        ),
        "repeated option": ([slash("move", options=[option("game"), option("game")])], ("0", "options", "1", "name")),
        "option name": ([slash("move", options=[option("Game")])], ("0", "options", "0", "name")),
        "26 choices": ([slash("move", options=[option("game", choices=26)])], ("0", "options", "0", "choices")),
        "long choice name": (
            [slash("move", options=[option("game", choices=1, choice_name="c" * 101)])],
            ("0", "options", "0", "choices", "0", "name"),
        ),
        "repeated command": ([slash("move"), slash("move")], ("1", "name")),
        "101 commands": ([slash(f"c{i}") for i in range(101)], ()),
    }
    accepted = await send(w.fake, "PUT", route, fine)
    answers = {what: await send(w.fake, "PUT", route, body) for what, (body, _) in cases.items()}
    for what, (_, path) in cases.items():
        assert refused(answers[what], *path), (what, answers[what])
    assert accepted[0] == 200 and [c["name"] for c in w.fake.global_commands] == ["move", "ça-va_2", "Show board"]
    assert len(w.fake.syncs) == 1


async def test_the_interaction_token_serves_followups_for_15_minutes_on_the_fakes_clock(discord_world: World) -> None:
    w = discord_world
    record = interaction(w.fake, w.channel, w.alice)
    await send(w.fake, "POST", callback_route(record), {"type": 5, "data": {}})
    w.fake.advance(14 * 60)
    within = await send(w.fake, "POST", webhook_route(w.fake, record), {"content": "in time"})
    w.fake.advance(60 + 1)
    expired = {"message": "Invalid Webhook Token", "code": 50027}
    late = await send(w.fake, "POST", webhook_route(w.fake, record), {"content": "too late"})
    edit = await send(w.fake, "PATCH", webhook_route(w.fake, record, "@original"), {"content": "edited"})
    delete = await send(w.fake, "DELETE", webhook_route(w.fake, record, "@original"))
    assert within[0] == 200 and late == edit == delete == (401, expired)
    assert [m.content for m in record.messages] == ["in time"]


async def test_429s_come_with_bucket_headers_with_only_retry_after_or_as_the_global_limit(
    discord_world: World,
) -> None:
    w = discord_world
    post = "POST /channels/{channel_id}/messages"
    path = f"/channels/{w.channel}/messages"
    w.fake.rate_limit(post, retry_after=0.25)
    bucket = await exchange(w.fake, "POST", path, {"content": "a"})
    w.fake.rate_limit(post, retry_after=0.25, bucket_headers=False)
    bare = await exchange(w.fake, "POST", path, {"content": "b"})
    w.fake.global_rate_limit(retry_after=0.25)
    global_ = await exchange(w.fake, "GET", f"/channels/{w.channel}")
    posted = await exchange(w.fake, "POST", path, {"content": "c"})

    def limits(headers: dict[str, str]) -> set[str]:
        return {h.lower() for h in headers if h.lower().startswith("x-ratelimit")}

    assert bucket[0] == 429 and bucket[1]["retry_after"] == 0.25 and not bucket[1]["global"]
    assert {"x-ratelimit-bucket", "x-ratelimit-remaining", "x-ratelimit-reset-after"} <= limits(bucket[2])
    assert bare[0] == 429 and limits(bare[2]) == set() and bare[2]["Retry-After"] == "1"
    assert global_[0] == 429 and global_[1]["global"] is True and global_[2]["X-RateLimit-Global"] == "true"
    assert global_[2]["X-RateLimit-Scope"] == "global" and "x-ratelimit-bucket" not in limits(global_[2])
    assert all(answer[2]["Via"] for answer in (bucket, bare, global_))
    assert posted[0] == 200 and [m.content for m in w.fake.channel_log(w.channel)] == ["c"]
