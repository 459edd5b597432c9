"""The Discord front's side of the web UI: ``/web`` (a one-time sign-in link, answered privately), and the
announcer the web calls when the bot runs in the same process, so a move made on the web is posted in the game's
thread and pings the next player at once, like a move made in Discord (:class:`bot.web.app.Announcer`; without
the bot in the process, the mark the web's commit leaves is posted by the bot's sweep)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.actions import InputError, Notice, Result
from bot.discord.followups import answer
from bot.signin import link_sentence, sign_in_link


class WebAnnouncer:
    """Posts what the web did through the bot's front, once the bot has one (before that, the sweep does)."""

    def __init__(self, bot: Any) -> None:
        """``bot`` is the running :class:`bot.discord.client.PbmBot` (not imported here: it imports this)."""
        self.bot = bot

    async def turn(self, result: Result, nonce: str | None) -> None:
        front = getattr(self.bot, "front", None)
        if front is not None:
            await front.post_turn(result, nonce=nonce)

    async def notice(self, game_id: int, text: str, players: list[str]) -> None:
        front = getattr(self.bot, "front", None)
        if front is not None:
            await front.tell(game_id, text, players)

    async def notices(self, notices: list[Notice]) -> None:
        front = getattr(self.bot, "front", None)
        if front is not None:
            for notice in notices:
                await front.present_notice(notice)


def web_command(bot: Any) -> app_commands.Command[Any, Any, None]:
    """``/web``: a one-time link that signs the member in to the web UI, privately; refused when the web UI has no
    public address (a link to the bot's own machine would reach nobody)."""

    async def callback(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        base = bot.config.web_public_url
        if not base:
            await answer(
                interaction,
                "The web UI has no public address here (the admin has not set PBM_WEB_PUBLIC_URL), so a link"
                " would reach nobody.",
                ephemeral=True,
            )
            return
        player = await bot.front.player_id(interaction.user)
        try:
            link = await sign_in_link(bot.actions.store, player, base, bot.clock())
        except InputError as exc:
            await answer(interaction, str(exc), ephemeral=True)
            return
        await answer(interaction, link_sentence(player, link), ephemeral=True)

    return app_commands.Command(
        name="web", description="A one-time link that signs you in to the web UI (privately)", callback=callback
    )
