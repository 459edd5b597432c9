"""The turn message as a layout message (components v2), through the fake Discord, which refuses any layout
Discord would refuse: its structure, its select menu and buttons (also after a restart), a turn too long for
4,000 characters of text, and the plain message it falls back to when Discord refuses the layout."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tests.fakediscord.components import MAX_COMPONENTS, MAX_TEXT
from tests.fakediscord.pbm import pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World
    from tests.fakediscord.records import Message

pytest_plugins = ["tests.fakediscord.fixtures"]
THREAD_POSTS = "POST /channels/{channel_id}/messages"
PNG = b"\x89PNG\r\n\x1a\n"


def shape(message: Message) -> list[object]:
    """The component types of a message, nested lists for containers and rows."""

    def of(component: dict) -> object:
        children = component.get("components")
        return [component["type"], [of(c) for c in children]] if children else component["type"]

    return [of(c) for c in message.components]


async def test_the_turn_message_is_one_container_of_header_board_pings_and_controls(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-force")
        opening = table.last_post()
        clicked = await w.fake.reply(await w.fake.click(w.alice, opening, "pbm:m:1:1:greedy"))
        turn = await w.fake.next_message(table.thread.id, after=opening.id, timeout=10)
    header, board, pings = (c for c in opening.all_components() if c["type"] in (10, 12))
    picture = opening.payload["attachments"][0]
    assert opening.layout and opening.content == "" and opening.embeds == []
    assert shape(opening) == [[17, [10, 12, 10, [1, [3]], [1, [2, 2]]]]]
    assert len(opening.all_components()) <= MAX_COMPONENTS and len(opening.text()) <= MAX_TEXT
    assert header["content"].startswith("### Backgammon 1: alice to move (move 1)\n-# clock: alice ")
    assert "Backgammon game 1 started: alice, bob (-force)" in header["content"]
    assert board["items"][0]["media"]["url"] == picture["url"] and picture["filename"] == "backgammon-1.png"
    assert board["items"][0]["description"] == "Backgammon 1: alice to move (move 1): the board"
    assert opening.attachments[0].data.startswith(PNG)
    assert pings["content"] == f"<@{w.alice}>, your move." and opening.pinged == [w.alice]
    assert opening.custom_ids() == ["pbm:s:1:1", "pbm:m:1:1:greedy", "pbm:m:1:1:manual"]
    assert clicked.ephemeral and clicked.deleted
    # greedy mode is a move of its own: alice is still to move, so nobody is pinged again
    assert turn.layout and turn.text().startswith("### Backgammon 1: alice to move (move 2)")
    assert "alice turned greedy mode on" in turn.text() and turn.pinged == [] and turn.silent


async def test_the_menu_and_buttons_of_a_layout_turn_work_after_a_restart(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db) as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-force")
        legal = [m for m in (await bot.actions.show(1)).legal_move_texts() if m not in ("greedy", "manual")]
    opening = table.last_post()
    async with pbm_running(w.fake, db) as second:
        wrong = await w.fake.reply(await w.fake.select(w.bob, opening, "pbm:s:1:1", [legal[0]]))
        right = await w.fake.reply(await w.fake.select(w.alice, opening, "pbm:s:1:1", [legal[0]]))
        turn = await w.fake.next_message(table.thread.id, after=opening.id, timeout=10)
        stale = await w.fake.reply(await w.fake.click(w.bob, opening, "pbm:m:1:1:greedy"))
        shown = await second.actions.show(1)
    assert wrong.ephemeral and wrong.content == "only the player to move can use this menu (alice chooses now)"
    assert right.ephemeral and right.deleted
    assert turn.layout and f"alice played {legal[0]}" in turn.text() and turn.pinged == [w.bob]
    assert stale.ephemeral and "the board has changed since you looked" in stale.content
    assert shown.move_number == 1 and len(w.fake.channel_log(table.thread.id)) == 2


async def test_a_turn_with_more_text_than_a_layout_holds_keeps_its_header_and_pings(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        shown = await bot.actions.show(1)
        shown.message = "\n".join(f"line {n}: " + "x" * 90 for n in range(60))  # 6,000 characters
        shown.notify = ["alice"]
        posted = await bot.front.post_turn(shown)
    turn = table.last_post()
    assert posted.message is not None and posted.message.id == turn.id and posted.problems == []
    shown_text = sum(len(c["content"]) for c in turn.all_components() if c["type"] == 10)
    assert turn.layout and shown_text == MAX_TEXT
    assert turn.text().startswith("### Druid 1: alice to move (move 1)") and "line 0: " in turn.text()
    assert "line 59" not in turn.text() and turn.text().endswith(f"…\n<@{w.alice}>, your move.")
    assert turn.pinged == [w.alice]


async def test_a_layout_discord_refuses_goes_out_as_a_plain_turn_with_picture_and_controls(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        w.fake.fail(THREAD_POSTS, 400, 50035, times=1, channel_id=table.thread.id)
        reply = await table.move(w.alice, "c3")
        turn = table.last_post()
    statuses = [
        r.status for r in w.fake.requests if r.route == THREAD_POSTS and r.params["channel_id"] == str(table.thread.id)
    ]
    assert statuses[-2:] == [400, 200] and reply.deleted
    assert not turn.layout and "alice played c3" in turn.content and f"<@{w.bob}>, your move." in turn.content
    assert [a.filename for a in turn.attachments] == ["druid-1.png"] and turn.pinged == [w.bob]
    assert any(c.endswith(":swap") for c in turn.custom_ids())
    assert sum("alice played c3" in m.text() for m in w.fake.channel_log(table.thread.id)) == 1
