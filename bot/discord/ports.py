"""What the persistent buttons need from the running bot, as protocols, so the modules of the Discord front import
one way only.

A button's callback runs long after the message it sits on was built, in whatever process Discord's event
reaches, and reaches the bot's parts through ``interaction.client``. The modules that build buttons (the turn
layout, the front, the commands) sit above :mod:`bot.discord.buttons`; the bot (:mod:`bot.discord.client`) sits
above them all. Were the buttons to name the bot's class they would import their own importers. They name these
protocols instead, which :class:`bot.discord.client.PbmBot` (and its ``front`` and ``games``) satisfy by shape.
"""

from __future__ import annotations

from typing import Protocol

import discord

from bot.actions import Actions, Result
from bot.actions.settings import ServerSettings


class FrontPort(Protocol):
    """The part of :class:`bot.discord.front.Front` buttons use."""

    async def player_id(self, user: discord.abc.User) -> str: ...

    async def close_proposal(self, proposal_id: int, line: str, message: discord.Message | None = None) -> None: ...

    async def tell(self, game_id: int, text: str, players: list[str], *, dm_is_enough: bool = False) -> None: ...


class GamesPort(Protocol):
    """The part of :class:`bot.discord.cog.GameCommands` buttons use."""

    async def start_game(
        self, interaction: discord.Interaction, result: Result, settings: ServerSettings | None = None
    ) -> None: ...

    async def play(self, interaction: discord.Interaction, game_id: int, player: str, text: str) -> None: ...

    async def after_action(
        self,
        interaction: discord.Interaction,
        result: Result,
        *,
        nonce: str | None = None,
        thread: discord.Thread | None = None,
    ) -> None: ...

    async def post_replay(
        self, interaction: discord.Interaction, game_id: int, start: int | None = None, end: int | None = None
    ) -> None: ...


class BotPort(Protocol):
    """The bot as buttons see it: its actions, its front and its game commands."""

    actions: Actions
    front: FrontPort
    games: GamesPort


def bot_of(interaction: discord.Interaction) -> BotPort:
    """The running pbm bot behind an interaction (discord.py types ``client`` as a plain client)."""
    return interaction.client  # type: ignore[return-value]
