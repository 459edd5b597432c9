"""The turn message's menu of legal moves and the "Show board" message menu, through the fake Discord."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tests.fakediscord.pbm import pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


def menu_of(message) -> dict | None:
    """The select menu of a message's components, if it has one."""
    return next((item for item in message.all_components() if item.get("type") == 3), None)


async def test_few_legal_moves_come_as_a_menu_only_the_player_to_move_can_use(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-force")
        opening = table.last_post()
        buttons = [cid.rsplit(":", 1)[1] for cid in opening.custom_ids() if cid.startswith("pbm:m:")]
        legal = [m for m in (await bot.actions.show(1)).legal_move_texts() if m not in buttons]
        menu = menu_of(opening)
        assert menu is not None and 0 < len(legal) <= 25 and buttons == ["greedy", "manual"]
        assert menu["custom_id"] == "pbm:s:1:1" and [o["value"] for o in menu["options"]] == legal
        stranger = await w.fake.reply(await w.fake.select(w.bob, opening, "pbm:s:1:1", [legal[0]]))
        assert stranger.ephemeral and stranger.text() == "only the player to move can use this menu (alice chooses now)"
        assert (await bot.actions.show(1)).move_number == 0
        before = opening.id
        chosen = await w.fake.reply(await w.fake.select(w.alice, opening, "pbm:s:1:1", [legal[-1]]))
        turn = await w.fake.next_message(table.thread.id, after=before, timeout=10)
        # bob, now to move, on the old menu of alice's turn: the #1 guard refuses it
        again = await w.fake.reply(await w.fake.select(w.bob, opening, "pbm:s:1:1", [legal[0]]))
        shown = await bot.actions.show(1)
    assert chosen.ephemeral and f"alice played {legal[-1]}" in turn.text() and turn.pinged == [w.bob]
    assert again.ephemeral and "the board has changed since you looked" in again.text()
    assert shown.move_number == 1


async def test_many_legal_moves_get_no_menu(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=8")
        assert len((await bot.actions.show(1)).legal_move_texts()) > 25
    assert menu_of(table.last_post()) is None


async def test_show_board_on_any_message_of_a_game_thread_answers_privately(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        first = w.fake.channel_log(table.thread.id)[0]
        await table.move_and_wait(w.alice, "c3")
        shown = await w.fake.reply(await w.fake.message_command(w.carol, first, "Show board"))
        challenge = w.fake.channel_log(w.channel)[0]
        elsewhere = await w.fake.reply(await w.fake.message_command(w.carol, challenge, "Show board"))
    assert shown.ephemeral and shown.text().startswith("### Druid 1: bob to move (move 2)\n-# clock: ")
    assert [a.filename for a in shown.attachments] == ["druid-1.png"]
    assert elsewhere.ephemeral and elsewhere.text() == "this message is not in a game's thread"


async def test_analyze_rates_a_finished_backgammon_game_and_refuses_a_running_one(
    discord_world: World, tmp_path: Path
) -> None:
    from ai.backgammon import has_gnubg

    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-force")
        running = await w.fake.reply(await w.fake.slash(w.alice, table.thread.id, "analyze", {}))
        while (shown := await bot.actions.show(1)).status == "active":  # the players play the first legal moves
            player = shown.to_move
            assert player is not None
            await bot.actions.move(1, player, shown.legal_move_texts()[0])
        done = await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "analyze", {}))
    assert running.ephemeral and running.text() == "game 1 is still being played: it can be analysed once it is over"
    text = done.text() + "".join(a.data.decode() for a in done.attachments)
    if has_gnubg():
        assert "analysed by GNU Backgammon" in text and "alice:" in text and "error rate" in text
    else:
        assert "pip install" in text
