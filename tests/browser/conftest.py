"""Real-browser tests of the web UI: Playwright for Python driving Debian's Chromium.

Every test in this folder is marked ``browser``. They run by default when a Chromium is found (``PBM_CHROMIUM``,
else ``/usr/bin/chromium``, else ``chromium`` or ``chromium-browser`` on the PATH) and are skipped otherwise, except
under ``CI=true``, where a missing browser fails them with one clear line: CI installs Debian's ``chromium`` (see
``.ci/run``), so a missing one there is a broken setup, not a reason to prove less.

The fixtures:

* ``chromium``: one browser for the whole session (launching one costs about a second and much memory);
* ``new_page(size, scheme)``: a page in a fresh context (its own cookies), ``"phone"`` (360x740) or ``"desktop"``
  (1280x800), ``"light"`` or ``"dark"`` (``prefers-color-scheme``); closed after the test. ``phone`` and
  ``desktop`` are one of each, in light;
* ``site`` / ``make_site(local=..., oauth=...)``: the web UI on a temporary SQLite database, served live (its hub
  polls) on a free loopback port by an event loop on a background thread, with a clock tests move by hand and
  seeded dice (:mod:`tests.webtools`); the console (``pbm do``) on the same database and at the same time makes
  moves (:meth:`LiveSite.console`); a player signs in through a one-time link (:meth:`LiveSite.sign_in`), in
  trusted local play by the "Play as" field (:meth:`LiveSite.play_as`), or through the fake Discord's OAuth2
  (``make_site(oauth=True)``, :attr:`LiveSite.discord`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import unused_port

from bot.config import WebConfig
from tests.browser.live import SIZES, BackgroundLoop, LiveSite, find_chromium, missing_browser, on_ci
from tests.webtools import Site, serving

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark this folder's tests ``browser``; skip them without a browser, unless on CI (where they fail)."""
    reason = missing_browser()
    for item in items:
        if HERE not in Path(str(item.path)).parents:
            continue
        item.add_marker(pytest.mark.browser)
        if reason is not None and not on_ci():
            item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {reason}"))


# ---- the browser ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One Chromium for the session (a ``playwright.sync_api.Browser``)."""
    reason = missing_browser()
    if reason is not None:
        pytest.fail(f"CI=true needs the browser tests to run, but {reason}.", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_page(chromium: Any) -> Iterator[Callable[..., Any]]:
    """Pages in fresh contexts (each its own cookies): ``new_page("phone" | "desktop", "light" | "dark")``."""
    contexts: list[Any] = []

    def make(size: str = "desktop", scheme: str = "light") -> Any:
        context = chromium.new_context(viewport=SIZES[size], color_scheme=scheme, locale="en-GB", timezone_id="UTC")
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def phone(new_page: Callable[..., Any]) -> Any:
    return new_page("phone")


@pytest.fixture
def desktop(new_page: Callable[..., Any]) -> Any:
    return new_page("desktop")


# ---- the server ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def background() -> Iterator[BackgroundLoop]:
    loop = BackgroundLoop()
    yield loop
    loop.close()


@pytest.fixture
def make_site(background: BackgroundLoop, tmp_path: Path) -> Iterator[Callable[..., LiveSite]]:
    """Start the web UI: ``make_site()``; ``local=True``: trusted local play (as ``pbm run`` without a token);
    ``oauth=True``: "Sign in with Discord" against a fake Discord (its ``discord.oauth`` picks who signs in)."""
    stacks: list[contextlib.AsyncExitStack] = []

    def make(*, local: bool = False, oauth: bool = False) -> LiveSite:
        db = tmp_path / f"pbm{len(stacks) or ''}.sqlite3"
        stack = contextlib.AsyncExitStack()
        stacks.append(stack)

        async def start() -> tuple[Site, Any]:
            port = unused_port()
            config = WebConfig(port=port)
            discord = None
            if oauth:
                from tests.fakediscord.server import FakeDiscord

                discord = FakeDiscord()
                await discord.start()
                stack.push_async_callback(discord.stop)
                public = f"http://127.0.0.1:{port}"
                client_id, secret = discord.oauth.register(f"{public}/signin/discord/callback")
                config = WebConfig(
                    port=port,
                    public_url=public,
                    oauth_client_id=client_id,
                    oauth_client_secret=secret,
                    discord_api=discord.base_url,
                )
            site = await stack.enter_async_context(serving(db, config=config, local=local, port=port, live=True))
            return site, discord

        site, discord = background.run(start())
        return LiveSite(background, site, db, discord)

    yield make
    for stack in reversed(stacks):
        background.run(stack.aclose())


@pytest.fixture
def site(make_site: Callable[..., LiveSite]) -> LiveSite:
    """The web UI on a fresh database (sign in with :meth:`LiveSite.sign_in`)."""
    return make_site()
