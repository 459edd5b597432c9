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

import aiohttp_jinja2
from aiohttp import web

import render
from bot.actions import InputError, Result, parse_number
from bot.web import kept as cut
from bot.web.app import WebContext, context, page, page_values, refusal, sentence, viewer_of
from bot.web.boards import TOP, board_png_bytes, svg_markup, view_refusal
from bot.web.live import event, event_stream
from bot.web.present import GameView, Kept, history_entries, player_extras, plays
from bot.web.security import Viewer
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


async def load_kept(request: web.Request, at: int | None = None, board: str = TOP) -> Kept:
    """The kept view of the game in the path (built if the game has moved on), its board in the view ``board``
    (:class:`Refused` when it cannot be shown)."""
    ctx = context(request)
    assert ctx.views is not None
    kept = await ctx.views.get(game_id_of(request), at, board)
    if isinstance(kept, Result):
        missing = "no game" in kept.message or "there is no" in kept.message
        raise Refused(sentence(kept.message), 404 if missing else 400)
    return kept


async def load_view(request: web.Request, at: int | None = None, board: str = TOP) -> GameView:
    """The view of the game in the path, its board in the view ``board`` (:class:`Refused` when it cannot be
    shown)."""
    return (await load_kept(request, at, board)).view


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
    """``/g/<id>`` (``?at=n``): the game page; ``error`` is a refusal to show on it, in one line. Everyone but
    the game's players, and they too on a past position, get the page kept for the view (:func:`kept_page`);
    a player's page, with their controls, and a page with a refusal or a preview are made for the request."""
    try:
        kept = await load_kept(request, at_of(request), view_of(request))
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    view = kept.view
    viewer = viewer_of(request)
    if not error and not shown and status == 200 and not plays(view, viewer.player):
        return kept_page(request, kept, viewer)
    return page(
        request,
        "game.html",
        status=status,
        **_page_values(view, await viewer_extras(context(request), view, viewer.player)),
        error=error,
        **shown,
    )


def _page_values(view: GameView, me: dict[str, Any]) -> dict[str, Any]:
    """What the game page shows of the view, and of the viewer as a player (``me``)."""
    return {
        "title": view.data["headline"],
        "view": view,
        "data": view.public(),
        "me": me,
        "has_3d": render.has_3d(view.data["game"]),
        "href": game_href,
    }


def kept_page(request: web.Request, kept: Kept, viewer: Viewer) -> web.Response:
    """The game page of someone who does not play in it: made once per kept view and kind of viewer (signed in
    or not, trusted local play or not) with stand-ins for the viewer's own parts (:mod:`bot.web.kept`), which are
    put in per request; gzip-compressed for a browser that takes it."""
    kind = (viewer.player is not None, viewer.trusted)
    made = kept.pages.get(kind)
    if made is None:
        stand_in = Viewer(cut.stand_in("player") if viewer.player else None, None, cut.stand_in("csrf"), viewer.trusted)
        me = player_extras(kept.view, stand_in.player) | {"queue": [], "proposal": None}
        values = page_values(context(request), stand_in, cut.stand_in("path")) | _page_values(kept.view, me)
        values["error"] = ""
        made = kept.pages[kind] = cut.KeptPage.cut(aiohttp_jinja2.render_string("game.html", request, values))
    gzip = cut.accepts_gzip(request.headers.get("Accept-Encoding", ""))
    own = {"csrf": viewer.csrf, "player": viewer.player or "", "path": request.path_qs}
    headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"} | ({"Content-Encoding": "gzip"} if gzip else {})
    return web.Response(body=made.body(own, gzip), content_type="text/html", charset="utf-8", headers=headers)


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
    """``/g/<id>/board.svg`` (``?at=n``, ``?view=3d``): the board as SVG."""
    try:
        ctx, shown, view = await _state_for_board(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    state = shown.state
    assert state is not None
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
    made once per kept view (of any age: the view says when its clocks were read, and the stream's ``time``
    event what time it is); ``None`` for a game there is not, or a view it does not have."""
    assert ctx.views is not None
    kept = await ctx.views.get(game_id, None, board, max_age=None)
    if isinstance(kept, Result):
        return None
    if kept.event is None:
        kept.event = event("position", kept.view.version, kept.view.public())
    return kept.event


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
    assert ctx.views is not None
    found = await ctx.views.versions.read(game_id)
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
    """``/g/<id>/replay.json``: the positions of the replay (each board is fetched as ``board.svg?at=n``)."""
    ctx = context(request)
    game_id = game_id_of(request)
    try:
        _result, frames = await _frames(ctx, game_id)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    return web.json_response({"ok": True, "game_id": game_id, "frames": frames})
