"""The Discord front through the loopback fake Discord of ``tests/fakediscord``, the same server the end-to-end
tests use: the real discord.py client, the real bot, a real SQLite file, the gateway and REST on 127.0.0.1.

Measured, per ``/move`` typed in a game thread (Druid, default 10x10 board, so every move renders a full board):
the time until the interaction is acknowledged, and the time until the board message is in the thread. The peer,
in the same run and through the same fake, is a bare discord.py bot whose slash command answers at once: what
discord.py and the loopback cost before any code of ours runs. Then the issue's burst: 200 moves across 50 games,
every move sent twice at once, none lost and none applied twice.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import discord
from discord.ext import commands

from bench.common import Row
from tests.fakediscord.pbm import burst, measure_moves, pbm_running, start_game
from tests.fakediscord.runner import endpoints_pointed_at, running
from tests.fakediscord.server import FakeDiscord


class BareBot(commands.Bot):
    """The peer: one slash command that answers immediately, nothing else."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

        @self.tree.command(description="Answer at once")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def _bare_acks(fake: FakeDiscord, channel: int, user: int, count: int) -> list[float]:
    acks = []
    async with running(BareBot(), fake):
        for _ in range(count):
            interaction = await fake.slash(user, channel, "ping", {})
            await fake.reply(interaction)
            assert interaction.ack_latency is not None
            acks.append(interaction.ack_latency)
    return acks


async def _measure(quick: bool, tmp: Path) -> list[Row]:
    fake = FakeDiscord()
    await fake.start()
    try:
        with endpoints_pointed_at(fake):
            guild = await fake.add_guild("Bench Guild")
            channel = await fake.add_channel(guild, "games")
            alice = await fake.add_member(guild, "alice")
            bob = await fake.add_member(guild, "bob")
            games = 2 if quick else 10
            acks: list[float] = []
            posts: list[float] = []
            async with pbm_running(fake, tmp / "latency.sqlite3"):
                for _ in range(games):
                    table = await start_game(fake, channel, "druid", [alice, bob])
                    latency = await measure_moves(fake, table, 10)
                    acks += latency.acks
                    posts += latency.posts
            bare = await _bare_acks(fake, channel, alice, len(acks))
            burst_games, rounds = (10, 4) if quick else (50, 4)
            burst_channel = await fake.add_channel(guild, "burst")
            async with pbm_running(fake, tmp / "burst.sqlite3") as bot:
                started = time.perf_counter()
                applied = await burst(bot, fake, guild, burst_channel, [alice, bob], burst_games, rounds)
                burst_seconds = time.perf_counter() - started
    finally:
        await fake.stop()
    ack, post, bare_ack = (statistics.median(x) * 1000 for x in (acks, posts, bare))
    sent = burst_games * rounds
    return [
        Row(
            "discord",
            "`/move` acknowledged (median)",
            ack,
            "ms",
            "<= 50 ms",
            ack <= 50,
            peer=f"bare discord.py bot {bare_ack:.1f} ms ({ack / bare_ack:.1f}x)",
            note=f"{len(acks)} moves in {games} Druid 10x10 games; worst {max(acks) * 1000:.0f} ms",
        ),
        Row(
            "discord",
            "`/move` to board posted in the thread (median)",
            post,
            "ms",
            "<= 250 ms",
            post <= 250,
            note=f"{len(posts)} moves; worst {max(posts) * 1000:.0f} ms; board PNG rendered off the event loop",
        ),
        Row(
            "discord",
            f"burst: {sent} moves across {burst_games} games, each sent twice at once",
            applied / burst_seconds,
            "moves/s",
            f"{sent} applied once each",
            applied == sent,
            note=f"{applied} applied, {sent} duplicates refused, {burst_seconds:.1f} s in all",
        ),
    ]


def run(quick: bool = False) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_measure(quick, Path(tmp)))
