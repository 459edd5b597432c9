"""Signing in and out: a one-time link (``pbm web-link alice``, Discord's ``/web``), Discord's OAuth2 (authorization
code flow, scope ``identify``), and in trusted local play a name typed in (see :mod:`bot.web.security`).

A link is used by a POST from its page, not by opening it: a chat client or a browser that fetches the link to
preview it must not use it up. Discord's sign-in keeps its random ``state`` in a short-lived cookie and checks it
when Discord sends the browser back, so no process needs to remember anything between the two (any process may
answer either request).
"""

from __future__ import annotations

import hmac
import logging
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.actions import InputError
from bot.config import WebConfig
from bot.identity import player_of_discord_account
from bot.signin import LINK_SECONDS, SESSION_SECONDS, check_web_player, new_token, token_key
from bot.web.app import WebContext, context, page, refusal, sentence, viewer_of
from bot.web.security import SESSION_COOKIE, cookie_options, set_session_cookie

log = logging.getLogger("pbm.web")

STATE_COOKIE = "pbm_oauth_state"
#: how long a Discord sign-in may take, from leaving pbm to coming back (seconds)
STATE_SECONDS = 600
#: how long pbm waits for Discord's answers during a sign-in (seconds)
DISCORD_TIMEOUT = 10.0
NEW_LINK = "ask for a new one (pbm web-link <name> on the bot's machine, or /web in Discord)"
LINK_PROBLEMS = {
    "unknown": (404, f"This sign-in link is not valid: {NEW_LINK}."),
    "used": (410, f"This sign-in link has already been used (a link works once): {NEW_LINK}."),
    "expired": (410, f"This sign-in link has expired (links last {LINK_SECONDS // 60} minutes): {NEW_LINK}."),
}


def add_routes(app: web.Application) -> None:
    app.router.add_get("/signin", signin_page)
    app.router.add_get("/signin/link/{token}", link_page)
    app.router.add_post("/signin/link/{token}", use_link)
    app.router.add_get("/signin/discord", discord_start)
    app.router.add_get("/signin/discord/callback", discord_back)
    app.router.add_post("/signin/local", local)
    app.router.add_post("/signout", signout)


async def signin_page(request: web.Request) -> web.Response:
    """``/signin``: the ways to sign in this server offers."""
    return page(request, "signin.html", title="Sign in")


async def start_session(ctx: WebContext, player: str, *, trusted: bool = False) -> str:
    """A new session for ``player``; the token for its cookie."""
    token = new_token()
    await ctx.store.create_web_session(
        token_key(token), player, new_token(), expires_at=ctx.clock() + SESSION_SECONDS, trusted=trusted
    )
    return token


def _signed_in(ctx: WebContext, token: str, where: str = "/") -> web.Response:
    response = web.HTTPSeeOther(where)
    set_session_cookie(response, ctx.config, token)
    return response


async def link_page(request: web.Request) -> web.Response:
    """The page a sign-in link opens: a button that uses it (see the module docstring)."""
    token = request.match_info["token"]
    if len(token) > 100:
        return refusal(request, LINK_PROBLEMS["unknown"][1], 404)
    return page(request, "link.html", title="Sign in", token=token)


async def use_link(request: web.Request) -> web.Response:
    """Use a one-time link: a session for its player, or one sentence saying why not."""
    ctx = context(request)
    token = request.match_info["token"]
    if len(token) > 100:
        return refusal(request, LINK_PROBLEMS["unknown"][1], 404)
    used = await ctx.store.use_web_link(token_key(token))
    if used.player_id is None:
        status, said = LINK_PROBLEMS[used.problem or "unknown"]
        return refusal(request, said, status)
    raise _signed_in(ctx, await start_session(ctx, used.player_id))


def redirect_uri(config: WebConfig) -> str:
    return f"{config.base_url}/signin/discord/callback"


def authorize_url(config: WebConfig, state: str) -> str:
    """Discord's page that asks the user to let pbm know who they are (its site, beside its API)."""
    site = config.discord_api.split("/api", 1)[0]
    query = {
        "response_type": "code",
        "client_id": config.oauth_client_id or "",
        "scope": "identify",
        "redirect_uri": redirect_uri(config),
        "state": state,
        "prompt": "none",
    }
    return f"{site}/oauth2/authorize?{urlencode(query)}"


async def discord_start(request: web.Request) -> web.Response:
    """``/signin/discord``: off to Discord, with a random ``state`` kept in a cookie for the way back."""
    ctx = context(request)
    if not ctx.config.oauth:
        return refusal(request, "Sign-in with Discord is not set up on this server.", 404)
    state = new_token()
    response = web.HTTPFound(authorize_url(ctx.config, state))
    options = cookie_options(ctx.config)
    response.set_cookie(STATE_COOKIE, state, max_age=STATE_SECONDS, **options)  # type: ignore[arg-type]
    raise response


async def discord_back(request: web.Request) -> web.Response:
    """``/signin/discord/callback``: Discord sent the browser back; check ``state``, trade the code for a token,
    read who the user is, and start their session."""
    ctx = context(request)
    if not ctx.config.oauth:
        return refusal(request, "Sign-in with Discord is not set up on this server.", 404)
    expected = request.cookies.get(STATE_COOKIE, "")
    state = request.query.get("state", "")
    if not expected or not state or not hmac.compare_digest(expected.encode(), state.encode()):
        return refusal(request, "This sign-in did not start here, or took too long; sign in again.", 403)
    if "error" in request.query:
        reason = request.query.get("error", "")[:40]
        return refusal(request, f"Discord did not sign you in ({reason}); nothing was changed.", 403)
    code = request.query.get("code", "")
    if not code or len(code) > 200:
        return refusal(request, "Discord sent no sign-in code back; sign in again.", 400)
    try:
        user = await _discord_user(ctx.config, code)
    except DiscordRefused as exc:
        return refusal(request, str(exc), 502)
    player = await player_of_discord_account(ctx.store, user[0], user[1])
    response = _signed_in(ctx, await start_session(ctx, player))
    response.del_cookie(STATE_COOKIE, path="/")
    raise response


class DiscordRefused(Exception):
    """Discord could not be asked, or refused; the message is one sentence for the user."""


async def _discord_user(config: WebConfig, code: str) -> tuple[int, str]:
    """Trade the code for an access token, then read the user's id and name with it."""
    timeout = aiohttp.ClientTimeout(total=DISCORD_TIMEOUT)
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri(config),
        "client_id": config.oauth_client_id or "",
        "client_secret": config.oauth_client_secret or "",
    }
    try:
        async with aiohttp.ClientSession(timeout=timeout) as client:
            async with client.post(f"{config.discord_api}/oauth2/token", data=form) as answer:
                if answer.status != 200:
                    log.warning("Discord refused the sign-in code: %s %s", answer.status, await answer.text())
                    raise DiscordRefused("Discord refused this sign-in (the code was used or expired); sign in again.")
                token = (await answer.json()).get("access_token")
            if not isinstance(token, str) or not token:
                raise DiscordRefused("Discord gave no access for this sign-in; sign in again.")
            headers = {"Authorization": f"Bearer {token}"}
            async with client.get(f"{config.discord_api}/users/@me", headers=headers) as answer:
                if answer.status != 200:
                    raise DiscordRefused("Discord would not say who you are; sign in again.")
                user = await answer.json()
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        log.warning("Discord could not be reached to sign someone in: %s", exc)
        raise DiscordRefused("Discord could not be reached to sign you in; try again later.") from exc
    try:
        return int(user["id"]), str(user["username"])
    except (KeyError, TypeError, ValueError):
        raise DiscordRefused("Discord's answer could not be read; sign in again.") from None


async def local(request: web.Request) -> web.Response:
    """Trusted local play: play as the name typed (a session marked trusted, valid only while that lasts)."""
    ctx = context(request)
    viewer = viewer_of(request)
    if not viewer.trusted:
        return refusal(request, "Choosing a name is for the local user of a pbm without Discord; sign in instead.", 403)
    form = await request.post()
    name = str(form.get("name", "")).strip()
    try:
        check_web_player(name)
    except InputError as exc:
        return refusal(request, sentence(str(exc)), 400)
    back = str(form.get("back", "/"))
    where = back if back.startswith("/") and not back.startswith("//") else "/"
    if viewer.session_key is not None:
        await ctx.store.end_web_session(viewer.session_key)
    raise _signed_in(ctx, await start_session(ctx, name, trusted=True), where)


async def signout(request: web.Request) -> web.Response:
    """Sign this browser out."""
    ctx = context(request)
    viewer = viewer_of(request)
    if viewer.session_key is not None:
        await ctx.store.end_web_session(viewer.session_key)
    response = web.HTTPSeeOther("/")
    response.del_cookie(SESSION_COOKIE, path="/")
    raise response
