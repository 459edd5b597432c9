"""``pbm run`` and ``pbm sync`` as an admin starts them: configuration from the environment only (the loopback
endpoints included), command sync only when the commands changed or when asked, a clean exit on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.discord.client import push_commands
from tests.fakediscord.pbm import bot_config, pbm_running

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
ROOT = Path(__file__).resolve().parents[1]


async def test_pbm_run_connects_from_env_answers_and_exits_cleanly_on_sigterm(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    env = {**os.environ, **w.fake.env(), "PBM_DB": str(tmp_path / "pbm.sqlite3")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        await w.fake.wait_connected(timeout=30)
        reply = await w.fake.reply(await w.fake.slash(w.alice, w.channel, "help"), timeout=10)
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=10)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert "Games: backgammon, dragons, drogo, druid" in reply.text()
    assert process.returncode == 0
    assert b"Traceback" not in stderr and b"Unclosed" not in stderr
    assert [s.guild_id for s in w.fake.syncs] == [None]


async def test_a_guild_id_syncs_to_that_guild_and_pbm_sync_always_pushes(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db, guild_id=w.guild) as first:
        pass
    async with pbm_running(w.fake, db, guild_id=w.guild) as second:
        pass
    await push_commands(bot_config(w.fake, db, guild_id=w.guild))
    assert (first.synced, second.synced) == (True, False)
    assert [s.guild_id for s in w.fake.syncs] == [w.guild, w.guild]
    names = {c["name"] for c in w.fake.syncs[0].commands}
    assert {"challenge", "move", "board", "resign", "history", "games", "help", "notify", "watch", "unwatch"} <= names


async def test_the_readme_lists_exactly_the_synced_commands(discord_world: World, tmp_path: Path) -> None:
    async with pbm_running(discord_world.fake, tmp_path / "pbm.sqlite3"):
        pass
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Discord\n", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`/([a-z]+)", section)) | set(
        re.findall(r"\*\*([A-Z][a-z ]+)\*\* \(message menu\)", section)
    )
    synced = {c["name"] for c in discord_world.fake.syncs[0].commands}
    assert documented == synced
    assert "/help" in section and len(synced) == 32
    assert {c["name"] for c in discord_world.fake.syncs[0].commands if c.get("type") == 3} == {"Show board"}
