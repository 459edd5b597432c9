"""Discord's OAuth2 authorization code flow, as much of it as a site that signs people in with Discord uses
(scope ``identify``), so the web UI's "Sign in with Discord" is tested end to end without the network:

* ``GET /oauth2/authorize`` (Discord's site, not its API): the browser arrives with ``response_type=code``,
  ``client_id``, ``scope``, ``redirect_uri`` and ``state``; Discord would ask the user, the fake answers as the
  user the test signed in to Discord (:meth:`OAuth.browser_signs_in_as`), or as one who refused
  (:meth:`OAuth.browser_refuses`), by redirecting to ``redirect_uri`` with ``code`` (or ``error``) and ``state``;
* ``POST /api/v10/oauth2/token`` (form-encoded: ``grant_type=authorization_code``, ``code``, ``redirect_uri``,
  ``client_id``, ``client_secret``): the code, once, for a Bearer token; a code used twice, or sent with another
  redirect or secret, is ``400 invalid_grant`` / ``401 invalid_client``, as Discord answers;
* ``GET /api/v10/users/@me`` with ``Authorization: Bearer <token>``: the user who authorised.

Refused as Discord refuses: an unknown client, a redirect that is not registered, a scope without ``identify``,
a response type other than ``code`` (400 with Discord's ``error``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from aiohttp import web

if TYPE_CHECKING:
    from tests.fakediscord.state import FakeState


@dataclass
class Application:
    """An OAuth2 application: its secret and the redirects registered for it."""

    secret: str
    redirects: set[str] = field(default_factory=set)


@dataclass
class Grant:
    """A code Discord handed the browser: for which application, redirect and user; used at most once."""

    client_id: str
    redirect_uri: str
    user_id: int
    used: bool = False


def redirect_to(location: str) -> web.Response:
    return web.Response(status=302, headers={"Location": location})


def oauth_error(status: int, error: str, description: str) -> web.Response:
    return web.json_response({"error": error, "error_description": description}, status=status)


class OAuth:
    """The fake's OAuth2 side (see the module docstring)."""

    def __init__(self, fake: FakeState) -> None:
        self.fake = fake
        self.applications: dict[str, Application] = {}
        self.grants: dict[str, Grant] = {}
        self.bearers: dict[str, int] = {}
        #: the Discord user signed in in the test's browser (None: the user refuses)
        self.browser_user: int | None = None
        #: what each route was asked, in order (``authorize``, ``token``, ``me``)
        self.calls: list[str] = []

    def register(self, redirect_uri: str) -> tuple[str, str]:
        """A new application allowed to send people back to ``redirect_uri``: its client id and secret."""
        client_id = str(10**17 + len(self.applications))
        secret = secrets.token_urlsafe(24)
        self.applications[client_id] = Application(secret, {redirect_uri})
        return client_id, secret

    def browser_signs_in_as(self, user_id: int) -> None:
        self.browser_user = user_id

    def browser_refuses(self) -> None:
        self.browser_user = None

    async def authorize(self, request: web.Request) -> web.Response:
        self.calls.append("authorize")
        query = request.query
        app = self.applications.get(query.get("client_id", ""))
        if app is None:
            return oauth_error(400, "invalid_client", "Unknown Application")
        redirect = query.get("redirect_uri", "")
        if redirect not in app.redirects:
            return oauth_error(400, "invalid_request", "Invalid OAuth2 redirect_uri")
        if query.get("response_type") != "code":
            return oauth_error(400, "unsupported_response_type", "Only code is supported here")
        if "identify" not in query.get("scope", "").split():
            return oauth_error(400, "invalid_scope", "The requested scope is invalid")
        state = {"state": query["state"]} if "state" in query else {}
        if self.browser_user is None:
            return redirect_to(f"{redirect}?{urlencode({'error': 'access_denied', **state})}")
        code = secrets.token_urlsafe(20)
        self.grants[code] = Grant(query["client_id"], redirect, self.browser_user)
        return redirect_to(f"{redirect}?{urlencode({'code': code, **state})}")

    async def token(self, request: web.Request) -> web.Response:
        self.calls.append("token")
        form = await request.post()
        client_id, secret = str(form.get("client_id", "")), str(form.get("client_secret", ""))
        app = self.applications.get(client_id)
        if app is None or not secrets.compare_digest(app.secret, secret):
            return oauth_error(401, "invalid_client", "Invalid client secret")
        if form.get("grant_type") != "authorization_code":
            return oauth_error(400, "unsupported_grant_type", "Unsupported grant type")
        grant = self.grants.get(str(form.get("code", "")))
        if (
            grant is None
            or grant.used
            or grant.client_id != client_id
            or grant.redirect_uri != form.get("redirect_uri")
        ):
            return oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        grant.used = True
        bearer = secrets.token_urlsafe(24)
        self.bearers[bearer] = grant.user_id
        return web.json_response(
            {
                "access_token": bearer,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )

    def me(self, authorization: str) -> dict[str, Any] | None:
        """The user a Bearer token stands for (``None``: not a token the fake gave)."""
        self.calls.append("me")
        user_id = self.bearers.get(authorization.removeprefix("Bearer "))
        return None if user_id is None else self.fake.users[user_id]
