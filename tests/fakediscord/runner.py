"""Running a discord.py client against a :class:`FakeDiscord` inside a test, and restoring discord.py's
class-level endpoints afterwards so several bots (and several tests) can share one process."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator

import discord
import discord.asset
import discord.gateway
import discord.http
import yarl

from tests.fakediscord.server import FakeDiscord


@contextlib.contextmanager
def endpoints_pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point ``Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY`` and ``Asset.BASE`` at the fake, and put back
    whatever they were on exit (also what a bot under test assigned from its own configuration)."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, discord.asset.Asset.BASE)
    discord.http.Route.BASE = fake.base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    discord.asset.Asset.BASE = fake.cdn_url
    try:
        yield
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, discord.asset.Asset.BASE = saved


@contextlib.asynccontextmanager
async def running(client: discord.Client, fake: FakeDiscord, timeout: float = 10.0) -> AsyncIterator[None]:
    """Log ``client`` in to the fake, wait until its gateway sessions are identified (one per shard it runs: an
    :class:`discord.AutoShardedClient` without shard ids runs the count the fake recommends), and close it on
    exit. A client that fails to start raises its own error here rather than a timeout."""
    before = list(fake.sessions)
    expected = 1
    if isinstance(client, discord.AutoShardedClient):
        expected = len(client.shard_ids) if client.shard_ids else (client.shard_count or fake.shards)

    def connected() -> bool:
        mine = [s for s in fake.sessions if s.ready and not s.ws.closed and not any(s is b for b in before)]
        return len(mine) >= expected

    task = asyncio.create_task(client.start(fake.token))
    waiter = asyncio.create_task(fake.wait_for(connected, timeout, "identified gateway session"))
    done, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        waiter.cancel()
        task.result()
        raise RuntimeError("the client stopped before connecting to the fake gateway")
    waiter.result()
    try:
        yield
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task
