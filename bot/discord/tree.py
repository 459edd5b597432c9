"""The bot's command tree: every slash command and menu command of a member passes the command rate first
(:class:`bot.actions.limits.CommandRate`, per server and member). A command over it is answered at once, privately,
"slow down" with the wait: never left unanswered (discord.py drops an interaction its tree's check refuses, so the
check answers it itself). Autocomplete suggestions and buttons are not commands and are not counted.

While the bot stops (SIGTERM, see :meth:`bot.discord.client.PbmBot.stop`) a new command is answered that the bot
is stopping, and nothing else is done. A command that fails is counted in the metrics (:mod:`bot.ops`) and, when
no cog answered it (the one-word commands, the Show board menu), answered here in one line."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.actions.limits import CommandRate, slow_down
from bot.discord.failures import (
    OUTCOME,
    STOPPING,
    count,
    failure_text,
    log_failure,
    note_outcome,
    tell_failure,
    unavailable,
)

log = logging.getLogger("pbm.discord")


def command_name(interaction: discord.Interaction) -> str:
    """The command an interaction is for, as the metrics name it ("settings channel", "Show board")."""
    command = interaction.command
    return command.qualified_name if command is not None else "unknown"


class RatedTree(app_commands.CommandTree):
    """A command tree whose client carries ``command_rate`` (a :class:`CommandRate`) and ``stopping``."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if getattr(self.client, "stopping", False):
            if interaction.type is discord.InteractionType.application_command:
                count(interaction, command_name(interaction), "stopping")
                await self._refuse(interaction, STOPPING)
            return False
        if interaction.type is not discord.InteractionType.application_command:
            return True
        rate: CommandRate | None = getattr(self.client, "command_rate", None)
        if rate is None:
            return True
        wait = rate.wait((interaction.guild_id or 0, interaction.user.id))
        if wait <= 0:
            return True
        log.info("user %s is over the command rate; answered to wait %.1f s", interaction.user.id, wait)
        count(interaction, command_name(interaction), "slowed")
        await self._refuse(interaction, slow_down(wait))
        return False

    @staticmethod
    async def _refuse(interaction: discord.Interaction, text: str) -> None:
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not answer user %s (%s): %s", interaction.user.id, text, exc)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """Count the failure; answer it when no cog did (a command without an error handler of its own)."""
        command = interaction.command
        if command is None or not command._has_any_error_handlers():
            cause = error.__cause__ or error
            log_failure(f"command {command_name(interaction)}", cause)
            note_outcome(interaction, "unavailable" if unavailable(cause) else "failed")
            await tell_failure(interaction, failure_text(cause))
        count(interaction, command_name(interaction), interaction.extras.get(OUTCOME, "failed"))
