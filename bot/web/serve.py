"""Serving the web UI: alone (``pbm web``; ``pbm run`` without a Discord token, which also trusts the local user
and keeps the games' clocks), or beside the bot in the same process and event loop (``pbm run``).

The web opens its own connection to the database and its own :class:`bot.actions.Actions`, so it answers while
the bot connects or reconnects, and any process answers for any game: everything it shows comes from the store.
Computer players it must move for think on a worker thread, so the event loop keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from bot.actions import Actions, decide_now
from bot.config import WebConfig
from bot.ops import Ops
from bot.web.app import Announcer, create_app
from data.store import Store
from rules.base import GameState

log = logging.getLogger("pbm.web")

#: seconds between two sweeps of a web UI that runs without the bot (clocks, reminders, expired challenges)
SWEEP_SECONDS = 30.0
#: how long a closing server lets open requests (the event streams) finish
SHUTDOWN_SECONDS = 1.0


class WebStartError(Exception):
    """The web UI could not start (its address is taken, or cannot be used); one line for people."""


async def think_in_thread(state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
    """A computer player's move, worked out on a worker thread (the event loop keeps serving pages)."""
    return await asyncio.to_thread(decide_now, state, player, seconds)


@dataclass
class RunningWeb:
    """A web UI being served: its actions, its application and the address it listens at."""

    actions: Actions
    app: web.Application
    address: str


@contextlib.asynccontextmanager
async def web_server(
    config: WebConfig,
    db_path: Path | str,
    *,
    local: bool = False,
    announcer: Announcer | None = None,
    sweep: bool = False,
    ai_seconds: float | None = None,
    clock: Callable[[], float] = time.time,
    ops: Ops | None = None,
) -> AsyncIterator[RunningWeb]:
    """Serve the web UI on ``db_path`` while the block runs. ``local``: trusted local play may be on (``pbm run``
    without a token); ``sweep``: this process also acts on the clocks' timers and expired challenges (when no
    bot does); ``announcer``: the bot's Discord front, when it runs in this process; ``ops``: the bot's
    ``/healthz`` and ``/metrics``, served on the web UI's port too. :class:`WebStartError` when the address cannot
    be listened at."""
    store = await Store.open(db_path)
    try:
        actions = Actions(store, think=think_in_thread, offload=asyncio.to_thread, ai_seconds=ai_seconds, clock=clock)
        app = create_app(actions, config, local=local, clock=clock, announcer=announcer, ops=ops)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            site = web.TCPSite(runner, config.host, config.port)
            try:
                await site.start()
            except OSError as exc:
                reason = os.strerror(exc.errno).lower() if exc.errno else str(exc)
                raise WebStartError(f"the web UI cannot listen at {config.host}:{config.port} ({reason})") from exc
            port = runner.addresses[0][1] if runner.addresses else config.port
            address = WebConfig(host=config.host, port=port).local_address
            sweeper = asyncio.create_task(_sweep_forever(actions)) if sweep else None
            try:
                yield RunningWeb(actions, app, address)
            finally:
                if sweeper is not None:
                    sweeper.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await sweeper
        finally:
            await runner.cleanup()
    finally:
        await store.close()


async def _sweep_forever(actions: Actions) -> None:
    """What the bot's sweep does for the games' clocks, for a web UI that runs without the bot: warnings,
    reminders and timeouts take effect, challenges expire, computer players left thinking move. Timers are claimed
    in the database, so this never doubles what another process does."""
    while True:
        try:
            await actions.expire_challenges()
            await actions.sweep()
            await actions.resume_computers(60.0)
        except Exception:
            log.exception("the web UI's sweep failed; trying again shortly")
        await asyncio.sleep(SWEEP_SECONDS)


def serve_until_stopped(
    config: WebConfig, db_path: Path | str, *, local: bool, say: Callable[[str], None], ai_seconds: float | None = None
) -> int:
    """``pbm web`` and ``pbm run`` without a token: serve until Ctrl-C or SIGTERM; ``say`` prints the address.
    The exit code: 0 when stopped, 2 when the web UI could not start."""
    import signal

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(number, stop.set)
        async with web_server(config, db_path, local=local, sweep=local, ai_seconds=ai_seconds) as running:
            say(f"The web UI is at {running.address} (Ctrl-C stops it).")
            await stop.wait()

    try:
        asyncio.run(main())
    except WebStartError as exc:
        print(f"pbm: {exc}", flush=True, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
