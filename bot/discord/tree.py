"""The bot's command tree: every slash command and menu command of a member passes the command rate first
(:class:`bot.actions.limits.CommandRate`, per server and member). A command over it is answered at once, privately,
"slow down" with the wait: never left unanswered (discord.py drops an interaction its tree's check refuses, so the
check answers it itself). Autocomplete suggestions and buttons are not commands and are not counted."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.actions.limits import CommandRate, slow_down

log = logging.getLogger("pbm.discord")


class RatedTree(app_commands.CommandTree):
    """A command tree whose client carries ``command_rate`` (a :class:`CommandRate`)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True
        rate: CommandRate | None = getattr(self.client, "command_rate", None)
        if rate is None:
            return True
        wait = rate.wait((interaction.guild_id or 0, interaction.user.id))
        if wait <= 0:
            return True
        log.info("user %s is over the command rate; answered to wait %.1f s", interaction.user.id, wait)
        try:
            await interaction.response.send_message(slow_down(wait), ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not tell user %s to slow down: %s", interaction.user.id, exc)
        return False
