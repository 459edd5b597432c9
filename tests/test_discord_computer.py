"""Computer opponents in Discord: challenging the bot itself, its moves worked out in worker processes, and a
restart while it was thinking."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from tests.fakediscord.pbm import pbm_running

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


async def test_challenging_the_bot_starts_a_game_it_plays_at_once(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        values = {"game": "druid", "opponent": fake.application_id, "level": 1, "options": "-size=5"}
        started = await fake.reply(await fake.slash(w.alice, w.channel, "challenge", values))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="game thread")
        opening = await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
        await fake.reply(await fake.slash(w.alice, thread.id, "move", {"move": "c3"}))
        reply_post = await fake.wait_for(
            lambda: next((m for m in fake.channel_log(thread.id) if "ai:1 played" in m.text()), None),
            timeout=30,
            what="the computer's reply",
        )
        shown = await bot.actions.show(1)
        refused = await fake.reply(
            await fake.slash(w.bob, w.channel, "challenge", {"game": "druid", "opponent": w.alice, "level": 3})
        )
    assert started.ephemeral and "Druid game 1 started: alice, ai:1" in started.text()
    assert "Druid game 1 started: alice, ai:1" in opening[0].text() and opening[0].pinged == [w.alice]
    assert "alice played c3" in reply_post.text() and reply_post.pinged == [w.alice]
    assert shown.move_number == 2 and shown.to_move == "alice"
    assert refused.ephemeral and "`level` is for challenging me" in refused.text()


async def test_a_computer_turn_left_by_a_restart_is_played_by_the_sweep_once(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(fake, db) as bot:
        values = {"game": "druid", "opponent": fake.application_id, "options": "-size=5"}
        await fake.reply(await fake.slash(w.alice, w.channel, "challenge", values))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="game thread")
        bot.actions._think = None  # the process stops before it works out its reply (as if it was killed)
        await fake.reply(await fake.slash(w.alice, thread.id, "move", {"move": "c3"}))
        assert (await bot.actions.show(1)).to_move == "ai:2"
    with sqlite3.connect(db) as raw:  # a while ago
        raw.execute("UPDATE games SET updated_at = updated_at - 3600")
    async with pbm_running(fake, db) as bot:  # the sweep at start takes the computer's turn up
        await fake.wait_for(
            lambda: next((m for m in fake.channel_log(thread.id) if "ai:2 played" in m.text()), None),
            timeout=30,
            what="the computer's reply after the restart",
        )
        await bot.sweep()
        await bot.sweep()
        shown = await bot.actions.show(1)
        log = await bot.actions.store.log(1)
    assert shown.to_move == "alice" and shown.move_number == 2
    assert [(e.player_id, e.number) for e in log] == [("alice", 1), ("ai:2", 2)]
    replies = [m for m in fake.channel_log(thread.id) if "ai:2 played" in m.text()]
    assert len(replies) == 1 and replies[0].pinged == [w.alice]
