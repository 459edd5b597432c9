"""The Discord front: slash commands, a thread per game, board images, turn pings and DMs, spectating.

Loaded only by ``pbm run`` and ``pbm sync`` (and tests); everything it does goes through :mod:`bot.actions`.
"""

from bot.discord.client import PbmBot, create_bot, run_bot, sync_commands

__all__ = ["PbmBot", "create_bot", "run_bot", "sync_commands"]
