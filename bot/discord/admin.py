"""/settings and /admin: a server's settings and its moderators' actions, for members with Manage Server.

Discord shows both commands only to members with Manage Server (their ``default_member_permissions``). That is a
display rule a forged request ignores, so every subcommand also checks the permissions the interaction carries
(Discord computes them for the member who sent it): a member without Manage Server (or Administrator) is refused
in one private line and nothing is read or changed. Answers are private.

Everything is done by :mod:`bot.actions.settings` and :mod:`bot.actions.moderation`; here the options are read,
the games a moderator ended are posted in their threads (pinging every player still in them), and the messages
of withdrawn challenges say so and lose their buttons.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import Actions, Result
from bot.actions.moderation import Moderated
from bot.actions.settings import LIMITS_BY_NAME, Naming
from bot.discord.cog import GAME_CHOICES, ON_OFF, reply, report_failure
from bot.discord.failures import note_outcome
from bot.discord.front import Front
from data.store import ChallengeRow, StoreError

log = logging.getLogger("pbm.discord")

#: the answer to a member without Manage Server who reached /settings or /admin all the same
NOT_MODERATOR = "only members with the Manage Server permission can use this command"
#: channels and roles as Discord mentions them (a private answer pings nobody)
MENTIONS = Naming(lambda channel_id: f"<#{channel_id}>", lambda role_id: f"<@&{role_id}>")
MANAGE_SERVER = discord.Permissions(manage_guild=True)


class NotModerator(app_commands.CheckFailure):
    """The member who sent the command may not manage the server."""


def is_moderator(interaction: discord.Interaction) -> bool:
    """Whether the interaction's member may manage the server, by the permissions Discord put in it."""
    permissions = interaction.permissions
    return interaction.guild_id is not None and (permissions.manage_guild or permissions.administrator)


class AdminCommands(commands.Cog):
    """/settings show|channel|defaults|games|computer|limits|role and /admin cancel|decide|forfeit|challenges|log."""

    settings = app_commands.Group(
        name="settings",
        description="This server's settings for pbm (Manage Server)",
        guild_only=True,
        default_permissions=MANAGE_SERVER,
    )
    admin = app_commands.Group(
        name="admin",
        description="Moderators' actions on games and challenges (Manage Server)",
        guild_only=True,
        default_permissions=MANAGE_SERVER,
    )

    def __init__(self, actions: Actions, front: Front) -> None:
        self.actions = actions
        self.front = front

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Every command here: only for members with Manage Server, as the interaction itself says."""
        if not is_moderator(interaction):
            raise NotModerator(NOT_MODERATOR)
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, NotModerator):
            note_outcome(interaction, "refused")
            log.warning("user %s used /%s without Manage Server", interaction.user.id, interaction.command)
            if interaction.response.is_done():
                await reply(interaction, NOT_MODERATOR)
            else:
                await interaction.response.send_message(NOT_MODERATOR, ephemeral=True)
            return
        await report_failure(interaction, error)

    async def moderator(self, interaction: discord.Interaction) -> str:
        """The moderator as the audit log names them: their player id."""
        return await self.front.player_id(interaction.user)

    # ---- /settings -----------------------------------------------------------------------------------------

    @settings.command(name="show", description="This server's settings")
    async def settings_show(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        result = await self.actions.show_settings(interaction.guild_id, MENTIONS)
        await reply(interaction, "\n".join([result.message, *(f"- {item}" for item in result.items)]))

    @settings.command(name="channel", description="Where games live: challenges are made there, threads opened there")
    @app_commands.describe(
        channel="the channel for games (challenges made elsewhere are pointed to it)",
        private_threads="open each game's thread as a private thread (only its players, and moderators, see it)",
        anywhere="games may be challenged to in any channel again",
    )
    async def settings_channel(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        private_threads: bool | None = None,
        anywhere: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        result = await self.actions.set_channel(
            interaction.guild_id,
            await self.moderator(interaction),
            None if channel is None else channel.id,
            private=private_threads,
            anywhere=anywhere,
            naming=MENTIONS,
        )
        await reply(interaction, result.message)

    @settings.command(name="defaults", description="A game's default challenge options, e.g. -days=3")
    @app_commands.describe(game="which game", options="the options every challenge starts with; leave out for none")
    @app_commands.choices(game=GAME_CHOICES)
    async def settings_defaults(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], options: str = ""
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        moderator = await self.moderator(interaction)
        result = await self.actions.set_defaults(interaction.guild_id, moderator, game.value, options)
        await reply(interaction, result.message)

    @settings.command(name="games", description="Offer a game in this server, or stop offering it")
    @app_commands.describe(game="which game", offered="on: members may challenge to it; off: not (games go on)")
    @app_commands.choices(game=GAME_CHOICES, offered=ON_OFF)
    async def settings_games(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], offered: app_commands.Choice[str]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        moderator = await self.moderator(interaction)
        result = await self.actions.set_offered(interaction.guild_id, moderator, game.value, offered.value == "on")
        await reply(interaction, result.message)

    @settings.command(name="computer", description="Computer opponents: on or off, and the highest level")
    @app_commands.describe(on="whether members may challenge me", level="the highest level members may choose")
    @app_commands.choices(on=ON_OFF)
    async def settings_computer(
        self,
        interaction: discord.Interaction,
        on: app_commands.Choice[str] | None = None,
        level: app_commands.Range[int, 1, 3] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        moderator = await self.moderator(interaction)
        switch = None if on is None else on.value == "on"
        result = await self.actions.set_computer(interaction.guild_id, moderator, switch, level)
        await reply(interaction, result.message)

    @settings.command(name="limits", description="What each member may have at once in this server")
    @app_commands.describe(
        open_challenges=f"open challenges waiting for an answer (default {LIMITS_BY_NAME['open_challenges'].default})",
        running_games=f"running games (default {LIMITS_BY_NAME['running_games'].default})",
        computer_games=f"running games against me (default {LIMITS_BY_NAME['computer_games'].default})",
        tournaments=f"tournaments organised (default {LIMITS_BY_NAME['tournaments'].default})",
    )
    async def settings_limits(
        self,
        interaction: discord.Interaction,
        open_challenges: app_commands.Range[int, 1, 100] | None = None,
        running_games: app_commands.Range[int, 1, 1000] | None = None,
        computer_games: app_commands.Range[int, 1, 50] | None = None,
        tournaments: app_commands.Range[int, 1, 50] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        values = {
            "open_challenges": open_challenges,
            "running_games": running_games,
            "computer_games": computer_games,
            "tournaments": tournaments,
        }
        result = await self.actions.set_limits(interaction.guild_id, await self.moderator(interaction), values)
        await reply(interaction, result.message)

    @settings.command(name="role", description="Who may start games: members with a role, or everyone")
    @app_commands.describe(role="only members with this role may challenge", everyone="everyone may challenge again")
    async def settings_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None, everyone: bool = False
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        if (role is None) != everyone:
            await reply(interaction, "give a role, or `everyone`, not both")
            return
        role_id = None if everyone or role is None or role.is_default() else role.id
        moderator = await self.moderator(interaction)
        result = await self.actions.set_role(interaction.guild_id, moderator, role_id, MENTIONS)
        await reply(interaction, result.message)

    # ---- /admin --------------------------------------------------------------------------------------------

    @admin.command(name="cancel", description="End a game without a result (unrated); its players are told why")
    @app_commands.describe(game="the game's number", reason="why: the players are told it")
    async def admin_cancel(self, interaction: discord.Interaction, game: int, reason: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.actions.admin_cancel(
            game, await self.moderator(interaction), reason, guild_id=interaction.guild_id
        )
        await self._ended(interaction, result)

    @admin.command(name="decide", description="End a game with a winner; rated unless you say otherwise")
    @app_commands.describe(
        game="the game's number",
        winner="the player who wins (the others lose)",
        reason="why: the players are told it",
        unrated="the game does not count for the ratings",
    )
    async def admin_decide(
        self, interaction: discord.Interaction, game: int, winner: str, reason: str, unrated: bool = False
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.actions.admin_decide(
            game,
            await self.moderator(interaction),
            winner,
            reason,
            rated=not unrated,
            guild_id=interaction.guild_id,
        )
        await self._ended(interaction, result)

    @admin_decide.autocomplete("winner")
    async def _winner_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The players of the game named in ``game``, for a moderator."""
        game_id = getattr(interaction.namespace, "game", None)
        if not is_moderator(interaction) or not isinstance(game_id, int):
            return []
        try:
            row = await self.actions.store.load_game(game_id)
        except StoreError:
            return []
        if row.guild_id != interaction.guild_id:
            return []
        typed = current.lower()
        return [app_commands.Choice(name=p, value=p) for p in row.players if typed in p.lower()][:25]

    @admin.command(name="forfeit", description="Remove a member from all their games here (one opponent left wins)")
    @app_commands.describe(member="the member (also one who left or was banned)", reason="why: the players are told it")
    async def admin_forfeit(self, interaction: discord.Interaction, member: discord.User, reason: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        player = await self.actions.store.player_by_discord_id(member.id)
        if player is None:
            await reply(interaction, f"{member.name} has never played here; nothing to do")
            return
        result = await self.actions.admin_forfeit(
            player, await self.moderator(interaction), reason, guild_id=interaction.guild_id
        )
        if isinstance(result, Moderated):
            for game in result.games:
                await self.front.post_turn(game)
            await self._mark_withdrawn(result.challenges, f"Withdrawn by a moderator: {reason.strip()}")
        await reply(interaction, result.message)

    @admin.command(name="challenges", description="Withdraw the open challenges a member made here")
    @app_commands.describe(member="whose challenges", reason="why: it is shown on the challenges withdrawn")
    async def admin_challenges(self, interaction: discord.Interaction, member: discord.User, reason: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        player = await self.actions.store.player_by_discord_id(member.id)
        if player is None:
            await reply(interaction, f"{member.name} has never played here; nothing to withdraw")
            return
        result = await self.actions.admin_challenges(
            player, await self.moderator(interaction), reason, guild_id=interaction.guild_id
        )
        if result.ok:
            await self._mark_withdrawn(result.challenges, f"Withdrawn by a moderator: {reason.strip()}")
        await reply(interaction, result.message)

    @admin.command(name="log", description="What moderators did here, newest first")
    @app_commands.describe(page="which page (20 entries a page)")
    async def admin_log(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100000] = 1) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.actions.admin_log(interaction.guild_id, str(page))
        await reply(interaction, "\n".join([result.message, *result.items]), file_name="moderation.txt")

    # ---- presenting ----------------------------------------------------------------------------------------

    async def _ended(self, interaction: discord.Interaction, result: Result) -> None:
        """A game a moderator ended: posted in its thread (everyone in it pinged), and the moderator told where."""
        if not result.ok or result.game_id is None:
            await reply(interaction, result.message)
            return
        posted = await self.front.post_turn(result)
        where = f" in {posted.thread.mention}" if posted.thread is not None else ""
        await reply(interaction, "\n".join([f"{result.message.splitlines()[0]}.\nTold{where}.", *posted.problems]))

    async def _mark_withdrawn(self, rows: list[ChallengeRow], line: str) -> None:
        """Say on each withdrawn challenge's message that it was withdrawn, and remove its buttons."""
        for row in rows:
            if row.channel_id is None or row.message_id is None:
                continue
            try:
                channel = self.front.client.get_channel(row.channel_id) or await self.front.client.fetch_channel(
                    row.channel_id
                )
                assert isinstance(channel, discord.abc.Messageable)
                message = await channel.fetch_message(row.message_id)
                await message.edit(
                    content=f"{message.content}\n{line}"[:2000],
                    view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                log.warning("could not mark challenge %s withdrawn: %s", row.id, exc)
