"""The web application: its shared context, the middlewares every request goes through, the routes, and how a
page or a refusal is answered.

Every request: a Content-Security-Policy without inline scripts or styles and the other protective headers; the
viewer read from the session cookie (:mod:`bot.web.security`), except on ``/healthz`` and ``/metrics`` (the bot's,
from :mod:`bot.ops`: a probe must not wait on a session lookup in a database that hangs); a body at most
:data:`MAX_BODY` bytes. Every POST: the rate limits, the Origin check and the CSRF token, before any handler runs.
Any refusal or failure is a page (or, for a script, JSON) saying what happened in one sentence, never a traceback,
and changes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.actions import Actions, Notice, Result
from bot.config import WebConfig
from bot.ops import OPS_PATHS, Ops, add_ops_routes
from bot.text import count
from bot.web.boards import BoardCache
from bot.web.live import Hub
from bot.web.present import Views
from bot.web.security import (
    ADDRESS_RATE,
    CSRF_COOKIE,
    CSRF_FIELD,
    CSRF_HEADER,
    SESSION_RATE,
    RateLimiter,
    Viewer,
    client_address,
    cookie_options,
    cross_site,
    csrf_ok,
    read_viewer,
)
from bot.web.taps import TapCache
from data.store import DatabaseBusyError, unavailability

log = logging.getLogger("pbm.web")

HERE = Path(__file__).resolve().parent
#: the largest request body read (a move, a form); larger ones are refused before they are read
MAX_BODY = 16 * 1024
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
    " font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
#: one sentence per HTTP refusal aiohttp itself makes
HTTP_SENTENCES = {
    400: "The request could not be read.",
    403: "That is not allowed.",
    404: "There is no such page.",
    405: "That page cannot be used that way.",
    413: f"The request is too large: pbm reads at most {MAX_BODY // 1024} KiB.",
}


class Announcer(Protocol):
    """How the web tells the Discord front of what was done on the web, when the bot runs in this process:
    the turn posted in the game's thread (with the nonce the commit marked it with), a notice there, the notices
    of a vacation switch."""

    async def turn(self, result: Result, nonce: str | None) -> None: ...

    async def notice(self, game_id: int, text: str, players: list[str]) -> None: ...

    async def notices(self, notices: list[Notice]) -> None: ...


@dataclass
class WebContext:
    """What every handler shares: the actions, the settings, whether this server may trust its local user
    (``pbm run`` without a token, see :mod:`bot.web.security`), the clock, the Discord front's announcer (if
    the bot runs here), the live hub, the board drawings, the kept views of the games, the tap trees and the rate
    limits."""

    actions: Actions
    config: WebConfig
    local: bool
    clock: Callable[[], float]
    announcer: Announcer | None
    boards: BoardCache = field(default_factory=BoardCache)
    #: the tap trees of the positions players are entering moves in (:mod:`bot.web.taps`)
    taps: TapCache = field(default_factory=TapCache)
    hub: Hub | None = None
    session_limits: RateLimiter | None = None
    address_limits: RateLimiter | None = None
    #: the games' views, built once per version and shared by every page, JSON and event stream
    views: Views | None = None

    @property
    def store(self) -> Any:
        return self.actions.store


CONTEXT = web.AppKey("pbm_context", WebContext)
VIEWER = web.RequestKey("pbm_viewer", Viewer)


def context(request: web.Request) -> WebContext:
    return request.app[CONTEXT]


def viewer_of(request: web.Request) -> Viewer:
    return request[VIEWER]


def wants_json(request: web.Request) -> bool:
    """Whether the page's script asked (it sends ``Accept: application/json``), not a form."""
    return "application/json" in request.headers.get("Accept", "")


def page_values(ctx: WebContext, viewer: Viewer, path: str) -> dict[str, Any]:
    """What every page shows: the viewer, their form token, the sign-in choices, the page's own address. (A kept
    page, :mod:`bot.web.game`, is rendered with stand-ins for the viewer's parts, replaced per request.)"""
    return {
        "viewer": viewer,
        "csrf": viewer.csrf,
        "oauth": ctx.config.oauth,
        "trusted": viewer.trusted,
        "path": path,
        "count": count,
    }


def page(request: web.Request, template: str, status: int = 200, **values: Any) -> web.Response:
    """A page from ``template`` with what every page shows (:func:`page_values`)."""
    values.update(page_values(context(request), viewer_of(request), request.path_qs))
    response = aiohttp_jinja2.render_template(template, request, values, status=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def refusal(request: web.Request, sentence: str, status: int = 400, **values: Any) -> web.Response:
    """A refusal in one sentence: JSON for the page's script, else a page."""
    if wants_json(request) or request.path.endswith(".json"):
        return web.json_response({"ok": False, "message": sentence}, status=status)
    values.setdefault("title", "Not found" if status == 404 else "Not done")
    return page(request, "error.html", status=status, message=sentence, **values)


def sentence(text: str) -> str:
    """An action's message as one line ending in a full stop, worded as every front words it (its first word may
    be a player's name, whose case is theirs: it is not capitalised)."""
    line = " ".join(text.split())
    return line if not line or line[-1] in ".!?" else line + "."


@web.middleware
async def protect(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> Any:
    """Headers, the viewer, the POST checks, and every failure in one sentence."""
    ctx = context(request)
    if request.path in OPS_PATHS and request.method in ("GET", "HEAD"):
        response = await handler(request)
        _finish(request, response, ctx)
        return response
    try:
        request[VIEWER] = await read_viewer(ctx.store, ctx.config, ctx.local, request)
        if request.method == "POST":
            refused = await _post_refusal(request, ctx)
            if refused is not None:
                response = refused
            else:
                try:
                    response = await handler(request)
                finally:
                    _maybe_changed(request, ctx)
        else:
            response = await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        if VIEWER not in request:
            request[VIEWER] = Viewer(None, None, "", False)
        response = refusal(request, HTTP_SENTENCES.get(exc.status, exc.reason + "."), exc.status)
    except Exception as exc:
        if VIEWER not in request:
            request[VIEWER] = Viewer(None, None, "", False)
        response = _failure(request, exc)
    _finish(request, response, ctx)
    return response


def _failure(request: web.Request, exc: Exception) -> web.Response:
    """The one sentence a request that failed on pbm's side gets: an unavailable or busy database is said as such
    (logged in one line: an outage is not a bug), anything else logged with its traceback. After a POST the reader
    is told to reload, since the database may have kept what it was asked before it stopped answering."""
    down = unavailability(exc)
    if down is None:
        log.exception("%s %s failed", request.method, request.path)
        return refusal(request, "Something went wrong on pbm's side; the admin has the details.", 500)
    log.warning("%s %s: %s", request.method, request.path, down)
    what = "busy (another program is writing to it)" if isinstance(down, DatabaseBusyError) else "unavailable"
    after = " (reload the page to see whether it was done)" if request.method == "POST" else ""
    return refusal(request, f"The database is {what}; try again in a minute{after}.", 503)


def _maybe_changed(request: web.Request, ctx: WebContext) -> None:
    """A POST about a game (``/g/<id>/...``) may have changed it: its live pages are checked now, not at the next
    poll (a web move reaches the other browsers at once; checking a game that did not change costs one read)."""
    game_id = request.match_info.get("id", "")
    if ctx.hub is not None and game_id.isdigit():
        ctx.hub.heard(int(game_id))


async def _post_refusal(request: web.Request, ctx: WebContext) -> web.Response | None:
    """Why a POST is refused before its handler runs (rate, origin, token), or ``None``."""
    viewer = viewer_of(request)
    assert ctx.address_limits is not None and ctx.session_limits is not None
    if not ctx.address_limits.allow(client_address(request)) or (
        viewer.session_key is not None and not ctx.session_limits.allow(viewer.session_key)
    ):
        return refusal(request, "Too many requests in a short time; wait a minute and try again.", 429)
    if cross_site(ctx.config, request):
        return refusal(request, "This form was sent from another site, so it was refused.", 403)
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        sent = (await request.post()).get(CSRF_FIELD)  # type: ignore[assignment]
    if not csrf_ok(viewer, sent if isinstance(sent, str) else None):
        return refusal(request, "This form has expired or did not come from pbm; reload the page and try again.", 403)
    return None


def _finish(request: web.Request, response: web.StreamResponse, ctx: WebContext) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    viewer = request.get(VIEWER)
    if viewer is not None and viewer.new_csrf_cookie and not response.prepared:
        response.set_cookie(CSRF_COOKIE, viewer.new_csrf_cookie, **cookie_options(ctx.config))  # type: ignore[arg-type]


def asset(name: str) -> str:
    """A static file's address, with a version from its content: a new pbm's script is never an old cached one."""
    return f"/static/{name}?v={_version(name)}"


@functools.cache
def _version(name: str) -> str:
    return hashlib.sha256((HERE / "static" / name).read_bytes()).hexdigest()[:12]


def create_app(
    actions: Actions,
    config: WebConfig,
    *,
    local: bool = False,
    clock: Callable[[], float] | None = None,
    announcer: Announcer | None = None,
    live: bool = True,
    poll_interval: float | None = None,
    ops: Ops | None = None,
) -> web.Application:
    """The web application on ``actions`` (their store and clock). ``local``: started by ``pbm run`` without a
    token (trusted local play may be on, see :mod:`bot.web.security`). ``live``: watch for changes in the
    background (tests drive the hub by hand with ``live=False``). ``ops``: the bot's ``/healthz`` and ``/metrics``,
    served on this port too (``pbm run``)."""
    from bot.web import acting, game, pages, signin, tournaments

    clock = clock or time.time
    app = web.Application(middlewares=[protect], client_max_size=MAX_BODY)
    ctx = WebContext(actions=actions, config=config, local=local, clock=clock, announcer=announcer)
    ctx.session_limits = RateLimiter(clock, SESSION_RATE)
    ctx.address_limits = RateLimiter(clock, ADDRESS_RATE)
    ctx.views = Views(actions, ctx.boards, clock)
    ctx.hub = Hub(actions.store, lambda game_id, view: game.publish(ctx, game_id, view), interval=poll_interval)
    app[CONTEXT] = ctx
    environment = aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(str(HERE / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.trim_blocks = environment.lstrip_blocks = True
    environment.globals["asset"] = asset
    for module in (pages, game, acting, signin, tournaments):
        module.add_routes(app)
    app.router.add_static("/static/", HERE / "static")

    async def settle_views(_app: web.Application) -> None:  # views being built meanwhile finish before the store closes
        assert ctx.views is not None
        await ctx.views.settled()

    app.on_cleanup.append(settle_views)
    if ops is not None:
        add_ops_routes(app, ops)
    if live:

        async def start_hub(_app: web.Application) -> None:
            assert ctx.hub is not None
            await ctx.hub.start()

        async def stop_hub(_app: web.Application) -> None:
            assert ctx.hub is not None
            await ctx.hub.stop()

        app.on_startup.append(start_hub)
        app.on_cleanup.append(stop_hub)
    return app
