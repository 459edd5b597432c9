"""A burst of moves across many games through the fake Discord, every move submitted twice at once: each game
ends up with exactly the moves sent, each applied once and posted once. The default run is small; the slow run is
the issue's 200 moves across 50 games."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.fakediscord.pbm import burst, pbm_running

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


async def run_burst(w: World, tmp_path: Path, games: int, rounds: int) -> None:
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        applied = await burst(bot, w.fake, w.guild, w.channel, [w.alice, w.bob], games, rounds)
    assert applied == games * rounds
    assert len(w.fake.threads) == games
    assert all(len(i.callbacks) == 1 for i in w.fake.interactions.values())


async def test_a_burst_of_double_submitted_moves_is_applied_once_each(discord_world: World, tmp_path: Path) -> None:
    await run_burst(discord_world, tmp_path, games=5, rounds=2)


@pytest.mark.slow
async def test_two_hundred_moves_across_fifty_games(discord_world: World, tmp_path: Path) -> None:
    await run_burst(discord_world, tmp_path, games=50, rounds=4)
