"""Ratings as players look at them: a game's leaderboard (ten a page; a variant's; a server's members'), a player's
rating in one game, their profile over every game, two players' record against each other, the series a rating
chart draws, and the rebuild of every rating from the finished games.

Every result carries its data in ``Result.data`` (what ``--json`` prints) for fronts that lay it out themselves
(Discord's embeds and page buttons); ``message`` and ``items`` are the same for people, as the console prints them.
The formula and the number shown are :mod:`bot.ratings`'.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from bot.actions.base import ActionsBase
from bot.actions.common import Result, _fail, shorten
from bot.correspondence.periods import format_left
from bot.ratings import (
    MU,
    POINTS_GAMES,
    SIGMA,
    collector_paused,
    display,
    finished_to_rated,
    provisional,
    read_variant,
    rebuild,
    row_text,
)
from bot.text import count
from data.store import RatingRow, VariantRow
from rules import registry
from rules.base import GameDef, GameError

#: players on a leaderboard page
BOARD_PAGE = 10


class RatingActions(ActionsBase):
    # ---- leaderboards --------------------------------------------------------------------------------------

    async def leaderboard(
        self,
        game_name: str,
        variant: Sequence[str] = (),
        page: int = 1,
        members: Collection[str] | None = None,
    ) -> Result:
        """A page of :data:`BOARD_PAGE` players of a game, best rating first, with their games and wins,
        losses and draws. ``variant``: its options as typed (``-size=5 -hex``, ``standard``): only players who
        played it, with their results in it (the rating is the game's, which its variants share). ``members``:
        only those players (a server's leaderboard). ``data`` holds the page, the number of pages and the rows."""
        try:
            game = registry.get(game_name)
            chosen = read_variant(game, variant) if variant else None
        except GameError as exc:
            return _fail(str(exc))
        if page < 1:
            return _fail("pages are numbered from 1")
        rows, total = await self.store.leaderboard(
            game.name, variant=chosen, limit=BOARD_PAGE, offset=(page - 1) * BOARD_PAGE, members=members
        )
        pages = max(1, -(-total // BOARD_PAGE))
        what = game.title + ("" if chosen is None else f" ({chosen})")
        if total and not rows:
            return _fail(
                f"the {what} leaderboard has {count(pages, 'page')}: there is no page {page}", game_type=game.name
            )
        first = (page - 1) * BOARD_PAGE + 1
        entries = [_board_entry(first + k, row) for k, row in enumerate(rows)]
        width = max((len(e["player"]) for e in entries), default=0)
        if total == 0:
            message = f"nobody has played a rated {what} game yet"
        else:
            message = f"{what} ratings: {count(total, 'player')}, page {page} of {pages}"
        return Result(
            ok=True,
            message=message,
            items=[_board_line(e, width, len(str(first + len(entries) - 1))) for e in entries],
            game_type=game.name,
            data={
                "game": game.name,
                "variant": chosen,
                "page": page,
                "pages": pages,
                "per_page": BOARD_PAGE,
                "total": total,
                "rows": entries,
            },
        )

    # ---- players -------------------------------------------------------------------------------------------

    async def player_rating(self, game_name: str, player: str) -> Result:
        """One player's rating in one game: the rating and rank, games, wins, losses and draws, the current
        streak, points (Backgammon), time per move, and the variants played."""
        try:
            game = registry.get(game_name)
        except GameError as exc:
            return _fail(str(exc))
        if not await self.store.player_exists(player):
            return _fail(f"there is no player {shorten(player)}")
        rows = await self.store.ratings_of(game.name, [player])
        if player not in rows:
            return Result(
                ok=True,
                message=f"{player} has played no rated {game.title} game yet: rating {row_text(None)}",
                game_type=game.name,
                data={"player": player, "games": []},
            )
        section = await self._section(game, rows[player], await self.store.variant_results(player), None)
        return Result(
            ok=True,
            message=f"{player}: {_section_line(section)}",
            items=_variant_lines(section),
            game_type=game.name,
            data={"player": player, "games": [section]},
        )

    async def profile(self, player: str) -> Result:
        """A player's profile: per game they played rated games of, the rating and rank, games, wins, losses and
        draws, current streak, points (Backgammon), average time per move and the variants played."""
        if not await self.store.player_exists(player):
            return _fail(f"there is no player {shorten(player)}")
        ratings = await self.store.player_ratings(player)
        variants = await self.store.variant_results(player)
        times = await self.store.move_times(player)
        sections, items = [], []
        for row in ratings:
            try:
                game = registry.get(row.game_type)
            except GameError:
                continue  # a game this pbm no longer knows
            section = await self._section(game, row, variants, times.get(row.game_type))
            sections.append(section)
            items += [f"{game.title}: {_section_line(section)}", *_variant_lines(section)]
        message = f"{player}'s profile" if sections else f"{player} has played no rated game yet"
        return Result(ok=True, message=message, items=items, data={"player": player, "games": sections})

    async def head_to_head(self, player: str, other: str) -> Result:
        """Two players' record against each other over every finished game both played (rated or not), in all
        and per game: who finished ahead of whom (in two-player games, who won) and how many were level."""
        if player == other:
            return _fail("a head-to-head needs two different players")
        for who in (player, other):
            if not await self.store.player_exists(who):
                return _fail(f"there is no player {shorten(who)}")
        per_game: dict[str, list[int]] = {}
        for finished in await self.store.shared_games(player, other):
            counted = finished_to_rated(finished._replace(unrated=False))  # unrated games count here too
            if counted is None:
                continue
            mine = counted.places[counted.players.index(player)]
            theirs = counted.places[counted.players.index(other)]
            tally = per_game.setdefault(finished.type, [0, 0, 0])
            tally[0 if mine < theirs else 1 if theirs < mine else 2] += 1
        total = [sum(t[k] for t in per_game.values()) for k in range(3)]
        games = [
            {"game": name, "games": sum(t), "wins": t[0], "losses": t[1], "draws": t[2]}
            for name, t in sorted(per_game.items())
        ]
        played = sum(total)
        if not played:
            message = f"{player} and {other} have not finished a game together yet"
        else:
            message = f"{player} against {other}: {count(played, 'game')}, " + _record(player, other, *total)
        return Result(
            ok=True,
            message=message,
            items=[
                f"{registry.get(g['game']).title}: {count(g['games'], 'game')}, "
                + _record(player, other, g["wins"], g["losses"], g["draws"])
                for g in games
            ],
            data={
                "player": player,
                "other": other,
                "games": played,
                "wins": total[0],
                "losses": total[1],
                "draws": total[2],
                "by_game": games,
            },
        )

    # ---- for fronts ----------------------------------------------------------------------------------------

    async def rating_series(self, player: str) -> dict[str, list[tuple[float, int]]]:
        """Per game type a player played rated games of, by its title (``Druid``), their shown rating after each
        game, oldest first: ``(POSIX time the game ended, rating)``; what :func:`render.chart.rating_chart` draws,
        one line per game type."""
        series: dict[str, list[tuple[float, int]]] = {}
        for change in await self.store.rating_changes(player):
            try:
                title = registry.get(change.game_type).title
            except GameError:
                continue  # a game this pbm no longer knows
            series.setdefault(title, []).append((change.created_at, display(change.mu_after, change.sigma_after)))
        return series

    async def display_rating(self, player: str, game_name: str) -> int:
        """A player's shown rating in a game type, as a number (a player without rated games of it: the rating
        everyone starts with); an open challenge's rating range is checked against it."""
        game_type = registry.get(game_name).name
        row = (await self.store.ratings_of(game_type, [player])).get(player)
        return display(MU, SIGMA) if row is None else display(row.mu, row.sigma)

    # ---- the rebuild ---------------------------------------------------------------------------------------

    async def rebuild_ratings(self) -> Result:
        """Recompute every rating from the finished games, in the order they were rated (games that ended before
        ratings existed first, in the order they ended), and replace all the ratings with the result in one
        transaction: the same numbers the live updates gave, for every game they rated."""
        with collector_paused():
            finished = await self.store.finished_games()
            rebuilt = rebuild(finished)
            written = await self.store.replace_ratings(rebuilt.ratings, rebuilt.variants, rebuilt.changes)
        players = len({row.player_id for row in rebuilt.ratings})
        verdict = "the stored ratings were already exact" if not written else f"{count(written, 'row')} written"
        return Result(
            ok=True,
            message=f"rebuilt the ratings from {count(rebuilt.games, 'rated game')} ({len(finished)} finished):"
            f" {count(players, 'player')} rated; {verdict}",
            data={"finished": len(finished), "rated": rebuilt.games, "players": players, "written": written},
        )

    async def _section(
        self, game: GameDef, row: RatingRow, variants: list[VariantRow], time: tuple[float, int] | None
    ) -> dict[str, Any]:
        """A player's part of a profile for one game (``--json``'s and the fronts' data)."""
        place = await self.store.rank_of(row.player_id, game.name)
        if time is None:
            time = (await self.store.move_times(row.player_id)).get(game.name)
        section: dict[str, Any] = {
            "game": game.name,
            "rating": display(row.mu, row.sigma),
            "provisional": provisional(row.sigma),
            "rank": None if place is None else place[0],
            "players": None if place is None else place[1],
            "games": row.games,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "streak": row.streak,
            "seconds_per_move": None if not time or not time[1] else time[0] / time[1],
            "variants": [
                {"variant": v.variant, "games": v.games, "wins": v.wins, "losses": v.losses, "draws": v.draws}
                for v in variants
                if v.game_type == game.name
            ],
        }
        if game.name in POINTS_GAMES:
            section["points_won"], section["points_lost"] = row.points_won, row.points_lost
        return section


def _board_entry(rank: int, row: RatingRow) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": row.player_id,
        "rating": display(row.mu, row.sigma),
        "provisional": provisional(row.sigma),
        "games": row.games,
        "wins": row.wins,
        "losses": row.losses,
        "draws": row.draws,
    }


def _board_line(entry: dict[str, Any], width: int, rank_width: int) -> str:
    """``  3. alice   1532   12 games  8 W  3 L  1 D``."""
    rating = f"{entry['rating']}{'?' if entry['provisional'] else ''}"
    games = count(entry["games"], "game")
    return (
        f"{entry['rank']:>{rank_width}}. {entry['player']:<{width}}  {rating:>5}  {games:>9}"
        f"  {entry['wins']} W  {entry['losses']} L  {entry['draws']} D"
    )


def _section_line(section: dict[str, Any]) -> str:
    """``1532 (rank 3 of 27); 12 games: 8 wins, 3 losses, 1 draw; streak 2 wins; 4h 12m per move``."""
    parts = [f"{section['rating']}{'?' if section['provisional'] else ''}"]
    if section["rank"] is not None:
        parts[0] += f" (rank {section['rank']} of {section['players']})"
    parts.append(
        f"{count(section['games'], 'game')}: {count(section['wins'], 'win')}, "
        f"{count(section['losses'], 'loss', 'losses')}, {count(section['draws'], 'draw')}"
    )
    if "points_won" in section:
        parts.append(f"points {section['points_won']} won, {section['points_lost']} lost")
    streak = section["streak"]
    if streak:
        parts.append("streak " + (count(streak, "win") if streak > 0 else count(-streak, "loss", "losses")))
    seconds = section["seconds_per_move"]
    if seconds is not None:
        parts.append(f"{'under a minute' if seconds < 60 else format_left(seconds)} per move")
    return "; ".join(parts)


def _variant_lines(section: dict[str, Any]) -> list[str]:
    """One line per variant played: ``  -size=5 -hex: 3 games, 2 W 1 L 0 D``."""
    return [
        f"  {v['variant']}: {count(v['games'], 'game')}, {v['wins']} W {v['losses']} L {v['draws']} D"
        for v in section["variants"]
    ]


def _record(player: str, other: str, wins: int, losses: int, draws: int) -> str:
    return f"{player} {count(wins, 'win')}, {other} {count(losses, 'win')}, {count(draws, 'draw')}"
