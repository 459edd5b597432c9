"""The fake Discord accepts layout messages (components v2) as Discord does and refuses what Discord refuses:
``content`` or embeds with the flag, more than 40 components counting nested ones, more than 4,000 characters of
text displays, components where they may not stand, media galleries of no or more than 10 items or naming a file
the message does not have; edits keep the flag; a deferred reply cannot carry it. Requests go straight to the
fake's REST routes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.rest import callback_route, error_codes, interaction, refused, send, webhook_route

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]

LAYOUT = 1 << 15


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def gallery(*urls: str) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": url}} for url in urls]}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "go", "custom_id": custom_id}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def layout(*components: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"flags": LAYOUT, "components": list(components), **fields}


async def test_a_layout_message_is_accepted_with_its_picture_resolved_and_its_components_numbered(
    discord_world: World,
) -> None:
    w = discord_world
    body = layout(container(text("### whose turn"), gallery("attachment://board.png"), row(button("b"))))
    status, data = await send(w.fake, "POST", f"/channels/{w.channel}/messages", body, files=["board.png"])
    message = w.fake.channel_log(w.channel)[0]
    media = message.components[0]["components"][1]["items"][0]["media"]
    assert status == 200 and message.layout and message.content == "" and data["content"] == ""
    assert media["url"] == data["attachments"][0]["url"] and media["attachment_id"] == data["attachments"][0]["id"]
    assert [c["id"] for c in message.all_components()] == [1, 2, 3, 4, 5]
    assert message.text() == "### whose turn" and message.custom_ids() == ["b"]


async def test_layout_messages_that_break_discords_rules_are_refused(discord_world: World) -> None:
    w = discord_world
    post = f"/channels/{w.channel}/messages"
    picture = ["board.png"]

    async def attempt(body: dict[str, Any], files: list[str] | None = None) -> tuple[int, dict[str, Any]]:
        return await send(w.fake, "POST", post, body, files=files or [])

    forty = container(*[text(str(i)) for i in range(39)])
    answers = {
        "forty components": await attempt(layout(forty)),
        "4000 characters": await attempt(layout(text("a" * 2000), text("b" * 2000))),
        "ten pictures": await attempt(layout(gallery(*["attachment://board.png"] * 10)), picture),
        "content": await attempt(layout(text("t"), content="hello")),
        "embeds": await attempt(layout(text("t"), embeds=[{"title": "x"}])),
        "41 components": await attempt(layout(container(*[text(str(i)) for i in range(40)]))),
        "4001 characters": await attempt(layout(text("a" * 2000), text("b" * 2001))),
        "no pictures": await attempt(layout(gallery())),
        "eleven pictures": await attempt(layout(gallery(*["attachment://board.png"] * 11)), picture),
        "missing file": await attempt(layout(gallery("attachment://other.png")), picture),
        "nested container": await attempt(layout(container(container(text("t"))))),
        "four texts in a section": await attempt(
            layout({"type": 9, "components": [text(str(i)) for i in range(4)], "accessory": button("s")})
        ),
        "section without accessory": await attempt(layout({"type": 9, "components": [text("t")]})),
        "text as accessory": await attempt(layout({"type": 9, "components": [text("t")], "accessory": text("a")})),
        "wide separator": await attempt(layout({"type": 14, "spacing": 3})),
        "empty text": await attempt(layout(text(""))),
        "repeated custom_id": await attempt(layout(container(row(button("b")), row(button("b"))))),
        "select beside a button": await attempt(
            layout(row({"type": 3, "custom_id": "m", "options": [{"label": "a", "value": "a"}]}, button("b")))
        ),
        "layout without the flag": await attempt({"components": [container(text("t"))]}),
    }
    for fine in ("forty components", "4000 characters", "ten pictures"):
        assert answers.pop(fine)[0] == 200, fine
    assert refused(answers["content"], "content") and refused(answers.pop("embeds"), "embeds")
    assert error_codes(answers.pop("content"), "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    assert refused(answers.pop("41 components"), "components")
    assert refused(answers.pop("4001 characters"), "components")
    assert refused(answers.pop("no pictures"), "components", "0", "items")
    assert refused(answers.pop("eleven pictures"), "components", "0", "items")
    assert refused(answers.pop("missing file"), "components", "0", "items", "0", "media", "url")
    assert refused(answers.pop("nested container"), "components", "0", "components", "0", "type")
    assert refused(answers.pop("four texts in a section"), "components", "0", "components")
    assert refused(answers.pop("section without accessory"), "components", "0", "accessory")
    assert refused(answers.pop("text as accessory"), "components", "0", "accessory", "type")
    assert refused(answers.pop("wide separator"), "components", "0", "spacing")
    assert refused(answers.pop("empty text"), "components", "0", "content")
    assert refused(
        answers.pop("repeated custom_id"), "components", "0", "components", "1", "components", "0", "custom_id"
    )
    assert refused(answers.pop("select beside a button"), "components", "0", "components")
    assert refused(answers.pop("layout without the flag"), "components", "0", "type")
    assert answers == {}
    assert len(w.fake.channel_log(w.channel)) == 3


async def test_an_edit_of_a_layout_message_keeps_the_flag_and_its_rules(discord_world: World) -> None:
    w = discord_world
    body = layout(container(text("turn"), gallery("attachment://board.png"), row(button("b"))))
    _, sent = await send(w.fake, "POST", f"/channels/{w.channel}/messages", body, files=["board.png"])
    route = f"/channels/{w.channel}/messages/{sent['id']}"
    with_content = await send(w.fake, "PATCH", route, {"content": "moved", "flags": 0})
    emptied = await send(w.fake, "PATCH", route, {"components": []})
    missing_file = await send(w.fake, "PATCH", route, {"components": [gallery("attachment://gone.png")]})
    # the controls removed, the kept picture named again: what a bot sends to close a turn message
    closed = await send(
        w.fake, "PATCH", route, {"components": [container(text("turn"), gallery("attachment://board.png"))]}
    )
    message = w.fake.messages[int(sent["id"])]
    assert refused(with_content, "content") and refused(emptied, "components")
    assert refused(missing_file, "components", "0", "items", "0", "media", "url")
    assert closed[0] == 200 and message.layout and message.custom_ids() == []
    assert message.gallery_urls() == [message.payload["attachments"][0]["url"]]


async def test_a_deferred_reply_cannot_be_a_layout_but_the_answer_that_fills_it_can(discord_world: World) -> None:
    w = discord_world
    record = interaction(w.fake, w.channel, w.alice)
    flagged = await send(w.fake, "POST", callback_route(record), {"type": 5, "data": {"flags": LAYOUT}})
    deferred = await send(w.fake, "POST", callback_route(record), {"type": 5, "data": {"flags": 64}})
    followup = await send(w.fake, "POST", webhook_route(w.fake, record), layout(text("the board")))
    assert refused(flagged, "data", "flags") and deferred[0] == 200
    assert followup[0] == 200 and w.fake.messages[record.original_id].text() == "the board"
    assert w.fake.messages[record.original_id].layout
