"""What an operator watches: ``GET /healthz`` for a process manager and ``GET /metrics`` for Prometheus.

``/healthz`` answers 200 when the process is ready (the database answers and the gateway is connected) and 503
otherwise (the database is unavailable, the gateway is down or still connecting, the process is stopping), with a
small JSON object saying which. It never waits more than :data:`HEALTH_WAIT` seconds: a database that hangs is
"not answering", and a probe does not pile a second query on one that is still out.

``/metrics`` is Prometheus' text format (``prometheus-client``), one registry per bot (:class:`Metrics`): commands
by name and outcome with their latency from the moment the interaction arrived, moves played, boards posted,
Discord's 429s, the sweep's lag (how overdue the oldest timer is), boards still to be posted, computer moves
waiting and how long they took, and the database's failures. The figures read from the database are read when
Prometheus asks.

The routes are added to any aiohttp application with :func:`add_ops_routes` (the web server's, when it runs), or
served alone by :func:`serve_ops` (``PBM_METRICS_PORT`` when the web server is off). Nothing here knows Discord:
the bot gives an :class:`Ops` what it knows (its gateway, its database).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from rules.base import GameState

log = logging.getLogger("pbm.ops")

#: the longest ``/healthz`` waits for the database before it says "not answering" (a process manager's probe
#: gives up after a second or a few)
HEALTH_WAIT = 2.0
#: latency buckets of a command, in seconds: from an answer at once to Discord's 15 minutes
COMMAND_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0)
#: buckets of a computer move, in seconds (its think time is 0.5 to 2 s by default; waiting in the queue adds)
COMPUTER_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 120.0)
#: the paths :func:`add_ops_routes` serves (the web UI answers them without reading a viewer or a session)
OPS_PATHS = frozenset({"/healthz", "/metrics"})
#: what discord.py logs (logger ``discord.http``) for every 429 Discord answers
RATE_LIMITED_LOG = "We are being rate limited."


class Metrics:
    """Every figure ``/metrics`` shows, in a registry of its own (tests run several bots in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.commands = Counter(
            "pbm_commands",
            "Commands (slash commands, menus, buttons) handled, by name and outcome: done, failed, unavailable "
            "(the database was), slowed (over the command rate), stopping (arrived while the process stopped)",
            ["command", "outcome"],
            registry=r,
        )
        self.command_seconds = Histogram(
            "pbm_command_seconds",
            "Seconds from a command's arrival to the end of its handling",
            ["command"],
            buckets=COMMAND_BUCKETS,
            registry=r,
        )
        self.moves = Counter("pbm_moves", "Moves members played through Discord (commands, buttons, menus)", registry=r)
        self.boards_posted = Counter(
            "pbm_boards_posted",
            "Turn messages (boards) posted in game threads: after an action (turn) or by the sweep (repost)",
            ["how"],
            registry=r,
        )
        self.rate_limited = Counter("pbm_discord_rate_limited", "Requests Discord answered with 429", registry=r)
        self.sweep_lag = Gauge(
            "pbm_sweep_lag_seconds", "How long the oldest due timer (warning, timeout, reminder) is overdue", registry=r
        )
        self.boards_unposted = Gauge(
            "pbm_boards_unposted", "Boards committed but not yet posted (the sweep posts them)", registry=r
        )
        self.computer_waiting = Gauge(
            "pbm_computer_moves_waiting",
            "Computer moves asked for and not yet answered (waiting for a worker or being worked out)",
            registry=r,
        )
        self.computer_seconds = Histogram(
            "pbm_computer_move_seconds",
            "Seconds from asking for a computer move to its answer (its think time and any wait for a worker)",
            buckets=COMPUTER_BUCKETS,
            registry=r,
        )
        self.database_errors = Counter(
            "pbm_database_errors",
            "Failures of the database: unavailable (stopped, unreachable), timeout (no answer within the statement"
            " timeout), error (a statement refused)",
            ["kind"],
            registry=r,
        )
        self.database_up = Gauge(
            "pbm_database_up", "1 when the database answered the last probe (/healthz or /metrics), else 0", registry=r
        )
        self.database_up.set(1)

    def command(self, name: str, outcome: str, seconds: float | None) -> None:
        """One command handled: its name, how it ended, and how long since it arrived (``None``: not known)."""
        self.commands.labels(command=name, outcome=outcome).inc()
        if seconds is not None:
            self.command_seconds.labels(command=name).observe(max(0.0, seconds))

    def render(self) -> bytes:
        """The registry in Prometheus' text format."""
        return generate_latest(self.registry)


def timed_think(
    think: Callable[[GameState, str, float | None], Awaitable[tuple[str, str]]], metrics: Metrics
) -> Callable[[GameState, str, float | None], Awaitable[tuple[str, str]]]:
    """``think`` (the actions' computer player) counted: moves waiting meanwhile, and the time each took."""

    async def counted(state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
        metrics.computer_waiting.inc()
        started = time.monotonic()
        try:
            return await think(state, player, seconds)
        finally:
            metrics.computer_waiting.dec()
            metrics.computer_seconds.observe(time.monotonic() - started)

    return counted


class RateLimitCounter(logging.Filter):
    """Counts Discord's 429s as discord.py reports them (it retries them itself and says so only in its log). It
    sits on the ``discord.http`` logger, which every client of a process shares: with several bots in one process
    (tests), each counts every bot's 429s."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()
        self.metrics = metrics

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(RATE_LIMITED_LOG):
            self.metrics.rate_limited.inc()
        return True


class Ops:
    """The process as ``/healthz`` and ``/metrics`` see it: its :class:`Metrics`, a round trip to its database
    (``ping``), why it is not ready apart from the database (``gateway_problem``: the gateway is down, the process
    is stopping; ``None`` when all is well) and how to read the figures that come from the database
    (``refresh``)."""

    def __init__(
        self,
        metrics: Metrics,
        *,
        ping: Callable[[], Awaitable[None]],
        gateway_problem: Callable[[], str | None],
        refresh: Callable[[], Awaitable[None]],
    ) -> None:
        self.metrics = metrics
        self._ping = ping
        self._gateway_problem = gateway_problem
        self._refresh = refresh
        #: the database query of the last probe; a probe never starts a second one while it is out
        self._pinging: asyncio.Task[None] | None = None

    async def database_problem(self, wait: float = HEALTH_WAIT) -> str | None:
        """Why the database is not usable now, or ``None`` when it answered. At most one query is out at a time:
        a probe while the last one still waits on a hung server waits on that one, for at most ``wait``."""
        if self._pinging is None or self._pinging.done():
            self._pinging = asyncio.create_task(self._ping())
            # its failure is read here, or by nobody when it ends after the probe gave up: never left unretrieved
            self._pinging.add_done_callback(lambda done: done.cancelled() or done.exception())
        task = self._pinging
        done, _ = await asyncio.wait({task}, timeout=wait)
        if not done:
            self.metrics.database_up.set(0)
            return f"no answer within {wait:g} seconds"
        error = task.exception()
        self.metrics.database_up.set(0 if error else 1)
        if error is None:
            return None
        return str(error).splitlines()[0] if str(error) else type(error).__name__

    async def readiness(self) -> tuple[int, dict[str, Any]]:
        """``/healthz``'s status code and body: 200 and ``ready`` when nothing is wrong, else 503 with each part."""
        database = await self.database_problem()
        gateway = self._gateway_problem()
        ready = database is None and gateway is None
        body = {"ready": ready, "database": database or "ok", "gateway": gateway or "connected"}
        return (200 if ready else 503), body

    async def metrics_text(self) -> bytes:
        """``/metrics``: the figures from the database read now (when it answers within :data:`HEALTH_WAIT`; else
        they keep their last values and ``pbm_database_up`` is 0), then the whole registry."""
        try:
            await asyncio.wait_for(self._refresh(), HEALTH_WAIT)
        except Exception as exc:
            self.metrics.database_up.set(0)
            log.warning("metrics: the figures from the database could not be read: %s", exc)
        return self.metrics.render()


def add_ops_routes(app: web.Application, ops: Ops) -> None:
    """``GET /healthz`` and ``GET /metrics`` on ``app`` (the web server's, or :func:`serve_ops`'s own)."""

    async def healthz(request: web.Request) -> web.Response:
        status, body = await ops.readiness()
        return web.Response(
            text=json.dumps(body), status=status, content_type="application/json", headers={"Cache-Control": "no-store"}
        )

    async def metrics(request: web.Request) -> web.Response:
        response = web.Response(body=await ops.metrics_text(), headers={"Cache-Control": "no-store"})
        response.content_type = CONTENT_TYPE_LATEST.split(";")[0]
        response.charset = "utf-8"
        return response

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)


async def serve_ops(ops: Ops, host: str, port: int) -> web.AppRunner:
    """Serve ``/healthz`` and ``/metrics`` alone on ``host:port`` until the runner is cleaned up."""
    app = web.Application()
    add_ops_routes(app, ops)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    log.info("health and metrics on http://%s:%s/healthz and /metrics", host, port)
    return runner
