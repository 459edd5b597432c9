"""/leaderboard and /profile: the ratings where players look.

**A server's leaderboard.** ``/leaderboard`` in a server shows the players pbm has seen in it: those who used a
command there or were named in one (:meth:`bot.discord.front.Front.player_id`), and everyone who played a game in
one of its channels. Discord lists a server's members only to bots granted the privileged members intent, and a
list of a large server's members takes many requests; the players seen are one range of one table's key, and a
page costs what the rated players among them cost, not the server's size. ``everyone`` shows every player's
board (in DMs it is the only one).

**Paging.** Previous / Next are persistent buttons: the custom id holds the game, whose board (this server's or
everyone's), the page it leads to and the variant (each option by its number among the game's options, so the
longest variant fits in Discord's 100 characters), and a click after a restart works as before. The member who
asked turns the pages of the message itself; anyone else who clicks gets that page to themselves, privately, with
buttons of their own, so a board shown in a channel never moves under the reader who posted it.

**The profile** is an embed for the player with their rating chart (drawn on a worker thread) and one per game;
with ``other`` it is the two players' head-to-head record instead.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import Actions, Result
from bot.discord.cog import GAME_CHOICES, report_failure
from bot.discord.failures import answers_failures
from bot.discord.followups import Upload, answer, defer_publicly, remove_placeholder
from bot.discord.front import Front
from bot.discord.rating_embeds import (
    CHART_FILE,
    head_to_head_embed,
    leaderboard_embed,
    profile_embeds,
)
from bot.ratings import STANDARD
from render.chart import rating_chart
from rules import registry
from rules.base import GameError

log = logging.getLogger("pbm.discord")

#: the scope letters of a leaderboard's custom id: this server's players, or everyone's
SERVER, EVERYONE = "s", "a"
#: variants offered as ``variant`` is typed (Discord shows 25 at most)
VARIANT_CHOICES = 25


@dataclass(frozen=True)
class Board:
    """Which leaderboard a message shows: the game (its registry name), this server's players or everyone's,
    and the variant (as stored: ``-size=8 -hex``, ``standard``; ``None``: the whole game)."""

    game: str
    scope: str
    variant: str | None = None

    def code(self) -> str:
        """The variant for a custom id: ``s`` for standard, else each option by its index among the game's
        options, ``=value`` after it when it has one, joined by dots (``0=8.1``); empty for the whole game."""
        if self.variant is None:
            return ""
        if self.variant == STANDARD:
            return "s"
        names = [option.name for option in registry.get(self.game).options]
        parts = []
        for word in self.variant.split():
            name, equals, value = word.lstrip("-").partition("=")
            parts.append(f"{names.index(name)}{equals}{value}")
        return ".".join(parts)

    @classmethod
    def decode(cls, game: str, scope: str, code: str) -> Board:
        """The board a custom id names (see :meth:`code`)."""
        if not code:
            return cls(game, scope)
        if code == "s":
            return cls(game, scope, STANDARD)
        names = [option.name for option in registry.get(game).options]
        words = []
        for part in code.split("."):
            index, equals, value = part.partition("=")
            words.append(f"-{names[int(index)]}{equals}{value}")
        return cls(game, scope, " ".join(words))

    def custom_id(self, page: int) -> str:
        return f"pbm:lb:{self.game}:{self.scope}:{page}:{self.code()}"


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pbm:lb:(?P<game>[a-z]+):(?P<scope>[sa]):(?P<page>\d+):(?P<variant>s|[0-9=.]*)",
):
    """Previous or Next under a leaderboard: shows page ``page`` of ``board`` (see the module docstring for who
    turns which message)."""

    def __init__(self, board: Board, page: int, *, label: str = "Next", disabled: bool = False) -> None:
        self.board, self.page = board, page
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=board.custom_id(page), disabled=disabled
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(Board.decode(match["game"], match["scope"], match["variant"]), int(match["page"]))

    @answers_failures("button page")
    async def callback(self, interaction: discord.Interaction) -> None:
        asker = _asker(interaction.message)
        mine = asker is None or asker == interaction.user.id
        if mine:
            await interaction.response.defer()  # the message itself changes below
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        ratings = _ratings_of(interaction)
        shown = await ratings.board_page(interaction, self.board, [], self.page)
        if isinstance(shown, str):
            await answer(interaction, shown, ephemeral=True)
        elif mine:
            await interaction.edit_original_response(embed=shown[0], view=shown[1])
        else:
            await answer(interaction, ephemeral=True, embed=shown[0], view=shown[1])


def _asker(message: discord.Message | None) -> int | None:
    """Who asked for the message a button is on (``None`` when Discord does not say)."""
    metadata = message.interaction_metadata if message is not None else None
    return metadata.user.id if metadata is not None else None


def _ratings_of(interaction: discord.Interaction) -> RatingCommands:
    """The running bot's rating commands (it holds them as ``ratings``; naming the bot's class would import the
    module that imports this one)."""
    return interaction.client.ratings  # type: ignore[attr-defined]


def page_view(board: Board, page: int, pages: int) -> discord.ui.View | None:
    """Previous and Next, each disabled at its end; none for a board of one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(board, page - 1, label="Previous", disabled=page <= 1))
    view.add_item(PageButton(board, page + 1, label="Next", disabled=page >= pages))
    return view


class RatingCommands(commands.Cog):
    """/leaderboard and /profile."""

    def __init__(self, actions: Actions, front: Front, clock: Callable[[], float]) -> None:
        """``clock`` is the actions' time source: a chart's time axis ends now."""
        self.actions = actions
        self.front = front
        self.clock = clock

    # ---- leaderboards --------------------------------------------------------------------------------------

    @app_commands.command(description="The best players of a game, ten a page: this server's, or everyone's")
    @app_commands.describe(
        game="which game",
        variant="only those who played this variant: its options (-size=8 -hex), or standard",
        page="which page (ten players a page)",
        everyone="every player's board, not only this server's",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        variant: str | None = None,
        page: app_commands.Range[int, 1, 100000] = 1,
        everyone: bool = False,
    ) -> None:
        await defer_publicly(interaction)
        if interaction.guild_id is not None:
            await self.front.player_id(interaction.user)  # seen here: on this server's board once rated
        scope = EVERYONE if everyone or interaction.guild_id is None else SERVER
        shown = await self.board_page(interaction, Board(game.value, scope), (variant or "").split(), page)
        if isinstance(shown, str):
            await self._refuse(interaction, shown)
            return
        embed, view = shown
        await answer(interaction, ephemeral=False, embed=embed, view=view)

    @leaderboard.autocomplete("variant")
    async def _variant_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The variants rated games of the chosen game were played in, those containing what was typed."""
        try:
            game = registry.get(str(getattr(interaction.namespace, "game", "") or ""))
        except GameError:
            return []
        typed = current.strip().lower()
        played = await self.actions.store.variants_played(game.name)
        names = [name for name in dict.fromkeys([STANDARD, *played]) if typed in name.lower() and len(name) <= 100]
        return [app_commands.Choice(name=name, value=name) for name in names[:VARIANT_CHOICES]]

    async def board_page(
        self, interaction: discord.Interaction, board: Board, typed: list[str], page: int
    ) -> tuple[discord.Embed, discord.ui.View | None] | str:
        """A page of ``board`` as an embed and its buttons, or the one line that says why there is none.
        ``typed`` is the variant as typed (a button's board carries it already read)."""
        guild_id = interaction.guild_id if board.scope == SERVER else None
        members = await self.actions.store.guild_players(guild_id) if guild_id is not None else None
        variant = typed or (board.variant.split() if board.variant else [])
        result = await self.actions.leaderboard(board.game, variant, page, members)
        if not result.ok:
            return result.message
        data = result.data
        where = "all players" if guild_id is None else _server_name(interaction)
        if not data["total"]:
            what = board_what(data)
            if guild_id is None:
                return f"nobody has played a rated {what} game yet"
            return f"nobody in this server has played a rated {what} game yet; `everyone:True` shows every player's"
        shown = Board(board.game, board.scope, data["variant"])
        return leaderboard_embed(data, where), page_view(shown, data["page"], data["pages"])

    # ---- profiles ------------------------------------------------------------------------------------------

    @app_commands.command(description="A member's ratings in every game with their chart, or two members' record")
    @app_commands.describe(
        member="whose profile (default: yours)",
        other="a second member: the two players' head-to-head record instead",
    )
    async def profile(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        other: discord.User | None = None,
    ) -> None:
        await defer_publicly(interaction)
        who = member or interaction.user
        refusal = _not_a_player(interaction, who) or (_not_a_player(interaction, other) if other else None)
        if refusal is not None:
            await self._refuse(interaction, refusal)
            return
        player = await self.front.player_id(who)
        if other is not None:
            await self._head_to_head(interaction, player, await self.front.player_id(other))
            return
        result, png = await profile_with_chart(self.actions, player, self.clock())
        if not result.ok or not result.data["games"]:
            await self._refuse(interaction, result.message)
            return
        uploads = (Upload(CHART_FILE, png),) if png is not None else ()
        embeds = profile_embeds(result.data, chart=png is not None)
        await answer(interaction, ephemeral=False, embeds=embeds, uploads=uploads)

    async def _head_to_head(self, interaction: discord.Interaction, player: str, other: str) -> None:
        result: Result = await self.actions.head_to_head(player, other)
        if not result.ok or not result.data["games"]:
            await self._refuse(interaction, result.message)
            return
        await answer(interaction, ephemeral=False, embed=head_to_head_embed(result.data))

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_failure(interaction, error)

    @staticmethod
    async def _refuse(interaction: discord.Interaction, text: str) -> None:
        """One private line after a public defer (the public placeholder removed)."""
        await remove_placeholder(interaction)
        await answer(interaction, text, ephemeral=True)


async def profile_with_chart(actions: Actions, player: str, now: float) -> tuple[Result, bytes | None]:
    """A player's profile and their rating chart (``None`` when they have no rated game, or drawing failed,
    which is logged: the profile goes without it). The chart is drawn on a worker thread while the profile is
    read: the database does its work outside the interpreter's lock, so on two cores the two overlap."""
    series = await actions.rating_series(player)
    drawing = asyncio.ensure_future(asyncio.to_thread(rating_chart, series, player=player, now=now)) if series else None
    result = await actions.profile(player)
    if drawing is None:
        return result, None
    try:
        return result, await drawing
    except Exception:
        log.exception("drawing the rating chart of %s failed; the profile goes without it", player)
        return result, None


def board_what(data: dict[str, Any]) -> str:
    """``Druid`` or ``Druid (-size=8)``: what a leaderboard ranks."""
    title = registry.get(data["game"]).title
    return title + (f" ({data['variant']})" if data["variant"] else "")


def _server_name(interaction: discord.Interaction) -> str:
    guild = interaction.guild
    return guild.name if guild is not None and guild.name else "this server"


def _not_a_player(interaction: discord.Interaction, user: discord.abc.User) -> str | None:
    """Why a Discord user has no profile (they are a bot), or ``None``."""
    if not user.bot:
        return None
    me = interaction.client.user
    if me is not None and user.id == me.id:
        return "as a computer opponent I play as ai:1, ai:2 and ai:3; /leaderboard shows their ratings"
    return "other bots do not play, so they have no profile"
