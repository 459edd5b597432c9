"""Answering an acknowledged interaction, also when the answer comes after its token ran out.

Discord accepts followups and edits of the original response for 15 minutes after an interaction; later it
answers 401 "Invalid Webhook Token" (code 50027). An answer can come that late: a computer opponent's move
waiting for a busy pool of thinkers, a long replay or analysis, Discord slowing the bot down. Nothing is lost
then, and nothing is shown twice:

* a public answer (a board, a replay) is posted in the channel where the command was used, and the public
  "thinking…" placeholder is deleted there (a bot may delete its own messages);
* a private answer goes to the user by DM, with a line saying why it came there; when their DMs are closed it is
  only logged.

Files are given as bytes (:class:`Upload`), because discord.py consumes a file with the request that sends it
and the fallback must send it again.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

log = logging.getLogger("pbm.discord")

#: Discord's code for a webhook token it no longer accepts (an interaction's, 15 minutes on)
TOKEN_EXPIRED = 50027
#: where :func:`defer_publicly` keeps the id of the public placeholder, in ``interaction.extras``
PLACEHOLDER = "pbm:placeholder"
#: set in ``interaction.extras`` by :func:`defer_publicly`: a private answer must remove the placeholder first
DEFERRED_PUBLICLY = "pbm:public"
#: the line a private answer delivered by DM ends with
LATE_NOTE = "-# (sent here: the answer came after Discord's 15 minutes for answering in the channel)"


@dataclass(frozen=True)
class Upload:
    """A file to attach: its name and bytes."""

    name: str
    data: bytes

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.name)


def token_expired(exc: discord.HTTPException) -> bool:
    """Whether Discord refused a followup or an edit because the interaction's token ran out."""
    return exc.status == 401 and exc.code == TOKEN_EXPIRED


async def defer_publicly(interaction: discord.Interaction) -> None:
    """Acknowledge with a public "thinking…" placeholder, remembering its id so it can be removed through the
    channel should the token run out before the answer."""
    response = await interaction.response.defer(thinking=True)
    interaction.extras[DEFERRED_PUBLICLY] = True
    message_id = getattr(response, "message_id", None)
    if message_id is not None:
        interaction.extras[PLACEHOLDER] = message_id


async def answer(
    interaction: discord.Interaction,
    content: str = "",
    *,
    ephemeral: bool,
    uploads: tuple[Upload, ...] = (),
    view: discord.ui.View | None = None,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
) -> None:
    """The followup of a deferred interaction; past the token's 15 minutes, delivered as the module says. Give
    ``embed`` or ``embeds`` (up to ten), not both."""
    message: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
    if content:
        message["content"] = content[:2000]
    if view is not None:
        message["view"] = view
    if embed is not None:
        message["embed"] = embed
    elif embeds:
        message["embeds"] = list(embeds)
    try:
        await interaction.followup.send(
            **message, files=[u.file() for u in uploads] or discord.utils.MISSING, ephemeral=ephemeral
        )
        return
    except discord.HTTPException as exc:
        if not token_expired(exc):
            raise
    if ephemeral:
        await _by_dm(interaction, message, uploads)
    else:
        await _in_channel(interaction, message, uploads)


async def _in_channel(interaction: discord.Interaction, message: dict[str, Any], uploads: tuple[Upload, ...]) -> None:
    channel = interaction.channel
    log.info(
        "interaction %s: its token ran out; answering in channel %s instead", interaction.id, interaction.channel_id
    )
    if not isinstance(channel, discord.abc.Messageable):
        log.warning("interaction %s: no channel to answer in; the answer is lost: %s", interaction.id, message)
        return
    await channel.send(**message, files=[u.file() for u in uploads] or discord.utils.MISSING)
    await remove_placeholder(interaction)


async def _by_dm(interaction: discord.Interaction, message: dict[str, Any], uploads: tuple[Upload, ...]) -> None:
    message = {**message, "content": (f"{message.get('content', '')}\n{LATE_NOTE}").strip()[:2000]}
    try:
        await interaction.user.send(**message, files=[u.file() for u in uploads] or discord.utils.MISSING)
    except discord.HTTPException as exc:
        log.info(
            "interaction %s: too late to answer and no DM to %s (%s): %s",
            interaction.id,
            interaction.user.id,
            exc.code,
            message.get("content"),
        )


async def remove_placeholder(interaction: discord.Interaction) -> None:
    """Delete the public "thinking…" placeholder: through the interaction while its token lasts, else through
    the channel (the placeholder is the bot's own message there)."""
    try:
        await interaction.delete_original_response()
        return
    except discord.HTTPException as exc:
        if not token_expired(exc):
            log.warning("could not remove the public placeholder of interaction %s: %s", interaction.id, exc)
            return
    placeholder = interaction.extras.get(PLACEHOLDER)
    channel = interaction.channel
    if placeholder is None or not isinstance(channel, discord.abc.Messageable):
        return
    try:
        await channel.get_partial_message(placeholder).delete()  # type: ignore[attr-defined]
    except discord.HTTPException as exc:
        log.warning("could not remove the public placeholder %s in channel %s: %s", placeholder, channel, exc)
