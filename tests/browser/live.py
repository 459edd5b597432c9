"""What the browser tests share besides their fixtures (:mod:`tests.browser.conftest`): where Chromium is, an
event loop on a background thread that serves the web UI, and :class:`LiveSite`, the web UI as a test drives it."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from bot.signin import sign_in_link
from tests.webtools import Site

try:
    from playwright.sync_api import expect
except ImportError:  # every browser test is then skipped (or, under CI=true, failed) before it runs
    expect: Any = None

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent.parent
#: viewport sizes: a small phone, and a desktop window
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
#: how long a fixture waits for the server's loop to do something before the test fails (seconds)
LOOP_TIMEOUT = 30.0


def find_chromium() -> str | None:
    """The Chromium to drive: ``PBM_CHROMIUM``, Debian's ``/usr/bin/chromium``, or one on the PATH."""
    chosen = os.environ.get("PBM_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).is_file() else None
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing_browser() -> str | None:
    """Why the browser tests cannot run here (one line), or ``None`` when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    if find_chromium() is None:
        where = os.environ.get("PBM_CHROMIUM")
        if where:
            return f"PBM_CHROMIUM names {where}, which is not a file"
        return "no Chromium found (apt-get install chromium, or set PBM_CHROMIUM to its path)"
    return None


def on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


class Chromium:
    """One Chromium driven by Playwright's synchronous API, started when first asked for and stopped on demand."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def browser(self) -> Any:
        """The running browser (a ``playwright.sync_api.Browser``), launched now if it is not running."""
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
        return self._browser

    def stop(self) -> None:
        """Close the browser and Playwright (nothing when they are not running)."""
        if self._browser is not None:
            self._browser.close()
            self._playwright.stop()
            self._browser = self._playwright = None


class BackgroundLoop:
    """An event loop on its own thread, where the web UI (and the fake Discord) run while the test's thread drives
    the browser with Playwright's synchronous API."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="pbm-web-under-test", daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = LOOP_TIMEOUT) -> T:
        """Run ``coroutine`` on the loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(LOOP_TIMEOUT)
        self.loop.close()


@dataclass
class LiveSite:
    """The web UI under test, as a browser test uses it (see the module docstring)."""

    background: BackgroundLoop
    site: Site
    db: Path
    discord: Any = None

    @property
    def base(self) -> str:
        return self.site.base

    @property
    def clock(self) -> Any:
        """The app's clock: ``site.clock.now += 3600`` moves the games' time on."""
        return self.site.clock

    @property
    def actions(self) -> Any:
        return self.site.actions

    def url(self, path: str = "/") -> str:
        return self.base + path

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` (e.g. ``site.actions.challenge(...)``) on the server's loop."""
        return self.background.run(coroutine)

    def console(
        self, words: str, *, as_user: str | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """``pbm do`` on the same database at the app's time: what someone at the console types. ``check``: the
        command must succeed (exit code 0); without it, a refusal is returned to be looked at."""
        now = datetime.fromtimestamp(self.clock(), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        command = [sys.executable, "-m", "bot", "do", "--no-images", "--db", str(self.db), "--now", now]
        if as_user is not None:
            command += ["--as", as_user]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [*command, words], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=False
        )
        assert done.returncode == 0 or not check, (words, done.stdout, done.stderr)
        return done

    def link(self, player: str) -> str:
        """A one-time sign-in link for ``player``, as ``pbm web-link`` prints it."""
        return self.run(sign_in_link(self.site.store, player, self.base, self.clock()))

    def sign_in(self, page: Any, player: str) -> None:
        """Sign ``page``'s browser in as ``player`` with a one-time link (open it, press Sign in)."""
        page.goto(self.link(player))
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(self.url("/"))
        page.get_by_role("link", name=player, exact=True).first.wait_for()

    def play_as(self, page: Any, player: str) -> None:
        """In trusted local play (``make_site(local=True)``): type a name in "Play as" on the page shown."""
        page.get_by_label("Play as").fill(player)
        page.get_by_role("button", name="Go").click()
        page.get_by_role("link", name=player, exact=True).first.wait_for()


def sample_games(site: LiveSite) -> dict[str, int]:
    """One game of each kind (Druid under way, the others just started), a finished game (so the ratings have
    rows) and challenges in the lobby: the pages have everything they can show."""
    act = site.actions
    ids = {}
    for name, options in (("druid", ["-size=5"]), ("backgammon", []), ("dragons", []), ("drogo", [])):
        ids[name] = site.run(act.challenge(name, ["alice", "bob"], options, start=True)).game_id
    for number, move in enumerate(("c3", "b2", "d4")):
        assert site.run(act.move(ids["druid"], ("alice", "bob")[number % 2], move)).ok
    finished = site.run(act.challenge("druid", ["carol", "alice"], ["-size=5"], start=True)).game_id
    for number, move in enumerate(("c3", "b2")):
        assert site.run(act.move(finished, ("carol", "alice")[number % 2], move)).ok
    assert site.run(act.resign(finished, "carol")).ok  # after the first round: alice wins, rated
    ids["finished"] = finished
    assert site.run(act.challenge("druid", ["carol"], ["-size=7"], open_seats=1)).ok
    assert site.run(act.challenge("drogo", ["bob", "alice"], [])).ok
    return ids
