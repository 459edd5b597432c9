"""Real-browser tests of the web UI: Playwright for Python driving Debian's Chromium.

Every test in this folder is marked ``browser``. They run by default when a Chromium is found (``PBM_CHROMIUM``,
else ``/usr/bin/chromium``, else ``chromium`` or ``chromium-browser`` on the PATH) and are skipped otherwise, except
under ``CI=true``, where a missing browser fails them with one clear line: CI installs Debian's ``chromium`` (see
``.ci/run``), so a missing one there is a broken setup, not a reason to prove less.

The fixtures:

* ``chromium``: one browser for all of them (launching one costs about a second and much memory), stopped when
  the next test is not a browser test;
* ``new_page(size, scheme)``: a page in a fresh context (its own cookies), ``"phone"`` (360x740) or ``"desktop"``
  (1280x800), ``"light"`` or ``"dark"`` (``prefers-color-scheme``); closed after the test. ``phone`` and
  ``desktop`` are one of each, in light;
* ``site`` / ``make_site(local=..., oauth=...)``: the web UI on a temporary SQLite database, served live (its hub
  polls) on a free loopback port by an event loop on a background thread, with a clock tests move by hand and
  seeded dice (:mod:`tests.webtools`); the console (``pbm do``) on the same database and at the same time makes
  moves (:meth:`LiveSite.console`); a player signs in through a one-time link (:meth:`LiveSite.sign_in`), in
  trusted local play by the "Play as" field (:meth:`LiveSite.play_as`), or through the fake Discord's OAuth2
  (``make_site(oauth=True)``, :attr:`LiveSite.discord`).

:mod:`tests.browser.live` holds the rest: Playwright's ``expect`` (imported from there, so that a machine without
Playwright skips these tests instead of failing to import them) and ``sample_games`` (a game of each kind, a
finished one, challenges).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import unused_port

from bot.config import WebConfig
from tests.browser.live import SIZES, BackgroundLoop, Chromium, LiveSite, missing_browser, on_ci
from tests.webtools import Site, serving

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark this folder's tests ``browser``; skip them without a browser, unless on CI (where they fail)."""
    reason = missing_browser()
    for item in items:
        if not in_this_folder(item):
            continue
        item.add_marker(pytest.mark.browser)
        if reason is not None and not on_ci():
            item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {reason}"))


# ---- the browser ---------------------------------------------------------------------------------------------


def in_this_folder(item: pytest.Item | None) -> bool:
    return item is not None and HERE in Path(str(item.path)).parents


#: the one Chromium the browser tests share, started by the first of them and stopped after the last of a run
CHROMIUM = Chromium()


@pytest.fixture
def chromium() -> Any:
    """The shared Chromium (a ``playwright.sync_api.Browser``), started on first use."""
    reason = missing_browser()
    if reason is not None:
        pytest.fail(f"CI=true needs the browser tests to run, but {reason}.", pytrace=False)
    return CHROMIUM.browser()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop Chromium when the next test is not a browser test (its pages are closed by then): Playwright's
    synchronous API marks an event loop as running on the main thread while it is open, and the asyncio tests
    need that thread to themselves. (A session-scoped fixture would outlive this folder; a package scope needs
    an ``__init__.py`` the tests folder does not have.)"""
    if not in_this_folder(nextitem):
        CHROMIUM.stop()


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
