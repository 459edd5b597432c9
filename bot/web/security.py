"""Who is asking, and whether they may act: sessions, trusted local play, CSRF tokens, rate limits.

Reading is public. Acting needs a session: a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure``
when the public address is https), stored server side as its hash (:mod:`data.store.web`), for
:data:`bot.signin.SESSION_SECONDS`. A session is made by a one-time link, by Discord's sign-in, or, in trusted
local play only, by typing a name.

**Trusted local play** is on only when all of these hold: the server was started by ``pbm run`` without a Discord
token (``local``), no public address is set, and it listens on a loopback address; and, for each request, it
carries none of the headers a reverse proxy adds (``Forwarded``, ``X-Forwarded-*``, ``X-Real-IP``) and names a
loopback host (``Host: 127.0.0.1:8080``, ``localhost``), so neither a proxy in front of a loopback-bound server nor
a web page whose own name resolves to 127.0.0.1 (DNS rebinding) is taken for the local user. A session made in
trusted play is marked so, and counts only while trusted play lasts.

**CSRF**: every state-changing request is a POST carrying a token, in the form (``csrf``) or in the
``X-CSRF-Token`` header: the session's own token when signed in, else the random ``pbm_csrf`` cookie's value (a
sign-in form). A POST whose ``Origin`` names another site is refused too.

**Rate limits**: a token bucket per session and one per address, on POSTs, with the app's injectable clock. The
address is the peer's; behind a reverse proxy on this machine (the peer is a loopback address), the last address
of ``X-Forwarded-For``, which the proxy itself appended.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.config import WebConfig, is_loopback
from bot.signin import SESSION_SECONDS, new_token, token_key
from data.store import Store, WebSession

SESSION_COOKIE = "pbm_session"
CSRF_COOKIE = "pbm_csrf"
CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"
#: headers a reverse proxy adds: a request that carries any of them is never trusted local play
PROXY_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Real-IP")
#: (requests, seconds): how many POSTs a session, and an address, may make in that time
SESSION_RATE = (30, 60.0)
ADDRESS_RATE = (120, 60.0)
#: buckets kept before the full ones are forgotten (a full bucket is the same as none)
MAX_BUCKETS = 10_000


@dataclass
class Viewer:
    """Who is asking: the player signed in (``None``: nobody), the session key, the token their forms carry, and
    whether trusted local play is on for this request."""

    player: str | None
    session_key: str | None
    csrf: str
    trusted: bool
    #: a new ``pbm_csrf`` cookie value to set on the response (a visitor without one)
    new_csrf_cookie: str | None = None


def trusted_request(config: WebConfig, local: bool, request: web.Request) -> bool:
    """Whether this request is the trusted local user's (see the module docstring)."""
    if not local or config.public_url is not None or not is_loopback(config.host):
        return False
    if any(name in request.headers for name in PROXY_HEADERS):
        return False
    host = request.headers.get("Host", "")
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return bool(host) and is_loopback(name)


async def read_viewer(store: Store, config: WebConfig, local: bool, request: web.Request) -> Viewer:
    """The viewer of a request, from its session cookie (a trusted-play session only while trusted play lasts)."""
    trusted = trusted_request(config, local, request)
    token = request.cookies.get(SESSION_COOKIE)
    session: WebSession | None = None
    key = None
    if token:
        key = token_key(token)
        session = await store.web_session(key)
        if session is not None and session.trusted and not trusted:
            session = None
    if session is not None:
        return Viewer(session.player_id, key, session.csrf, trusted)
    cookie = request.cookies.get(CSRF_COOKIE)
    if cookie and len(cookie) <= 64:
        return Viewer(None, None, cookie, trusted)
    fresh = new_token()
    return Viewer(None, None, fresh, trusted, new_csrf_cookie=fresh)


def csrf_ok(viewer: Viewer, sent: str | None) -> bool:
    """Whether a POST carries the viewer's token (compared in constant time)."""
    return bool(sent) and hmac.compare_digest(viewer.csrf.encode(), str(sent).encode())


def cross_site(config: WebConfig, request: web.Request) -> bool:
    """Whether a request's ``Origin`` names another site than this one (the host it was sent to, or the public
    address); a request without one (not sent by a browser's script or form) is judged by its token alone."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    hosts = {request.host}
    if config.public_url:
        hosts.add(config.public_url.split("://", 1)[1])
    return origin == "null" or origin.split("://", 1)[-1].rstrip("/") not in hosts


def client_address(request: web.Request) -> str:
    """The address a request comes from, for rate limits (see the module docstring)."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and is_loopback(peer):
        return forwarded.split(",")[-1].strip() or peer
    return peer


def cookie_options(config: WebConfig) -> dict[str, object]:
    """How pbm's cookies are set: HttpOnly, SameSite=Lax, whole site, Secure behind https."""
    secure = bool(config.public_url and config.public_url.startswith("https://"))
    return {"httponly": True, "samesite": "Lax", "path": "/", "secure": secure}


def set_session_cookie(response: web.StreamResponse, config: WebConfig, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, **cookie_options(config))  # type: ignore[arg-type]


@dataclass
class Bucket:
    """A token bucket: ``tokens`` left as of ``at``."""

    tokens: float
    at: float


@dataclass
class RateLimiter:
    """Token buckets by key (a session, an address): ``rate`` is (requests, seconds), refilled evenly."""

    clock: Callable[[], float]
    rate: tuple[int, float]
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def allow(self, key: str) -> bool:
        """Take one request from ``key``'s bucket; ``False`` when it is empty (and nothing is taken)."""
        capacity, seconds = self.rate
        now = self.clock()
        bucket = self.buckets.get(key) or Bucket(float(capacity), now)
        bucket.tokens = min(float(capacity), bucket.tokens + (now - bucket.at) * capacity / seconds)
        bucket.at = now
        self.buckets[key] = bucket
        if len(self.buckets) > MAX_BUCKETS:
            self._forget_full(now)
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def _forget_full(self, now: float) -> None:
        capacity, seconds = self.rate
        self.buckets = {
            key: b for key, b in self.buckets.items() if b.tokens + (now - b.at) * capacity / seconds < capacity
        }
