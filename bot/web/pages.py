"""The pages that only look: the lobby (running games, open challenges, recently finished games, a new challenge),
a game's leaderboard, a player's profile with its rating chart and head-to-head record, and each game's rules."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from bot.actions import BOARD_PAGE, InputError, check_player_name, parse_number
from bot.actions.challenges import seats_open
from bot.correspondence.periods import format_left
from bot.web.app import context, page, refusal, sentence, viewer_of
from bot.web.forms import ChallengeForm, common_fields, every_game, game_fields
from bot.web.helpdocs import rules_html
from data.rows import ChallengeRow, GameSummary
from rules import registry
from rules.base import GameError

#: games listed in each section of the lobby
LOBBY_GAMES = 30


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", lobby)
    app.router.add_get("/ratings/{game}", ratings)
    app.router.add_get("/u/{name}", profile)
    app.router.add_get("/u/{name}/chart.png", chart)
    app.router.add_get("/help", help_index)
    app.router.add_get("/help/{game}", help_page)


def game_row(row: GameSummary, now: float) -> dict[str, Any]:
    """A game as a lobby line: its number, game, players, whose turn or how it ended, time left."""
    if row.status == "active":
        standing = f"{row.to_move} to move" if row.to_move else "in progress"
    elif row.status == "cancelled":
        standing = "cancelled"
    else:
        winners = (row.outcome or {}).get("winners") or []
        seats = row.seats or row.players
        names = [str(seats[w]) for w in winners if isinstance(w, int) and 0 <= w < len(seats)]
        standing = f"{' and '.join(names)} won" if names else "drawn"
    left = format_left(row.deadline - now) + " left" if row.status == "active" and row.deadline is not None else ""
    return {
        "id": row.id,
        "title": _title(row.type),
        "players": row.players,
        "move": row.move_number,
        "standing": standing,
        "left": left,
    }


def challenge_row(row: ChallengeRow, viewer: str | None, line: str = "") -> dict[str, Any]:
    """A challenge as the lobby shows it, with what the viewer may do: join (an open seat), accept or decline
    (named in it), withdraw (theirs)."""
    free = row.open_seats - len(row.joined)
    seated = [*row.players, *row.joined]
    return {
        "id": row.id,
        "title": _title(row.type),
        "line": line,
        "players": seated,
        "options": " ".join(row.options),
        "seats": seats_open(free, row.rating_min, row.rating_max) if free > 0 else "",
        "can_join": viewer is not None and viewer not in seated and free > 0,
        "can_accept": viewer is not None and viewer in row.players[1:] and viewer not in row.accepted,
        "can_withdraw": viewer is not None and viewer == row.players[0],
    }


def _title(game_type: str) -> str:
    try:
        return registry.get(game_type).title
    except GameError:
        return game_type.capitalize()


async def lobby(request: web.Request, form: ChallengeForm | None = None, status: int = 200) -> web.Response:
    """``/``: running games (least time left first), open challenges, the viewer's own challenges, recently
    finished games, and the new challenge form (``form``: as typed, with its mistakes)."""
    ctx = context(request)
    viewer = viewer_of(request).player
    now = ctx.clock()
    running, running_total = await ctx.store.list_games(which="active", limit=LOBBY_GAMES)
    finished, _ = await ctx.store.list_games(which="inactive", limit=LOBBY_GAMES)
    open_result = await ctx.actions.challenges_open_to_all()
    lines = dict(zip([c.id for c in open_result.challenges], open_result.items, strict=True))
    challenges = [challenge_row(c, viewer, lines.get(c.id, "")) for c in open_result.challenges]
    mine: list[dict[str, Any]] = []
    if viewer is not None:
        listed = {c.id for c in open_result.challenges}
        for row in await ctx.store.open_challenges(viewer):
            if row.id not in listed and (row.expires_at is None or row.expires_at > now):
                mine.append(challenge_row(row, viewer))
    return page(
        request,
        "lobby.html",
        status=status,
        title="Lobby",
        running=[game_row(r, now) for r in running],
        running_total=running_total,
        finished=[game_row(r, now) for r in finished],
        challenges=challenges,
        challenges_said=open_result.message,
        mine=mine,
        games=[{"game": g, "fields": game_fields(g)} for g in every_game()],
        common=common_fields(),
        form=form or ChallengeForm(),
    )


async def ratings(request: web.Request) -> web.Response:
    """``/ratings/<game>``: the leaderboard, ten a page (``?page=``), of a variant (``?variant=-size=8 -hex``)."""
    ctx = context(request)
    name = request.match_info["game"]
    try:
        game = registry.get(name)
    except GameError as exc:
        return refusal(request, sentence(str(exc)), 404)
    try:
        number = parse_number(request.query.get("page", "1") or "1", "page number", 100_000)
    except InputError as exc:
        return refusal(request, sentence(str(exc)), 400)
    variant = request.query.get("variant", "").strip()
    if len(variant) > 200:
        return refusal(request, "A variant is at most 200 characters of options.", 400)
    result = await ctx.actions.leaderboard(game.name, variant.split(), number)
    if not result.ok:
        return refusal(request, sentence(result.message), 404 if "no page" in result.message else 400)
    data = result.data
    variants = await ctx.store.variants_played(game.name)
    return page(
        request,
        "ratings.html",
        title=f"{game.title} ratings",
        game=game,
        games=every_game(),
        said=sentence(result.message),
        rows=data["rows"],
        page_number=data["page"],
        pages=data["pages"],
        per_page=BOARD_PAGE,
        variant=variant,
        variants=variants,
    )


async def profile(request: web.Request) -> web.Response:
    """``/u/<name>``: a player's ratings in every game with the chart, and with ``?vs=<other>`` their record
    against another player."""
    ctx = context(request)
    name = request.match_info["name"]
    try:
        check_player_name(name)
    except InputError as exc:
        return refusal(request, sentence(str(exc)), 404)
    result = await ctx.actions.profile(name)
    if not result.ok:
        return refusal(request, sentence(result.message), 404)
    other = request.query.get("vs", "").strip()
    versus = None
    if other:
        try:
            check_player_name(other)
        except InputError as exc:
            return refusal(request, sentence(str(exc)), 400)
        versus = await ctx.actions.head_to_head(name, other)
    games, _ = await ctx.store.list_games(player_id=name, which="all", limit=LOBBY_GAMES)
    return page(
        request,
        "profile.html",
        title=f"{name}'s profile",
        player=name,
        said=sentence(result.message),
        items=result.items,
        versus=versus,
        other=other,
        games=[game_row(r, ctx.clock()) for r in games],
    )


async def chart(request: web.Request) -> web.StreamResponse:
    """``/u/<name>/chart.png``: the player's ratings over time, one line per game (drawn on a worker thread)."""
    ctx = context(request)
    name = request.match_info["name"]
    try:
        check_player_name(name)
    except InputError as exc:
        return refusal(request, sentence(str(exc)), 404)
    if not await ctx.store.player_exists(name):
        return refusal(request, f"There is no player {name}.", 404)
    series = await ctx.actions.rating_series(name)
    from render.chart import rating_chart

    png = await asyncio.to_thread(rating_chart, series, player=name, now=ctx.clock())
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-cache"})


async def help_index(request: web.Request) -> web.Response:
    """``/help``: the games, each with its summary and a link to its rules."""
    return page(request, "help_index.html", title="Games", games=every_game())


async def help_page(request: web.Request) -> web.Response:
    """``/help/<game>``: the game's rules page (``docs/<game>.md``), rendered with everything escaped."""
    name = request.match_info["game"]
    try:
        game = registry.get(name)
    except GameError as exc:
        return refusal(request, sentence(str(exc)), 404)
    if game.name != name:
        raise web.HTTPMovedPermanently(f"/help/{game.name}")
    body = await asyncio.to_thread(rules_html, game.name)
    return page(request, "help.html", title=f"{game.title} rules", game=game, body=body, games=every_game())
