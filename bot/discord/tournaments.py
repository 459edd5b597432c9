"""/tournament create|join|leave|start|standings|cancel|remove, and a tournament's news posted in Discord.

A tournament lives in the channel it was made in (the server's games channel when it set one; a command typed in
a thread counts as typed in its channel). Its announcements go there: made, started, a round over and the next one
paired, the winner; with each round over, the standings as a picture (:mod:`render.standings`; the standings as
text when the picture cannot be drawn or attached). Each game of a round gets a thread of its own in that channel,
its players added and pinged in its first turn; a round of more than :data:`THREAD_PER_GAME` games shares one
thread ("Tournament 3, round 2"), where each game's turns carry its number.

Everything is done by :mod:`bot.actions.tournaments`; a round's games are started, and their boards marked still
to be posted, in the commit of the action that paired them (whoever's move, timeout or command it was). This module
only posts that news (:meth:`TournamentPoster.present`, which :class:`bot.discord.front.Front` calls for every
result carrying news). When a process dies between the commit and the post, the sweep posts the boards it marked,
each in a thread of its own (:meth:`bot.discord.front.Front.repost_pending`): no game is left unposted, though the
announcement is then not repeated.

The organiser, or a member with Manage Server, may start, cancel, or remove a player. Refusals (the server's
tournaments limit among them) are one private line, and change nothing.
"""

from __future__ import annotations

import asyncio
import logging
import shlex

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import Actions, Result
from bot.actions.tournament_text import MAX_PLAYERS, MAX_ROUNDS, picture_of
from bot.actions.tournaments import News
from bot.discord.admin import is_moderator
from bot.discord.cog import GAME_CHOICES, refuse_publicly_deferred, reply, report_failure
from bot.discord.followups import Upload, answer, defer_publicly
from bot.discord.front import PLAIN_LIMIT, THREAD_ARCHIVE_MINUTES, Front, PostError
from bot.discord.gate import challenge_refusal

log = logging.getLogger("pbm.discord")

#: a round of at most this many games gives each game a thread of its own; a bigger round shares one thread
THREAD_PER_GAME = 8
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="round robin", value="round-robin"),
    app_commands.Choice(name="knock-out", value="knock-out"),
]


def fit(lines: list[str], limit: int = PLAIN_LIMIT) -> str:
    """Lines as one message within ``limit`` characters; those that do not fit are counted on a last line."""
    kept: list[str] = []
    for index, line in enumerate(lines):
        more = len(lines) - index
        if len("\n".join([*kept, line])) + len(f"\n… and {more} more lines") > limit:
            kept.append(f"… and {more} more {'line' if more == 1 else 'lines'}")
            break
        kept.append(line)
    return "\n".join(kept)


def standings_png(result: Result) -> bytes:
    """The standings picture of a standings result."""
    from render.standings import standings_png as draw

    return draw(**picture_of(result))  # type: ignore[arg-type]


def standings_text(result: Result) -> list[str]:
    """The standings as lines: what the tournament is, then one line per player (and the round's boards)."""
    return [result.message, *result.items]


class TournamentPoster:
    """Posts what the actions say happened to tournaments (:class:`bot.actions.tournaments.News`)."""

    def __init__(self, client: discord.Client, actions: Actions, front: Front) -> None:
        self.client = client
        self.actions = actions
        self.front = front

    async def present(self, news: list[News]) -> None:
        """Each piece of news in its tournament's channel; a failure is logged, and the marked boards are left
        to the sweep."""
        for item in news:
            try:
                await self._present_one(item)
            except (discord.HTTPException, PostError) as exc:
                log.error("tournament %s: its news could not be posted: %s", item.tournament_id, exc)

    async def _present_one(self, news: News) -> None:
        channel = await self.channel(news.channel_id)
        if channel is None:
            return
        if news.lines:
            await channel.send(fit(news.lines), allowed_mentions=discord.AllowedMentions.none(), silent=True)
        if news.games:
            await self._post_games(news, channel)
        for turn in news.turns:
            await self.front.post_turn(turn)
        if news.standings:
            await self.post_standings(news.tournament_id, channel)

    async def channel(self, channel_id: int | None) -> discord.TextChannel | None:
        """A tournament's channel (``None``: it has none, or it cannot be reached, which is logged)."""
        if channel_id is None:
            return None
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        except discord.HTTPException as exc:
            log.error("a tournament's channel %s cannot be reached: %s", channel_id, exc)
            return None
        return channel if isinstance(channel, discord.TextChannel) else None

    async def _post_games(self, news: News, channel: discord.TextChannel) -> None:
        """The new games' first turns, every player pinged: each game in a thread of its own, or the whole round
        in one thread when it has more than :data:`THREAD_PER_GAME` games."""
        private = (await self.actions.server_settings(channel.guild.id)).private_threads
        shared = await self._round_thread(news, channel, private) if len(news.games) > THREAD_PER_GAME else None
        for game in news.games:
            assert game.game_id is not None
            game.notify = list(game.players)
            thread = shared or await self.front.open_thread(game, channel, private=private)
            await self.front.post_turn(game, thread, nonce=news.marks.get(game.game_id))

    async def _round_thread(self, news: News, channel: discord.TextChannel, private: bool) -> discord.Thread:
        """One thread for a whole round, every player of it added; its games are put in it."""
        kind = discord.ChannelType.private_thread if private else discord.ChannelType.public_thread
        thread = await channel.create_thread(
            name=f"Tournament {news.tournament_id}, round {news.round}",
            type=kind,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            invitable=not private,
        )
        ids = [game.game_id for game in news.games if game.game_id is not None]
        await self.actions.store.set_threads(ids, channel.guild.id, channel.id, thread.id)
        players = list(dict.fromkeys(p for game in news.games for p in game.players))
        for user in await self.front.mentions(players):
            try:
                await thread.add_user(user)
            except discord.HTTPException as exc:
                log.warning("tournament %s: user %s not added to its thread: %s", news.tournament_id, user.id, exc)
        return thread

    async def post_standings(self, tournament_id: int, channel: discord.abc.Messageable) -> None:
        """The standings as a picture in ``channel`` (as text when it cannot be drawn or attached)."""
        result = await self.actions.tournament_standings(tournament_id)
        if not result.ok:
            return
        content, upload = await self.standings_message(result)
        try:
            await channel.send(content, file=upload.file() if upload else discord.utils.MISSING, silent=True)
        except discord.Forbidden:
            await channel.send(fit(standings_text(result)), silent=True)

    async def standings_message(self, result: Result) -> tuple[str, Upload | None]:
        """A standings result as a message: its first line and the picture, or all of it as text when the
        picture cannot be drawn."""
        try:
            png = await asyncio.to_thread(standings_png, result)
        except Exception:
            log.exception("drawing the standings of tournament %s failed", result.data["tournament"]["id"])
            return fit(standings_text(result)), None
        name = f"tournament-{result.data['tournament']['id']}.png"
        return result.message[:PLAIN_LIMIT], Upload(name, png)


class TournamentCommands(commands.Cog):
    """/tournament create, join, leave, start, standings, cancel, remove."""

    tournament = app_commands.Group(
        name="tournament", description="Tournaments: Swiss, round robin, knock-out", guild_only=True
    )

    def __init__(self, actions: Actions, front: Front, poster: TournamentPoster) -> None:
        self.actions = actions
        self.front = front
        self.poster = poster

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_failure(interaction, error)

    @tournament.command(name="create", description="Organise a tournament in this channel")
    @app_commands.describe(
        game="which game",
        format_="Swiss (a number of rounds), round robin (everyone meets everyone) or knock-out",
        options="every game's options, e.g. -size=8 -days=3 -unrated (Backgammon: -match=5)",
        rounds="a Swiss's number of rounds",
        max_players="the most players who may join",
        signup_until="when the signup closes and the tournament starts: 2026-12-01T09:00Z, or a wait like 2d",
        table="players at each game for Drogo and 3-player Druid: 3, 4, or 3-4",
    )
    @app_commands.choices(game=GAME_CHOICES, format_=FORMAT_CHOICES)
    @app_commands.rename(format_="format")
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format_: app_commands.Choice[str],
        options: str | None = None,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
        max_players: app_commands.Range[int, 2, MAX_PLAYERS] | None = None,
        signup_until: str | None = None,
        table: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        settings = await self.actions.server_settings(interaction.guild_id)
        refused = challenge_refusal(interaction, settings)
        if refused:
            await reply(interaction, refused.replace("challenge there", "organise it there"))
            return
        try:
            words = shlex.split(options or "")
        except ValueError as exc:
            await reply(interaction, f"cannot read the options: {exc}")
            return
        here = interaction.channel
        channel_id = here.parent_id if isinstance(here, discord.Thread) else interaction.channel_id
        result = await self.actions.create_tournament(
            game.value,
            await self.front.player_id(interaction.user),
            format_.value,
            rounds=rounds,
            options=words,
            table=table,
            max_players=max_players,
            signup_until=signup_until,
            guild_id=interaction.guild_id,
            channel_id=settings.channel_id or channel_id,
            settings=settings,
        )
        if not result.ok:
            await reply(interaction, result.message)
            return
        number = result.data["tournament"]["id"]
        channel = await self.poster.channel(result.data["tournament"]["channel_id"])
        if channel is None:
            await reply(interaction, f"{result.message}\nI cannot post in its channel; ask an admin.")
            return
        text = f"{result.message}\nJoin with `/tournament join tournament:{number}`."
        await channel.send(text[:PLAIN_LIMIT], allowed_mentions=discord.AllowedMentions.none())
        await reply(interaction, f"Tournament {number} posted in {channel.mention}.")

    @tournament.command(name="join", description="Enter a tournament during its signup")
    @app_commands.describe(tournament="the tournament's number")
    async def join(self, interaction: discord.Interaction, tournament: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        player = await self.front.player_id(interaction.user)
        result = await self.actions.join_tournament(tournament, player, guild_id=interaction.guild_id)
        await reply(interaction, result.message)

    @tournament.command(name="leave", description="Leave a tournament (once it has started: withdraw from it)")
    @app_commands.describe(tournament="the tournament's number")
    async def leave(self, interaction: discord.Interaction, tournament: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        player = await self.front.player_id(interaction.user)
        result = await self.actions.leave_tournament(tournament, player, guild_id=interaction.guild_id)
        await self._done(interaction, result)

    @tournament.command(name="start", description="Close the signup and start (the organiser, or Manage Server)")
    @app_commands.describe(tournament="the tournament's number")
    async def start(self, interaction: discord.Interaction, tournament: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        by = await self.front.player_id(interaction.user)
        result = await self.actions.start_tournament(
            tournament, by, moderator=is_moderator(interaction), guild_id=interaction.guild_id
        )
        await self._done(interaction, result)

    @tournament.command(name="standings", description="A tournament's standings, as a picture")
    @app_commands.describe(tournament="the tournament's number")
    async def standings(self, interaction: discord.Interaction, tournament: int) -> None:
        await defer_publicly(interaction)
        result = await self.actions.tournament_standings(tournament, guild_id=interaction.guild_id)
        if not result.ok:
            await refuse_publicly_deferred(interaction, result.message)
            return
        if not result.data.get("rows"):  # still signing up: who joined
            await answer(interaction, fit(standings_text(result)), ephemeral=False)
            return
        content, upload = await self.poster.standings_message(result)
        await answer(interaction, content, ephemeral=False, uploads=(upload,) if upload else ())

    @tournament.command(name="cancel", description="Cancel a tournament (the organiser, or Manage Server)")
    @app_commands.describe(tournament="the tournament's number", reason="why, for everyone to read")
    async def cancel(self, interaction: discord.Interaction, tournament: int, reason: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        by = await self.front.player_id(interaction.user)
        result = await self.actions.cancel_tournament(
            tournament, by, reason, moderator=is_moderator(interaction), guild_id=interaction.guild_id
        )
        await self._done(interaction, result)

    @tournament.command(name="remove", description="Take a player out (the organiser, or Manage Server)")
    @app_commands.describe(tournament="the tournament's number", member="who", reason="why, for everyone to read")
    async def remove(
        self, interaction: discord.Interaction, tournament: int, member: discord.Member, reason: str | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        by = await self.front.player_id(interaction.user)
        result = await self.actions.remove_from_tournament(
            tournament,
            by,
            await self.front.player_id(member),
            reason,
            moderator=is_moderator(interaction),
            guild_id=interaction.guild_id,
        )
        await self._done(interaction, result)

    async def _done(self, interaction: discord.Interaction, result: Result) -> None:
        """The actor's private answer (the action's first line, or its refusal), then the news in the
        tournament's channel."""
        await reply(interaction, result.message.splitlines()[0] if result.ok else result.message)
        if result.ok and result.news:
            await self.poster.present(result.news)
