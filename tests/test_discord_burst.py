"""A burst of moves across many games through the fake Discord, every move submitted twice at once: each game
ends up with exactly the moves sent, each applied once and posted once. The default run is small; the slow run is
the issue's 200 moves across 50 games."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.fakediscord.pbm import pbm_running
from tests.fakediscord.records import Interaction

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
#: the moves of each game in order (Druid on a 5x5 board; alice plays first)
MOVES = ["a1", "e5", "a2", "e4", "a3", "e3"]


async def burst(w: World, tmp_path: Path, games: int, rounds: int) -> None:
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        for _ in range(games):
            started = await bot.actions.challenge(
                "druid", ["alice", "bob"], ["-size=5"], start=True, guild_id=w.guild, channel_id=w.channel
            )
            assert started.ok
        for name, uid in (("alice", w.alice), ("bob", w.bob)):
            await bot.actions.store.ensure_player(name, uid)
        for number in range(1, rounds + 1):
            user = w.alice if number % 2 else w.bob
            text = f"{MOVES[number - 1]}#{number}"
            sent: list[Interaction] = []
            for game in range(1, games + 1):
                for _ in range(2):
                    sent.append(await fake.slash(user, w.channel, "move", {"move": text, "game": game}))
            replies = await asyncio.gather(*(fake.reply(i, timeout=30) for i in sent))
            done = [r for r in replies if r.content.startswith("Done")]
            assert len(done) == games, [r.content for r in replies if not r.content.startswith("Done")][:3]
        await fake.wait_for(
            lambda: all(len(fake.channel_log(t)) == rounds for t in fake.threads), timeout=30, what="all boards"
        )
        for game in range(1, games + 1):
            history = await bot.actions.history(game)
            assert [line.split(": ", 1)[1] for line in history.items] == MOVES[:rounds]
    assert len(fake.threads) == games
    assert all(len(i.callbacks) == 1 for i in fake.interactions.values())


async def test_a_burst_of_double_submitted_moves_is_applied_once_each(discord_world: World, tmp_path: Path) -> None:
    await burst(discord_world, tmp_path, games=5, rounds=2)


@pytest.mark.slow
async def test_two_hundred_moves_across_fifty_games(discord_world: World, tmp_path: Path) -> None:
    await burst(discord_world, tmp_path, games=50, rounds=4)
