"""A loopback fake Discord (gateway + REST) for end-to-end tests of the real discord.py client.

``FakeDiscord`` is the server and its test API; :mod:`tests.fakediscord.fixtures` provides the pytest fixtures;
:func:`running` runs a discord.py client against a fake for the duration of an ``async with``.
"""

from tests.fakediscord.records import Attachment, CommandSync, Interaction, Message, Thread
from tests.fakediscord.runner import endpoints_pointed_at, running
from tests.fakediscord.server import FakeDiscord

__all__ = [
    "Attachment",
    "CommandSync",
    "FakeDiscord",
    "Interaction",
    "Message",
    "Thread",
    "endpoints_pointed_at",
    "running",
]
