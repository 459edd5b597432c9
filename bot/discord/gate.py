"""Where and by whom games may be started in a server, by its settings (:mod:`bot.actions.settings`): the two rules
that need Discord's own facts (the channel a command was typed in, the member's roles). Everything else a
challenge is checked against (games offered, computer opponents, limits) is the actions' business."""

from __future__ import annotations

import discord

from bot.actions.settings import ServerSettings


def challenge_refusal(interaction: discord.Interaction, settings: ServerSettings) -> str | None:
    """Why the member may not challenge here (``None``: they may): the server's games live in another channel
    (the answer points to it; its threads count as in it), or the server lets only a role start games."""
    home = settings.channel_id
    if home is not None:
        here = interaction.channel
        where = here.parent_id if isinstance(here, discord.Thread) else interaction.channel_id
        if where != home:
            return f"games live in <#{home}> in this server: challenge there"
    role = settings.role_id
    user = interaction.user
    if role is not None and isinstance(user, discord.Member) and user.get_role(role) is None:
        return f"only members with the <@&{role}> role may start games in this server"
    return None
