"""The slash commands. Each one acknowledges the interaction first (Discord allows 3 s; database work and
drawing come after), calls :class:`bot.actions.Actions`, and hands the result to :class:`bot.discord.front.Front`.
Mistakes are answered ephemerally with the action's own words; nothing is changed by a refused command."""

from __future__ import annotations

import asyncio
import functools
import logging
import shlex
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import Actions, Result
from bot.actions.limits import default_level
from bot.actions.settings import ServerSettings
from bot.board_files import caption_3d
from bot.correspondence.options import MAX_RATING
from bot.discord.buttons import challenge_view, has_3d_view, preview_view, proposal_view
from bot.discord.failures import failure_text, log_failure, note_outcome, tell_failure, unavailable
from bot.discord.followups import Upload, answer, defer_publicly, remove_placeholder
from bot.discord.front import PLAIN_LIMIT, Front, PostError, new_nonce
from bot.discord.gate import challenge_refusal
from bot.discord.layout import turn_text
from data.store import DatabaseUnavailableError, GameRow, GameSummary, StoreError
from rules import registry

log = logging.getLogger("pbm.discord")
GAME_CHOICES = [app_commands.Choice(name=name, value=name) for name in registry.names()]
REPLY_LIMIT = 1900
#: suggestions Discord shows at most
MAX_CHOICES = 25
ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
VIEW_CHOICES = [app_commands.Choice(name="top", value="top"), app_commands.Choice(name="3d", value="3d")]
#: Discord's default upload limit; a replay is kept under it (or under the interaction's own limit)
REPLAY_LIMIT = 10 * 1024 * 1024
#: after a move whose commit went unanswered, how long (seconds) the database is asked whether it was played, and
#: how often: the answer must reach the member well within Discord's 15 minutes
LANDING_WAIT = 60.0
LANDING_POLL = 1.0


def landing_line(move: str, landed: bool | None) -> str:
    """What a member is told about their move when the database became unavailable while it was being made."""
    if landed:
        return f"your move {move} was played; the database became unavailable just after, so its board may come later"
    if landed is None:
        return (
            f"the database is unavailable: whether your move {move} was played cannot be told yet; look at the"
            " game's thread in a few minutes before you move again"
        )
    return f"the database is unavailable: your move {move} was not played; try again in a minute"


async def reply(interaction: discord.Interaction, text: str, *, file_name: str = "history.txt") -> None:
    """The private followup to a deferred interaction; text too long for one message goes as a file."""
    if len(text) <= REPLY_LIMIT:
        await answer(interaction, text, ephemeral=True)
        return
    await answer(interaction, text[:200] + " …", ephemeral=True, uploads=(Upload(file_name, text.encode()),))


async def refuse_publicly_deferred(interaction: discord.Interaction, text: str) -> None:
    """A mistake answered privately after a public defer: the public "thinking" message is removed and the
    answer goes only to the user (a followup's ephemeral flag only counts once the original is gone)."""
    await remove_placeholder(interaction)
    await answer(interaction, text, ephemeral=True)


def _replay_gif(frames: list, limit: int):  # -> render.replay.ReplayGif
    from render.replay import replay_gif

    return replay_gif(frames, max_bytes=limit)


@functools.cache
def _zone_names() -> tuple[str, ...]:
    import zoneinfo

    return tuple(sorted(zoneinfo.available_timezones()))


def time_zones(current: str, limit: int = 25) -> list[str]:
    """IANA time zone names containing what was typed (case-insensitive), for autocomplete."""
    typed = current.strip().lower()
    return [n for n in _zone_names() if typed in n.lower()][:limit]


def open_challenge_listing(result: Result, limit: int = REPLY_LIMIT) -> str:
    """``/challenges``: one line per challenge, its number a link to its message (where Accept is), cut to one
    message with a note of how many more there are."""
    lines = [result.message]
    for index, (row, item) in enumerate(zip(result.challenges, result.items, strict=True)):
        name = f"challenge {row.id}"
        if row.message_id is not None and row.guild_id is not None and row.channel_id is not None:
            url = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"
            item = f"[{name}](<{url}>){item.removeprefix(name)}"
        more = len(result.items) - index
        if len("\n".join([*lines, item])) + len(f"\n… and {more} more") > limit:
            lines.append(f"… and {more} more")
            break
        lines.append(item)
    return "\n".join(lines)


def game_choice(row: GameRow | GameSummary) -> app_commands.Choice[int]:
    """A game as an autocomplete suggestion: "druid 12: alice, bob: alice's turn" ("...: finished" once over)."""
    standing = f"{row.to_move}'s turn" if row.status == "active" and row.to_move else row.status
    return app_commands.Choice(name=f"{row.type} {row.id}: {', '.join(row.players)}: {standing}"[:100], value=row.id)


def board_message(result: Result, text_board: str) -> str:
    """``/board``'s text (and the Show board menu's): what a turn says about the position (the same text as the
    turn message's, clocks included), then the board as text when there is no picture."""
    if not text_board:
        return turn_text(result, PLAIN_LIMIT)
    return f"{turn_text(result, PLAIN_LIMIT - len(text_board) - 1)}\n{text_board}"


def listing(result: Result) -> str:
    """A result's message followed by its items, one per line."""
    return "\n".join([result.message, *result.items])


class GameCommands(commands.Cog):
    """/challenge, /challenges, /move, /board, /resign, /history, /replay, /games, /moves, /help, /notify, /watch,
    /unwatch, /propose, /vacation, /queue."""

    def __init__(self, actions: Actions, front: Front) -> None:
        self.actions = actions
        self.front = front

    # ---- game lookup ---------------------------------------------------------------------------------------

    async def game_for(self, interaction: discord.Interaction, game: int | None) -> int | None:
        """The game a command is about: the ``game`` option, else the game of the thread it was typed in."""
        if game is not None:
            return game
        channel_id = interaction.channel_id
        return None if channel_id is None else await self.actions.store.game_by_thread(channel_id)

    # ---- challenges ----------------------------------------------------------------------------------------

    @app_commands.command(description="Challenge members to a game, or open one to anyone in the channel")
    @app_commands.describe(
        game="which game",
        opponent="who you challenge; name nobody to open the game to anyone",
        opponent2="a third player (Druid hex, Drogo)",
        opponent3="a fourth player (Drogo)",
        options="pbmserv options, e.g. -size=8 -hex",
        level="when you challenge me: how well I play, 1 (easy) to 3 (hard); 2 by default",
        open_seats="seats anyone may take with Accept (1 when you name no opponent)",
        rating_min="open seats are for players rated this or more",
        rating_max="open seats are for players rated this or less",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        opponent: discord.Member | None = None,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        options: str | None = None,
        level: app_commands.Range[int, 1, 3] | None = None,
        open_seats: app_commands.Range[int, 1, 3] | None = None,
        rating_min: app_commands.Range[int, 0, MAX_RATING] | None = None,
        rating_max: app_commands.Range[int, 0, MAX_RATING] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        settings = await self.actions.server_settings(interaction.guild_id)  # read once for the whole command
        refused = challenge_refusal(interaction, settings)
        if refused:
            await reply(interaction, refused)
            return
        members = [m for m in (interaction.user, opponent, opponent2, opponent3) if m is not None]
        me = interaction.client.user
        computers = [m for m in members[1:] if me is not None and m.id == me.id]
        if any(m.bot for m in members[1:] if m not in computers):
            await reply(interaction, "other bots cannot play; challenge a person, or me for a computer opponent")
            return
        if len(computers) > 1:
            await reply(interaction, "I can take one seat in a game")
            return
        if level is not None and not computers:
            await reply(interaction, "`level` is for challenging me; a person plays as well as they play")
            return
        computer = f"ai:{level or default_level(settings)}"
        players = [computer if m in computers else await self.front.player_id(m) for m in members]
        try:
            words = shlex.split(options or "")
        except ValueError as exc:
            await reply(interaction, f"cannot read the options: {exc}")
            return
        ratings = (("rating_min", rating_min), ("rating_max", rating_max))
        words += [f"-{name}={value}" for name, value in ratings if value is not None]  # read like the options
        seats = open_seats if open_seats is not None else (1 if len(members) == 1 else 0)
        result = await self.actions.challenge_in_server(
            settings, interaction.guild_id, interaction.channel_id, game.value, players, words, open_seats=seats
        )
        if not result.ok or result.challenge_id is None:
            await reply(interaction, result.message)
            return
        for computer in [p for p in players[1:] if p.startswith("ai:")]:  # I accept at once
            accepted = await self.actions.accept(result.challenge_id, computer)
            if not accepted.ok:
                await reply(interaction, accepted.message)
                return
            if accepted.game_id is not None:
                await self.start_game(interaction, accepted, settings)
                return
            result.message += f"\n{accepted.message}"
        await self._post_challenge(interaction, result, [m for m in members if m not in computers], seats)

    async def _post_challenge(
        self, interaction: discord.Interaction, result: Result, members: list[discord.abc.User], open_seats: int
    ) -> None:
        assert result.challenge_id is not None and interaction.channel is not None
        challenged = members[1:]
        mentions = " ".join(m.mention for m in challenged)
        if not open_seats:
            tail = f"{mentions}: accept or decline below."
        elif challenged:
            tail = f"{mentions}: accept or decline below; anyone else may take an open seat with Accept."
        else:
            tail = "Anyone else may take a seat with Accept; the game starts when every seat is taken."
        text = f"{result.message[: 1999 - len(tail)]}\n{tail}"  # the mentions always fit in Discord's 2,000
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        try:
            message = await channel.send(
                text,
                view=challenge_view(result.challenge_id, decline=bool(challenged)),
                allowed_mentions=discord.AllowedMentions(users=challenged, everyone=False, roles=False),
            )
        except discord.Forbidden:
            log.error("missing permission to post challenge %s in channel %s", result.challenge_id, channel)
            await self.actions.cancel(result.challenge_id, result.players[0])
            await reply(interaction, "I cannot post in this channel (**Send Messages** is missing); ask an admin.")
            return
        await self.actions.store.update_challenge(result.challenge_id, message_id=message.id)
        await reply(interaction, f"Challenge {result.challenge_id} posted.")

    @app_commands.command(name="challenges", description="The open challenges in this server, with seats to take")
    @app_commands.describe(game="only this game's")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def challenges(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.actions.challenges_open_to_all(game.value if game else None, guild_id=interaction.guild_id)
        await reply(interaction, open_challenge_listing(result))

    async def start_game(
        self, interaction: discord.Interaction, result: Result, settings: ServerSettings | None = None
    ) -> None:
        """A challenge was accepted by everyone: open the game's thread (in the server's games channel, if it set
        one; private, if it chose that), post the opening board, ping the first player. Without a thread (missing
        permission) the game stands and its board is posted later. ``settings``: the server's, when the command
        read them already."""
        assert result.game_id is not None
        settings = settings or await self.actions.server_settings(interaction.guild_id)
        channel = await self.front.games_channel(settings.channel_id) or interaction.channel
        try:
            if not isinstance(channel, discord.TextChannel | discord.Thread):
                raise PostError("games are played in threads of a text channel")
            thread = await self.front.open_thread(result, channel, private=settings.private_threads)
        except PostError as exc:
            await self.front.mark_unposted(result.game_id)
            await reply(interaction, f"{result.message}\n{exc}")
            return
        posted = await self.front.post_turn(result, thread)
        await reply(
            interaction, "\n".join([f"{result.message.splitlines()[0]} in {thread.mention}.", *posted.problems])
        )

    # ---- moves ---------------------------------------------------------------------------------------------

    @app_commands.command(description="Make a move")
    @app_commands.describe(
        move="your move (suggestions are the legal moves)",
        game="game id (implied in its thread)",
        preview="first show the board after the move, privately, with Confirm and Cancel buttons",
    )
    async def move(
        self, interaction: discord.Interaction, move: str, game: int | None = None, preview: bool = False
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            game_id = await self.game_for(interaction, game)
            player = await self.front.player_id(interaction.user)
            previewed = preview or await self.actions.wants_preview(player)
        except Exception as exc:
            if unavailable(exc) is None:
                raise
            log.warning("a move met an unavailable database before it was tried: %s", exc)
            note_outcome(interaction, "unavailable")
            await reply(interaction, landing_line(move.split("#", 1)[0].strip(), False))
            return
        if game_id is None:
            await reply(interaction, "which game? Give `game`, or use /move in the game's thread")
            return
        if previewed:
            await self.show_preview(interaction, game_id, player, move)
            return
        await self.play(interaction, game_id, player, move)

    async def play(self, interaction: discord.Interaction, game_id: int, player: str, text: str) -> None:
        """Play a move and post its board. The move's commit marks the board as still to be posted, under the
        nonce its post will carry (see :mod:`bot.discord.front`): a crash in between cannot lose the board. A
        move is refused if its game changed after the interaction arrived (a second tap, handled late)."""
        nonce = new_nonce()
        arrived = interaction.extras.get("arrived")
        try:
            result = await self.actions.move(game_id, player, text, will_post=nonce, arrived=arrived)
            if result.ok and self.front.metrics is not None:
                self.front.metrics.moves.inc()
            here = interaction.channel
            typed_in_its_thread = (
                isinstance(here, discord.Thread)
                and result.game_id == game_id
                and await self.actions.store.game_by_thread(here.id) == game_id
            )
            await self.after_action(interaction, result, nonce=nonce, thread=here if typed_in_its_thread else None)
        except Exception as exc:
            down = unavailable(exc)
            if down is None:
                raise
            await self._tell_landing(interaction, game_id, nonce, text, down)
        finally:
            self.actions.forget_move(nonce)

    async def _tell_landing(
        self, interaction: discord.Interaction, game_id: int, nonce: str, text: str, down: DatabaseUnavailableError
    ) -> None:
        """The database became unavailable while a move was being made: find out whether it was played, and say
        so. Only a commit that went unanswered leaves it open; the database is then asked again until it answers
        (for at most :data:`LANDING_WAIT`)."""
        log.warning("game %s: a move met an unavailable database: %s", game_id, down)
        note_outcome(interaction, "unavailable")
        landed = await self.actions.move_landed(nonce, outcome_unknown=down.outcome_unknown)
        deadline = time.monotonic() + LANDING_WAIT
        while landed is None and self.actions.attempted_move(nonce) is not None and time.monotonic() < deadline:
            await asyncio.sleep(LANDING_POLL)
            landed = await self.actions.move_landed(nonce, outcome_unknown=True)
        if landed and self.front.metrics is not None:
            self.front.metrics.moves.inc()
        move = self.actions.attempted_move(nonce) or text.split("#", 1)[0].strip()
        await reply(interaction, landing_line(move, landed))

    async def show_preview(self, interaction: discord.Interaction, game_id: int, player: str, move: str) -> None:
        """The position after ``move``, not played, privately, with Confirm (plays it with the ``#n`` guard of
        the position shown) and Cancel."""
        result = await self.actions.preview(game_id, player, move)
        if not result.ok or result.played is None:
            await reply(interaction, result.message)
            return
        upload, text_board = await self.front.board_upload(result)
        view = preview_view(game_id, result.played)
        content = result.message + (f"\n{text_board}" if text_board else "")
        if view is None:
            content += f"\nto play it, use /move move:{result.played}"
        await answer(interaction, content, ephemeral=True, uploads=(upload,) if upload else (), view=view)

    async def after_action(
        self,
        interaction: discord.Interaction,
        result: Result,
        *,
        nonce: str | None = None,
        thread: discord.Thread | None = None,
    ) -> None:
        """Post the turn in the game's thread (``thread`` when the caller knows it: the command was typed there),
        with the ``nonce`` its commit marked it with, if any, and tell the actor privately how it went: where the
        turn went, or what went wrong; nothing when they acted in that thread and the turn is there."""
        if not result.ok:
            await reply(interaction, result.message)
            return
        problems: list[str] = []
        if result.game_id is not None and result.state is not None:
            posted = await self.front.post_turn(result, thread, nonce=nonce)
            problems = posted.problems
            here = posted.thread is not None and interaction.channel_id == posted.thread.id
            if here and posted.message is not None and not problems:
                # asked in the game's thread: the turn just posted there is the answer, and a private "done"
                # would say nothing new
                await remove_placeholder(interaction)
                return
            where = f" in {posted.thread.mention}" if posted.thread is not None else ""
            note = f"Done{where}." if posted.message is not None or posted.thread is None else "Done."
        else:
            note = result.message
        await reply(interaction, "\n".join([note, *problems]))

    @move.autocomplete("move")
    async def _move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game_id = await self.game_for(interaction, getattr(interaction.namespace, "game", None))
        if game_id is None:
            return []
        found = await self.actions.moves(game_id, current)
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in found.items[:25]] if found.ok else []

    @app_commands.command(description="Resign a game (in a Backgammon match, the match: you are asked first)")
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await reply(interaction, "which game? Give `game`, or use /resign in the game's thread")
            return
        player = await self.front.player_id(interaction.user)
        shown = await self.actions.show(game_id)
        question = shown.resign_question(player) if shown.ok else None
        if question is not None and shown.state is not None:
            # a game of a match: resigning resigns the whole match, so the player is told so and confirms; the
            # confirmation is a move guarded by the position it was asked in (see PreviewButton)
            await answer(
                interaction, question, ephemeral=True, view=preview_view(game_id, f"resign#{shown.state.ply + 1}")
            )
            return
        result = await self.actions.resign(game_id, player)
        await self.after_action(interaction, result)

    # ---- looking -------------------------------------------------------------------------------------------

    @app_commands.command(description="Show a board, now or after a given move")
    @app_commands.describe(
        game="game id (implied in its thread)",
        at="show the board after this move number",
        view="top: the board (default); 3d: the 3D view of Druid and Drogo",
    )
    @app_commands.choices(view=VIEW_CHOICES)
    async def board(
        self, interaction: discord.Interaction, game: int | None = None, at: int | None = None, view: str = "top"
    ) -> None:
        await defer_publicly(interaction)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await refuse_publicly_deferred(interaction, "which game? Give `game`, or use /board in the game's thread")
            return
        result = await self.actions.show(game_id, at)
        if not result.ok:
            await refuse_publicly_deferred(interaction, result.message)
            return
        if view == "3d":
            await self._board_3d(interaction, result)
            return
        upload, text_board = await self.front.board_upload(result)
        await answer(
            interaction, board_message(result, text_board), ephemeral=False, uploads=(upload,) if upload else ()
        )

    async def _board_3d(self, interaction: discord.Interaction, result: Result) -> None:
        """``/board view:3d``: the 3D picture with its one line; a game without a 3D view, or a picture that
        could not be drawn, is answered privately in one line."""
        assert result.state is not None
        if not has_3d_view(result):
            title = result.state.game.title
            await refuse_publicly_deferred(
                interaction, f"{title} has no 3D view; /board without `view` shows its board"
            )
            return
        upload, _text = await self.front.board_upload(result, "3d")
        if upload is None:
            await refuse_publicly_deferred(interaction, f"the 3D view of game {result.game_id} could not be drawn")
            return
        await answer(interaction, caption_3d(result), ephemeral=False, uploads=(upload,))

    @app_commands.command(description="An animated replay of a game, one frame a move")
    @app_commands.describe(
        game="game id (implied in its thread)", start="from this move (default: the start)", end="to this move"
    )
    async def replay(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        start: app_commands.Range[int, 0, 1_000_000] | None = None,
        end: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        await defer_publicly(interaction)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await refuse_publicly_deferred(interaction, "which game? Give `game`, or use /replay in the game's thread")
            return
        await self.post_replay(interaction, game_id, start, end)

    async def post_replay(
        self, interaction: discord.Interaction, game_id: int, start: int | None = None, end: int | None = None
    ) -> None:
        """Answer a deferred interaction with the game's replay GIF, drawn in a worker thread."""
        result = await self.actions.replay_frames(game_id, start, end)
        if not result.ok:
            await refuse_publicly_deferred(interaction, result.message)
            return
        limit = min(REPLAY_LIMIT, getattr(interaction, "attachment_size_limit", REPLAY_LIMIT) or REPLAY_LIMIT)
        made = await asyncio.to_thread(_replay_gif, result.frames, limit)
        picture = Upload(f"{result.game_type}-{game_id}-replay.gif", made.data)
        text = result.message + (f"\n{made.note}" if made.note else "")
        await answer(interaction, text, ephemeral=False, uploads=(picture,))

    @app_commands.command(description="The moves of a game so far")
    async def history(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await reply(interaction, "which game? Give `game`, or use /history in the game's thread")
            return
        await reply(interaction, listing(await self.actions.history(game_id)), file_name=f"game-{game_id}.txt")

    @app_commands.command(description="A finished Backgammon game's plays and cube actions rated by GNU Backgammon")
    @app_commands.describe(game="game id (implied in its thread)")
    async def analyze(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await reply(interaction, "which game? Give `game`, or use /analyze in the game's thread")
            return
        result = await self.actions.analyze(game_id)
        await reply(interaction, listing(result), file_name=f"analysis-{game_id}.txt")

    @app_commands.command(description="List games: yours, a member's, or those waiting for a move")
    @app_commands.describe(
        player="whose games (default: yours)",
        waiting="only games waiting for their move",
        finished="finished and cancelled games instead of running ones",
        page="which page of a long list (50 games a page)",
    )
    async def games(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        waiting: bool = False,
        finished: bool = False,
        page: app_commands.Range[int, 1, 100000] = 1,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if waiting and finished:
            await reply(interaction, "choose `waiting` or `finished`, not both: finished games wait for nobody")
            return
        who = await self.front.player_id(player or interaction.user)
        which = "inactive" if finished else "next" if waiting else "active"
        await reply(interaction, listing(await self.actions.games(who, which, page=page)))

    @app_commands.command(description="The legal moves of a game's current position")
    @app_commands.describe(game="game id (implied in its thread)", prefix="only moves starting with this")
    async def moves(self, interaction: discord.Interaction, game: int | None = None, prefix: str = "") -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await reply(interaction, "which game? Give `game`, or use /moves in the game's thread")
            return
        # every move, as in the console; a list too long for one message goes as a file
        moves = await self.actions.moves(game_id, prefix, limit=None)
        await reply(interaction, listing(moves), file_name=f"moves-{game_id}.txt")

    @app_commands.command(name="help", description="Rules and move notation of a game")
    @app_commands.choices(game=GAME_CHOICES)
    async def help_(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = self.actions.help(game.value if game else None)
        if game is None:
            await reply(interaction, listing(result))
            return
        embed = discord.Embed(title=f"{game.name.capitalize()}", description=result.message[:4096])
        own = [item for item in result.items if not item.endswith(" (every game)")]
        every = [item.removesuffix(" (every game)") for item in result.items if item.endswith(" (every game)")]
        if own:
            embed.add_field(name="Options", value="\n".join(own)[:1024], inline=False)
        if every:
            embed.add_field(
                name="Options of every game (clock, takebacks, open seats)", value="\n".join(every)[:1024], inline=False
            )
        await answer(interaction, ephemeral=True, embed=embed)

    # ---- notifications -------------------------------------------------------------------------------------

    @app_commands.command(description="Your notification settings: DMs, quiet hours, time zone, move previews")
    @app_commands.describe(
        dm="also get a DM when it is your turn",
        quiet="hours without pings, in your time zone, e.g. 22-08; off for none",
        tz="your time zone, an IANA name such as Europe/Paris (quiet hours and weekends count in it)",
        confirm="preview every move privately and confirm it before it is played",
    )
    @app_commands.choices(dm=ON_OFF, confirm=ON_OFF)
    async def notify(
        self,
        interaction: discord.Interaction,
        dm: app_commands.Choice[str] | None = None,
        quiet: str | None = None,
        tz: str | None = None,
        confirm: app_commands.Choice[str] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        player = await self.front.player_id(interaction.user)
        result = await self.actions.notify_settings(
            player, quiet=quiet, tz=tz, confirm=confirm.value if confirm else None
        )
        if not result.ok:
            await reply(interaction, result.message)
            return
        if dm is None:
            await reply(interaction, result.message)
            return
        await self.actions.set_dm_setting(player, dm.value)
        line = f"DMs about your turns are {dm.value}."
        if quiet is None and tz is None and confirm is None:
            await reply(interaction, line)
            return
        await reply(interaction, f"{line}\n{(await self.actions.notify_settings(player)).message}")

    @notify.autocomplete("tz")
    async def _tz_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in time_zones(current)]

    # ---- correspondence ------------------------------------------------------------------------------------

    @app_commands.command(description="Propose to take back the last move or to draw; the others accept or reject")
    @app_commands.describe(
        what="undo: take back the last move; draw: agree to a draw", game="game id (implied in its thread)"
    )
    @app_commands.choices(
        what=[app_commands.Choice(name="undo", value="undo"), app_commands.Choice(name="draw", value="draw")]
    )
    async def propose(
        self, interaction: discord.Interaction, what: app_commands.Choice[str], game: int | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await reply(interaction, "which game? Give `game`, or use /propose in the game's thread")
            return
        result = await self.actions.propose(game_id, await self.front.player_id(interaction.user), what.value)
        if not result.ok or result.challenge_id is None:
            await reply(interaction, result.message)
            return
        thread = await self.front.game_thread(game_id)
        if thread is None:
            await reply(interaction, result.message)
            return
        users = await self.front.mentions(result.notify)
        content = result.message
        is_open = result.status == "open"
        if users and is_open:
            content += "\n" + " ".join(f"<@{u.id}>" for u in users) + ": accept or reject below."
        try:
            message = await thread.send(
                content[:2000],
                view=proposal_view(game_id, result.challenge_id) if is_open else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions(users=users if is_open else [], everyone=False, roles=False),
            )
        except discord.HTTPException as exc:
            log.warning("game %s: could not post proposal %s: %s", game_id, result.challenge_id, exc)
            await reply(interaction, f"{result.message}\n(the proposal could not be posted in the game's thread)")
            return
        await self.front.remember_proposal(result.challenge_id, message)
        if result.state is not None:  # computer players accepted it at once
            await self.after_action(interaction, result)
            return
        await reply(interaction, f"Proposal {result.challenge_id} posted in {thread.mention}.")

    @app_commands.command(description="Go on vacation (your timed games' clocks stand still) or come back")
    @app_commands.describe(switch="on: clocks stand still while your vacation bank lasts; off: back; none: your bank")
    @app_commands.choices(switch=ON_OFF)
    async def vacation(self, interaction: discord.Interaction, switch: app_commands.Choice[str] | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        player = await self.front.player_id(interaction.user)
        result = await self.actions.vacation(player, switch.value if switch else None)
        if result.ok:
            for notice in result.notices:
                await self.front.present_notice(notice)
        await reply(interaction, result.message)

    @app_commands.command(description="Conditional moves: replies played for you when the opponent moves")
    @app_commands.describe(
        game="game id (implied in its thread)",
        line="the opponent's move then your reply, and so on, e.g. 'd4 e5 d6 e7' (3-4 players: your next move)",
        clear="remove all your queued lines in this game",
    )
    async def queue(
        self, interaction: discord.Interaction, game: int | None = None, line: str | None = None, clear: bool = False
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self.game_for(interaction, game)
        if game_id is None:
            await reply(interaction, "which game? Give `game`, or use /queue in the game's thread")
            return
        if clear and line:
            await reply(interaction, "give `line` or `clear`, not both")
            return
        player = await self.front.player_id(interaction.user)
        result = await self.actions.queue(game_id, player, "clear" if clear else line)
        await reply(interaction, listing(result) if result.ok and line is None else result.message)

    @app_commands.command(description="Follow a game: a mention in its thread or a DM after every move")
    @app_commands.choices(
        by=[app_commands.Choice(name="mention", value="mention"), app_commands.Choice(name="dm", value="dm")]
    )
    async def watch(
        self, interaction: discord.Interaction, game: int, by: app_commands.Choice[str] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        shown = await self.actions.show(game)
        if not shown.ok:
            await reply(interaction, shown.message)
            return
        mode = by.value if by else "mention"
        await self.front.set_watch(game, interaction.user.id, mode)
        await reply(interaction, f"You are watching game {game} ({mode}).")

    @app_commands.command(description="Stop following a game")
    async def unwatch(self, interaction: discord.Interaction, game: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if not await self.front.set_watch(game, interaction.user.id, None):
            await reply(interaction, f"you are not watching game {game}; nothing to stop")
            return
        await reply(interaction, f"You no longer watch game {game}.")

    # ---- game suggestions ----------------------------------------------------------------------------------

    @move.autocomplete("game")
    @resign.autocomplete("game")
    @moves.autocomplete("game")
    @propose.autocomplete("game")
    @queue.autocomplete("game")
    @watch.autocomplete("game")
    async def game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The ``game`` of commands about a running game (the one-word commands too): the member's running
        games."""
        return await self._choices(interaction, current, status="active")

    @board.autocomplete("game")
    @history.autocomplete("game")
    @replay.autocomplete("game")
    @unwatch.autocomplete("game")
    async def _any_game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The ``game`` of commands that look at any game: the member's games, running or over."""
        return await self._choices(interaction, current, status=None)

    @analyze.autocomplete("game")
    async def _analysis_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """``/analyze``'s ``game``: the member's finished Backgammon games, the only ones it analyses."""
        return await self._choices(interaction, current, status="finished", game_type="backgammon")

    async def _choices(
        self, interaction: discord.Interaction, current: str, *, status: str | None, game_type: str | None = None
    ) -> list[app_commands.Choice[int]]:
        """The member's newest games of ``status`` (``None``: any) whose number starts with what they typed, one
        indexed query per keystroke however many games there are; typed in a game's thread, that game first
        (the way to name someone else's game to /watch)."""
        player = await self.front.player_id(interaction.user)
        rows: list[GameRow | GameSummary] = list(
            await self.actions.store.game_choices(player, current, status=status, game_type=game_type)
        )
        here = await self.game_for(interaction, None)
        digits = "".join(ch for ch in current if ch in "0123456789").lstrip("0")
        if here is not None and str(here).startswith(digits):
            rows = [row for row in rows if row.id != here]
            try:
                row = await self.actions.store.load_game(here)
            except StoreError:
                row = None  # a game that cannot be read is refused when it is used; it is not suggested
            if row is not None and status in (None, row.status) and game_type in (None, row.type):
                rows.insert(0, row)
        return [game_choice(row) for row in rows[:MAX_CHOICES]]

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_failure(interaction, error)


async def report_failure(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """A command's unexpected failure: logged for the admin, answered in one line (an unavailable database as
    such, see :mod:`bot.discord.failures`)."""
    cause: Any = error.__cause__ or error
    log_failure(f"command {interaction.command and interaction.command.qualified_name}", cause)
    note_outcome(interaction, "unavailable" if unavailable(cause) else "failed")
    await tell_failure(interaction, str(cause) if isinstance(cause, PostError) else failure_text(cause))


def show_board_menu(cog: GameCommands) -> app_commands.ContextMenu:
    """The message menu "Show board": on any message of a game's thread, the game's current board, privately."""

    async def callback(interaction: discord.Interaction, message: discord.Message) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await cog.actions.store.game_by_thread(message.channel.id)
        if game_id is None:
            await answer(interaction, "this message is not in a game's thread", ephemeral=True)
            return
        result = await cog.actions.show(game_id)
        if not result.ok:
            await answer(interaction, result.message, ephemeral=True)
            return
        upload, text_board = await cog.front.board_upload(result)
        await answer(
            interaction, board_message(result, text_board), ephemeral=True, uploads=(upload,) if upload else ()
        )

    return app_commands.ContextMenu(name="Show board", callback=callback)


def word_commands(cog: GameCommands) -> list[app_commands.Command[Any, Any, None]]:
    """A slash command for every one-word game command (``/roll``, ``/double``, ``/take``, ``/drop``, ``/greedy``,
    ``/manual``, ``/pass``, ``/swap``): the same as ``/move move:<word>``."""
    games: dict[str, list[str]] = {}
    for name in registry.names():
        for word in registry.get(name).extra_commands:
            games.setdefault(word, []).append(name.capitalize())
    return [_word_command(cog, word, games[word]) for word in sorted(games)]


def _word_command(cog: GameCommands, word: str, titles: list[str]) -> app_commands.Command[Any, Any, None]:
    async def callback(interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await cog.game_for(interaction, game)
        if game_id is None:
            await reply(interaction, f"which game? Give `game`, or use /{word} in the game's thread")
            return
        await cog.play(interaction, game_id, await cog.front.player_id(interaction.user), word)

    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name=word, description=f"{word.capitalize()} ({', '.join(titles)})", callback=callback
    )

    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        # a function of its own: the cog's method is registered as its commands' (bound to the cog by them)
        return await cog.game_choices(interaction, current)

    command.autocomplete("game")(suggest)
    return command
