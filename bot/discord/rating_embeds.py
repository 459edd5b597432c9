"""Ratings laid out as Discord embeds: a leaderboard page, a profile (one embed for the player with their rating
chart, one per game they played rated games of) and a head-to-head record. Everything shown comes from the
``data`` of the rating actions' results (:mod:`bot.actions.ratings`); nothing here reads the database.

Made for a phone: short lines, the rating in bold, a game's embed edged in the colour of its line on the chart.
Discord's limits hold by construction: ten rows a page, at most four game embeds, and a variants list cut to
:data:`VARIANTS_ROOM` characters (with how many more there are), so a profile stays far under the 6,000
characters all the embeds of one message may hold.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.correspondence.periods import format_left
from render.chart import STYLES
from render.common import MUTED
from rules import registry

#: the chart's picture as attached to a profile (embeds show it by this name)
CHART_FILE = "rating-chart.png"
#: characters of a game's variants list (a field holds 1,024)
VARIANTS_ROOM = 700
#: an embed title's limit
TITLE_LIMIT = 256


def _escape(name: str) -> str:
    """A player's name as plain text in Markdown (underscores in usernames would otherwise turn italic)."""
    return discord.utils.escape_markdown(name)


def _count(n: int, one: str, many: str | None = None) -> str:
    """``1 game``, ``9,649 players``."""
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def _colour(title: str) -> discord.Colour:
    """A game's colour on the chart, or the muted grey of the boards' text for anything else."""
    style = STYLES.get(title)
    return discord.Colour.from_rgb(*(style.colour if style else MUTED))


def _rating(entry: dict[str, Any]) -> str:
    return f"{entry['rating']}{'?' if entry['provisional'] else ''}"


def _record(entry: dict[str, Any]) -> str:
    return f"{entry['wins']:,} W · {entry['losses']:,} L · {entry['draws']:,} D"


def board_title(data: dict[str, Any], where: str) -> str:
    """``Druid (-size=8) · Test Guild``: the game, the variant when there is one, and whose board it is."""
    title = registry.get(data["game"]).title
    variant = f" ({data['variant']})" if data["variant"] else ""
    return f"{title}{variant} · {where}"[:TITLE_LIMIT]


def leaderboard_embed(data: dict[str, Any], where: str) -> discord.Embed:
    """A page of a leaderboard: one line per player (rank, name, rating, games and results), the page and the
    number of players under it."""
    lines = [
        f"**{row['rank']:,}.** {_escape(row['player'])} · **{_rating(row)}** · "
        f"{_count(row['games'], 'game')}: {_record(row)}"
        for row in data["rows"]
    ]
    embed = discord.Embed(
        title=board_title(data, where),
        description="\n".join(lines),
        colour=_colour(registry.get(data["game"]).title),
    )
    footer = f"Page {data['page']:,} of {data['pages']:,} · {_count(data['total'], 'player')}"
    if any(row["provisional"] for row in data["rows"]):
        footer += " · ? provisional: the first games"
    return embed.set_footer(text=footer)


def streak_text(streak: int) -> str:
    """``3 wins``, ``2 losses``, or ``none`` (the last game was a draw)."""
    if streak > 0:
        return _count(streak, "win")
    if streak < 0:
        return _count(-streak, "loss", "losses")
    return "none"


def per_move_text(seconds: float | None) -> str:
    """The average time a player takes per move, or a dash when no move of theirs was timed."""
    if seconds is None:
        return "—"
    return "under a minute" if seconds < 60 else format_left(seconds)


def variants_text(variants: list[dict[str, Any]], room: int = VARIANTS_ROOM) -> str:
    """One line per variant played, most played first, within ``room`` characters; the rest counted."""
    lines: list[str] = []
    for index, v in enumerate(variants):
        line = f"`{v['variant']}` {_count(v['games'], 'game')}: {_record(v)}"
        rest = len(variants) - index
        tail = f"… and {_count(rest - 1, 'more variant')}" if rest > 1 else ""
        if len("\n".join([*lines, line, tail])) > room:
            lines.append(f"… and {_count(rest, 'more variant')}")
            break
        lines.append(line)
    return "\n".join(lines)


def game_embed(section: dict[str, Any]) -> discord.Embed:
    """A player's results in one game: rating and rank, games and results, streak, time per move, Backgammon's
    points, and the variants played."""
    title = registry.get(section["game"]).title
    embed = discord.Embed(title=title, colour=_colour(title))
    rank = "" if section["rank"] is None else f"\nrank {section['rank']:,} of {section['players']:,}"
    embed.add_field(name="Rating", value=f"**{_rating(section)}**{rank}")
    embed.add_field(name="Games", value=f"{section['games']:,}\n{_record(section)}")
    embed.add_field(name="Streak", value=streak_text(section["streak"]))
    embed.add_field(name="Time per move", value=per_move_text(section["seconds_per_move"]))
    if "points_won" in section:
        embed.add_field(name="Points", value=f"{section['points_won']:,} won\n{section['points_lost']:,} lost")
    if section["variants"]:
        embed.add_field(name="Variants", value=variants_text(section["variants"]), inline=False)
    return embed


def profile_embeds(data: dict[str, Any], *, chart: bool) -> list[discord.Embed]:
    """The player's embed (with the chart when ``chart``, attached as :data:`CHART_FILE`) and one per game."""
    sections = data["games"]
    titles = [registry.get(s["game"]).title for s in sections]
    head = discord.Embed(
        title=f"{data['player']} · ratings"[:TITLE_LIMIT],
        description=f"Rated in {', '.join(titles)}. A `?` marks a rating still provisional (the first games).",
        colour=_colour(""),
    )
    if chart:
        head.set_image(url=f"attachment://{CHART_FILE}")
    return [head, *(game_embed(section) for section in sections)]


def head_to_head_embed(data: dict[str, Any]) -> discord.Embed:
    """Two players' record against each other: in all, then per game."""
    player, other = data["player"], data["other"]

    def record(games: int, wins: int, losses: int, draws: int) -> str:
        return (
            f"{_escape(player)} **{wins:,}** · {_escape(other)} **{losses:,}** · "
            f"{_count(draws, 'draw')} ({_count(games, 'game')})"
        )

    embed = discord.Embed(
        title=f"{player} vs {other}"[:TITLE_LIMIT],
        description=record(data["games"], data["wins"], data["losses"], data["draws"]),
        colour=_colour(""),
    )
    for game in data["by_game"]:
        embed.add_field(
            name=registry.get(game["game"]).title,
            value=record(game["games"], game["wins"], game["losses"], game["draws"]),
            inline=False,
        )
    return embed.set_footer(text="Wins count who finished ahead; every finished game counts, rated or not.")
