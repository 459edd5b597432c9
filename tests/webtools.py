"""The web UI under test: the application on a real database, served on a loopback port by aiohttp's test server,
and browsers (each its own cookie jar) that read pages and send forms as a person's browser would."""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from bot.actions import Actions
from bot.config import WebConfig
from bot.signin import sign_in_link
from bot.web.app import CONTEXT, Announcer, WebContext, create_app
from data.store import Store
from tests.fakediscord.pbm import FakeClock

SEED = 7
#: the time the tests' clock starts at (2027-01-15, a Friday)
START = 1_800_000_000.0
_CSRF = re.compile(r'<meta name="csrf-token" content="([^"]*)">')
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)


@dataclass
class Page:
    """A page as a browser got it: the status, the text, and where it was sent on (a redirect)."""

    status: int
    text: str
    location: str | None = None

    @property
    def csrf(self) -> str:
        found = _CSRF.search(self.text)
        assert found, self.text[:500]
        return html.unescape(found.group(1))

    @property
    def heading(self) -> str:
        """The page's first heading, as a person reads it (tags dropped, entities read)."""
        found = _H1.search(self.text)
        assert found, self.text[:500]
        return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()

    def json(self) -> Any:
        return json.loads(self.text)


class Browser:
    """One browser: its cookies, the form token of the last page it read, and the headers it sends."""

    def __init__(self, site: Site, headers: dict[str, str] | None = None) -> None:
        self.site = site
        self.session = aiohttp.ClientSession(
            base_url=site.base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers=headers or {}
        )
        self.csrf = ""

    async def get(self, path: str, **options: Any) -> Page:
        async with self.session.get(path, allow_redirects=False, **options) as answer:
            page = Page(answer.status, await answer.text(), answer.headers.get("Location"))
        if answer.content_type == "text/html" and _CSRF.search(page.text):
            self.csrf = page.csrf
        return page

    async def post(self, path: str, fields: dict[str, str] | None = None, *, csrf: bool = True, **options: Any) -> Page:
        """A form sent as a browser sends it, with the page's token unless ``csrf`` is false."""
        data = dict(fields or {})
        if csrf:
            if not self.csrf:
                await self.get("/")
            data.setdefault("csrf", self.csrf)
        async with self.session.post(path, data=data, allow_redirects=False, **options) as answer:
            return Page(answer.status, await answer.text(), answer.headers.get("Location"))

    async def post_json(self, path: str, fields: dict[str, str]) -> Page:
        """What the page's script sends: JSON, the token in a header, JSON wanted back."""
        if not self.csrf:
            await self.get("/")
        headers = {"X-CSRF-Token": self.csrf, "Accept": "application/json"}
        async with self.session.post(path, json=fields, headers=headers, allow_redirects=False) as answer:
            return Page(answer.status, await answer.text(), answer.headers.get("Location"))

    async def sign_in(self, player: str) -> None:
        """Sign in with a one-time link, as ``pbm web-link`` hands it out."""
        link = await sign_in_link(self.site.store, player, self.site.base, self.site.clock())
        path = link.removeprefix(self.site.base)
        await self.get(path)
        done = await self.post(path)
        assert done.status == 303, (done.status, done.text[:300])
        self.csrf = ""
        await self.get("/")

    async def close(self) -> None:
        await self.session.close()


@dataclass
class Site:
    """The web UI under test: its server's address, actions, store, clock and context."""

    server: TestServer
    actions: Actions
    store: Store
    clock: FakeClock
    path: Path | str

    @property
    def base(self) -> str:
        return str(self.server.make_url("")).rstrip("/")

    @property
    def context(self) -> WebContext:
        return self.server.app[CONTEXT]

    @asynccontextmanager
    async def browser(self, headers: dict[str, str] | None = None) -> AsyncIterator[Browser]:
        browser = Browser(self, headers)
        try:
            yield browser
        finally:
            await browser.close()

    async def game_row(self, game_id: int) -> Any:
        return await self.store.load_game(game_id)


@asynccontextmanager
async def serving(
    path: Path | str,
    *,
    config: WebConfig | None = None,
    local: bool = False,
    announcer: Announcer | None = None,
    port: int | None = None,
    live: bool = False,
    poll_interval: float | None = None,
    clock: FakeClock | None = None,
) -> AsyncIterator[Site]:
    """The web UI on the database at ``path``, with a clock tests move by hand (from :data:`START`, unless given:
    a bot started beside it runs on the real time) and seeded dice; its hub is driven by hand unless ``live``."""
    store = await Store.open(path)
    clock = clock or FakeClock(START)
    actions = Actions(store, seed_source=lambda: SEED, clock=clock)
    app = create_app(
        actions,
        config or WebConfig(),
        local=local,
        clock=clock,
        announcer=announcer,
        live=live,
        poll_interval=poll_interval,
    )
    server = TestServer(app, host="127.0.0.1", port=port)
    await server.start_server()
    try:
        yield Site(server, actions, store, clock, path)
    finally:
        await server.close()
        await store.close()
