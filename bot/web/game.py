"""A game's pages: ``/g/<id>`` (the board, whose turn, clocks, the move list, options, ratings, the result, and for
its players the move form and the pbmserv words), ``/g/<id>?at=n`` (the position after move n), ``/g/<id>.json``
(the same for the page's scripts), the board alone (``board.svg``, ``board.png``), the live event stream
(``/g/<id>/events``) and the replay (``/g/<id>/replay``, ``replay.json``).

The page, its JSON, its boards and its event stream take ``?view=3d`` for the second picture of the games that have
one (:func:`render.has_3d`: Druid's and Drogo's monument seen from the front); the top-down board is the default
(``?view=top``), and the page links each view to the other."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

import render
from bot.actions import InputError, Result, parse_number
from bot.web.app import WebContext, context, page, refusal, sentence, viewer_of
from bot.web.boards import TOP, board_png_bytes, draws_svg, svg_markup, view_refusal
from bot.web.live import event, event_stream
from bot.web.present import GameView, game_view, history_entries, player_extras, version_text
from data.store import ProposalRow

#: the highest game number a path is read as
MAX_GAME = 2**63 - 1


def add_routes(app: web.Application) -> None:
    app.router.add_get(r"/g/{id:\d+}", game_page)
    app.router.add_get(r"/g/{id:\d+}.json", game_json)
    app.router.add_get(r"/g/{id:\d+}/board.svg", board_svg)
    app.router.add_get(r"/g/{id:\d+}/board.png", board_png)
    app.router.add_get(r"/g/{id:\d+}/events", events)
    app.router.add_get(r"/g/{id:\d+}/replay", replay_page)
    app.router.add_get(r"/g/{id:\d+}/replay.json", replay_json)


def game_id_of(request: web.Request) -> int:
    """The game number in the path (digits only, by the route); a number too large is no game."""
    raw = request.match_info["id"]
    if len(raw) > 19 or int(raw) > MAX_GAME or int(raw) == 0:
        raise web.HTTPNotFound()
    return int(raw)


def at_of(request: web.Request) -> int | None:
    """``?at=n``: the position after move n (0: the start); ``None`` for the game as it stands."""
    raw = request.query.get("at")
    if raw is None or raw == "":
        return None
    if raw == "0":
        return 0
    try:
        return parse_number(raw, "move number", 10**9)
    except InputError as exc:
        raise Refused(sentence(str(exc))) from exc


def view_of(request: web.Request) -> str:
    """``?view=``: the board's view, ``top`` (the default) or ``3d`` (whether the game has it is checked once the
    game is known, see :func:`bot.web.boards.view_refusal`)."""
    raw = request.query.get("view", "")
    if raw in ("", TOP):
        return TOP
    if raw in render.VIEWS:
        return raw
    shown = raw if len(raw) <= 20 else raw[:20] + "…"
    raise Refused(f"'{shown}' is not a board view: ask for view=top or view=3d.")


def game_href(game_id: int, at: int | None = None, view: str = TOP) -> str:
    """The address of a game's page after move ``at`` (``None``: as it stands), its board in ``view``."""
    query = ([] if at is None else [f"at={at}"]) + ([] if view == TOP else [f"view={view}"])
    return f"/g/{game_id}" + ("?" + "&".join(query) if query else "")


class Refused(Exception):
    """A request that cannot be answered; the message is its one sentence."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


async def load_view(request: web.Request, at: int | None = None, board: str = TOP) -> GameView:
    """The view of the game in the path, its board in the view ``board`` (:class:`Refused` when it cannot be
    shown)."""
    ctx = context(request)
    game_id = game_id_of(request)
    view = await game_view(ctx.actions, ctx.boards, game_id, at, board)
    if isinstance(view, Result):
        missing = "no game" in view.message or "there is no" in view.message
        raise Refused(sentence(view.message), 404 if missing else 400)
    return view


async def viewer_extras(ctx: WebContext, view: GameView, viewer: str | None) -> dict[str, Any]:
    """What the viewer sees as a player of the game: their moves, their queued lines, an open proposal."""
    extras = player_extras(view, viewer)
    extras["queue"] = []
    extras["proposal"] = None
    if not extras["plays"] or viewer is None:
        return extras
    lines = await ctx.store.queued_lines(view.game_id, viewer)
    extras["queue"] = [" ".join(line.moves) for line in lines]
    proposal: ProposalRow | None = await ctx.store.open_proposal(view.game_id)
    if proposal is not None and (proposal.expires_at is None or proposal.expires_at > ctx.clock()):
        extras["proposal"] = {
            "id": proposal.id,
            "kind": proposal.kind,
            "proposer": proposal.proposer,
            "mine": proposal.proposer == viewer,
            "answered": viewer in proposal.accepted,
        }
    return extras


async def game_page(request: web.Request, *, error: str = "", status: int = 200, **shown: Any) -> web.Response:
    """``/g/<id>`` (``?at=n``): the game page; ``error`` is a refusal to show on it, in one line."""
    try:
        view = await load_view(request, at_of(request), view_of(request))
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    ctx = context(request)
    viewer = viewer_of(request).player
    return page(
        request,
        "game.html",
        status=status,
        title=view.data["headline"],
        view=view,
        data=view.public(),
        me=await viewer_extras(ctx, view, viewer),
        error=error,
        has_3d=render.has_3d(view.data["game"]),
        href=game_href,
        **shown,
    )


async def game_json(request: web.Request) -> web.Response:
    """``/g/<id>.json`` (``?at=n``, ``?view=3d``): the public view, and for a player of the game what they may
    do."""
    try:
        view = await load_view(request, at_of(request), view_of(request))
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    extras = await viewer_extras(context(request), view, viewer_of(request).player)
    return web.json_response({"ok": True, **view.public(), **extras}, headers={"Cache-Control": "no-store"})


async def _state_for_board(request: web.Request) -> tuple[WebContext, Result, str]:
    """The position a board address asks for, and the view to draw it in (refused before anything is drawn)."""
    ctx = context(request)
    view = view_of(request)
    shown = await ctx.actions.show(game_id_of(request), at_of(request))
    if not shown.ok or shown.state is None:
        raise Refused(sentence(shown.message), 404)
    refused = view_refusal(shown.state.game.name, view)
    if refused is not None:
        raise Refused(refused, 404)
    return ctx, shown, view


async def board_svg(request: web.Request) -> web.Response:
    """``/g/<id>/board.svg`` (``?at=n``, ``?view=3d``): the board as SVG, for the games drawn as scenes."""
    try:
        ctx, shown, view = await _state_for_board(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    state = shown.state
    assert state is not None
    if not draws_svg(state.game.name):
        return refusal(request, f"{state.game.title} boards are drawn as PNG pictures for now.", 404)
    ratings = shown.seat_ratings() or None
    label = f"game {shown.game_id}: the board" + (" in 3D" if view == "3d" else "")
    svg = await ctx.boards.get(state, f"svg {ratings}", lambda: svg_markup(state, ratings, label, view), view)
    return web.Response(text=svg, content_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


async def board_png(request: web.Request) -> web.Response:
    """``/g/<id>/board.png`` (``?at=n``, ``?view=3d``): the board as a PNG picture, for every game."""
    try:
        ctx, shown, view = await _state_for_board(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    state = shown.state
    assert state is not None
    ratings = shown.seat_ratings() or None
    png = await ctx.boards.get(state, f"png {ratings}", lambda: board_png_bytes(state, ratings, view), view)
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-cache"})


async def publish(ctx: WebContext, game_id: int, board: str = TOP) -> bytes | None:
    """The event a game's pages receive when it changes: its public view with the board in the view ``board``,
    built once per version and view (a version already built is found by one primary-key read); ``None`` for a
    game there is not, or a view it does not have."""
    found = (await ctx.store.game_versions([game_id])).get(game_id)
    if found is None:
        return None
    kept = ctx.published.get((game_id, board))
    if kept is not None and kept[0] == version_text(found):
        return kept[1]
    view = await game_view(ctx.actions, ctx.boards, game_id, None, board)
    if isinstance(view, Result):
        return None
    payload = event("position", view.version, view.public())
    ctx.published[(game_id, board)] = (view.version, payload)
    if len(ctx.published) > 1000:
        ctx.published.pop(next(iter(ctx.published)))
    return payload


async def events(request: web.Request) -> web.StreamResponse:
    """``/g/<id>/events`` (``?view=3d``): Server-Sent Events, one ``position`` event per new position of the game,
    its board in the page's view."""
    ctx = context(request)
    game_id = game_id_of(request)
    try:
        board = view_of(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    first = await publish(ctx, game_id, board)
    if first is None:
        return await _no_stream(request, ctx, game_id, board)
    assert ctx.hub is not None
    now = f"event: time\ndata: {json.dumps({'now': ctx.clock()})}\n\n".encode()
    return await event_stream(request, ctx.hub, game_id, now + first, board)


async def _no_stream(request: web.Request, ctx: WebContext, game_id: int, board: str) -> web.Response:
    """The refusal of an event stream: the game is not there, or its boards have no such view."""
    found = (await ctx.store.game_versions([game_id])).get(game_id)
    if found is not None and board != TOP:
        shown = await ctx.actions.show(game_id)
        refused = view_refusal(shown.state.game.name, board) if shown.state is not None else None
        if refused is not None:
            return refusal(request, refused, 404)
    return refusal(request, f"there is no game {game_id}.", 404)


async def _frames(ctx: WebContext, game_id: int) -> tuple[Result, list[dict[str, Any]]]:
    """Every position of a game, each named by the move that led to it (the start first)."""
    result = await ctx.actions.history(game_id)
    if not result.ok:
        raise Refused(sentence(result.message), 404)
    frames = [{"at": 0, "caption": "the start"}]
    for entry in history_entries(result.items):
        if entry["n"] is not None:
            frames.append({"at": entry["n"], "caption": f"{entry['n']}. {entry['text']}"})
    return result, frames


async def replay_page(request: web.Request) -> web.Response:
    """``/g/<id>/replay`` (``?at=n``): one position with the move that made it, a slider over every position,
    previous and next; the page's script plays it without reloading."""
    ctx = context(request)
    game_id = game_id_of(request)
    try:
        result, frames = await _frames(ctx, game_id)
        at = at_of(request)
        at = frames[-1]["at"] if at is None else at
        view = await load_view(request, at)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    index = next((k for k, f in enumerate(frames) if f["at"] == at), 0)
    return page(
        request,
        "replay.html",
        title=f"Replay of {view.data['title']} {game_id}",
        view=view,
        data=view.public(),
        frames=frames,
        index=index,
        said=result.message.splitlines()[0],
    )


async def replay_json(request: web.Request) -> web.Response:
    """``/g/<id>/replay.json``: the positions of the replay and how to draw each (SVG or PNG)."""
    ctx = context(request)
    game_id = game_id_of(request)
    try:
        result, frames = await _frames(ctx, game_id)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    kind = "svg" if draws_svg(result.game_type or "") else "png"
    return web.json_response({"ok": True, "game_id": game_id, "board": kind, "frames": frames})
