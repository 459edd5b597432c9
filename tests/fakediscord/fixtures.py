"""Pytest fixtures for the fake Discord; load with ``pytest_plugins = ["tests.fakediscord.fixtures"]``.

``fake_discord`` is a started :class:`FakeDiscord` with discord.py's endpoints pointed at it and restored after
the test; ``discord_world`` adds a guild, a text channel and two members, the usual cast of a game test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from tests.fakediscord.runner import endpoints_pointed_at
from tests.fakediscord.server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord, torn down (server and patched class attributes) after the test."""
    fake = FakeDiscord()
    await fake.start()
    try:
        with endpoints_pointed_at(fake):
            yield fake
    finally:
        await fake.stop()


@dataclass
class World:
    """A guild with one text channel and three members: two players and a bystander."""

    fake: FakeDiscord
    guild: int
    channel: int
    alice: int
    bob: int
    carol: int


@pytest.fixture
async def discord_world(fake_discord: FakeDiscord) -> World:
    """The fake with a guild, a #games channel, and members alice, bob and carol."""
    guild = await fake_discord.add_guild("Test Guild")
    channel = await fake_discord.add_channel(guild, "games")
    alice = await fake_discord.add_member(guild, "alice")
    bob = await fake_discord.add_member(guild, "bob")
    carol = await fake_discord.add_member(guild, "carol")
    return World(fake_discord, guild, channel, alice, bob, carol)
