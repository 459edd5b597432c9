"""The Discord bot: construction without side effects (:func:`create_bot`), the loopback endpoints honoured before
login, sharding (every shard in one process, or ``PBM_SHARDS`` of ``PBM_SHARD_COUNT`` in each of several processes on
one database), command sync only when the command set changed and only by one process, a background sweep (expired
challenges, boards whose post failed, and what the actions' sweep reports: clock warnings, reminders, timeouts), the
rating chart's library loaded on a worker thread as the bot starts (so the first ``/profile`` is as quick as the
others), what ``/healthz`` and ``/metrics`` ask of it (:mod:`bot.ops`), and the ``pbm run`` / ``pbm sync`` entry
points.

SIGTERM stops the bot gracefully (:meth:`PbmBot.stop`): from that moment every new command, button or menu is
answered "the bot is stopping", the commands in flight finish (for at most :data:`DRAIN_SECONDS`), the sweep ends
after its round, and the process exits within ten seconds with everything it did committed."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any, TextIO

import aiohttp
import discord
import discord.asset
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from bot.actions import Actions, Result
from bot.actions.limits import CommandRate
from bot.board_files import Picture
from bot.config import Config
from bot.discord.admin import AdminCommands
from bot.discord.buttons import (
    ChallengeButton,
    MoveButton,
    MoveSelect,
    PreviewButton,
    ProposalButton,
    ReplayButton,
    ViewButton,
)
from bot.discord.cog import GameCommands, show_board_menu, word_commands
from bot.discord.failures import count, log_failure
from bot.discord.front import REPOST_GRACE, Front, render_board
from bot.discord.ratings import PageButton, RatingCommands
from bot.discord.thinking import ComputerPool, ComputerReplies
from bot.discord.tournaments import TournamentCommands, TournamentPoster
from bot.discord.tree import RatedTree
from bot.discord.web_bridge import web_command
from bot.logs import formatter
from bot.ops import Metrics, Ops, RateLimitCounter, serve_ops, timed_think
from data.store import Store
from render import chart

log = logging.getLogger("pbm.discord")
#: the longest pause between two sweeps, in seconds
MAX_SWEEP_INTERVAL = 60.0
#: seconds a process's claim to push the slash commands keeps others from pushing (a push takes about a second)
SYNC_LEASE = 300.0
#: the longest SIGTERM waits for the commands in flight, and then for those cut short to roll back: closing the
#: connections and the database takes the rest of the ten seconds a process manager allows before it kills
DRAIN_SECONDS = 6.5
CUT_SECONDS = 0.5
#: the longest the database may take to close at the end (a hung server's connections are cut)
CLOSE_SECONDS = 1.5
#: the names discord.py gives the tasks that handle an interaction: a slash command or autocomplete, a view's
#: button or menu, a dynamic item (every pbm button), a modal
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-", "discord-ui-modal-")


def apply_endpoints(config: Config) -> None:
    """Point discord.py at other Discord endpoints (a loopback fake in tests), each only when configured."""
    if config.api_base:
        discord.http.Route.BASE = config.api_base
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)
    if config.cdn_base:
        discord.asset.Asset.BASE = config.cdn_base


class PbmBot(commands.AutoShardedBot):
    """The pbm bot. The store opens in ``setup_hook`` (after login) and closes with the bot.

    It runs the shards ``config.shard_ids`` of ``config.shard_count`` (by default every shard Discord recommends,
    in this one process). Several processes on one database share the work: each receives the events of its own
    shards' guilds (DMs come to shard 0), any of them may post anywhere through REST, the sweep's timers are
    claimed in the database so each fires once, and only the process of shard 0 syncs the slash commands."""

    def __init__(
        self,
        config: Config,
        *,
        seed_source: Callable[[], int] | None = None,
        force_sync: bool = False,
        render: Callable[[Picture], bytes | None] = render_board,
        clock: Callable[[], float] | None = None,
        computers: ComputerPool | None = None,
    ) -> None:
        """``clock`` is the one time source of the actions (default: the system clock shifted by
        ``config.clock_offset``); tests pass one they move by hand. ``computers`` works out the computer players'
        moves (default: a :class:`ComputerPool` of worker processes)."""
        # pbm never joins a voice channel: discord.py's warnings that its voice libraries are missing mean nothing
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            shard_ids=list(config.shard_ids) if config.shard_ids is not None else None,
            shard_count=config.shard_count,
            tree_cls=RatedTree,
        )
        self.config = config
        self.force_sync = force_sync
        self.synced: bool | None = None
        self._seed_source = seed_source
        self._render = render
        self._store: Store | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: whether the sweeper is in a round (SIGTERM lets a round finish; a sweeper between rounds just ends)
        self._sweeping = False
        self._chart_ready: asyncio.Task[None] | None = None
        self._computers = computers or ComputerPool()
        self._replies: ComputerReplies | None = None
        #: what /metrics shows; /healthz and /metrics ask :attr:`ops` (see :mod:`bot.ops`)
        self.metrics = Metrics()
        self.ops = Ops(
            self.metrics,
            ping=self.ping_database,
            gateway_problem=self.gateway_problem,
            refresh=self.refresh_metrics,
        )
        self._rate_limits = RateLimitCounter(self.metrics)
        #: set by :meth:`stop`: new commands are answered "the bot is stopping" and the sweep ends
        self.stopping = False
        self._closing: asyncio.Future[None] | None = None
        offset = config.clock_offset
        self.clock: Callable[[], float] = clock or (lambda: time.time() + offset)
        #: each member's commands per server, on the same clock (see :mod:`bot.discord.tree`); ``None``: no rate
        self.command_rate = (
            CommandRate(self.clock, burst=config.command_burst, seconds=config.command_seconds)
            if config.command_burst
            else None
        )

    # attributes the cog and buttons use; set in setup_hook
    actions: Actions
    front: Front
    games: GameCommands
    ratings: RatingCommands
    admin: AdminCommands

    async def login(self, token: str) -> None:
        apply_endpoints(self.config)
        await super().login(token)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Every interaction is stamped with the moment it was read from the gateway (``extras["arrived"]``,
        ``time.monotonic()``), before any handler runs: a move is judged against the game as it stood then,
        however long it waits to be handled (see :meth:`bot.actions.play.PlayActions.move`)."""
        if event_name == "interaction" and args and isinstance(args[0], discord.Interaction):
            args[0].extras.setdefault("arrived", time.monotonic())
        elif event_name == "app_command_completion" and len(args) == 2:
            count(args[0], args[1].qualified_name)
        super().dispatch(event_name, *args, **kwargs)

    async def setup_hook(self) -> None:
        logging.getLogger("discord.http").addFilter(self._rate_limits)
        self._store = await Store.open(self.config.db_path, timeout=self.config.db_timeout)
        self._store.count_failures(lambda kind: self.metrics.database_errors.labels(kind=kind).inc())
        self.actions = Actions(
            self._store,
            seed_source=self._seed_source,
            challenge_ttl=self.config.challenge_ttl,
            think=timed_think(self._computers, self.metrics),
            think_now=self._computers.free,
            offload=asyncio.to_thread,
            ai_seconds=self.config.ai_seconds,
            reminder_interval=self.config.reminder_interval,
            clock=self.clock,
        )
        self.front = Front(self, self.actions, self._render, self.metrics)
        self.front.web_url = self.config.web_public_url
        self._replies = ComputerReplies(self.actions, lambda result, nonce: self.front.post_turn(result, nonce=nonce))
        self.front.computer_turn = self._replies.schedule
        self.games = GameCommands(self.actions, self.front)
        await self.add_cog(self.games)
        self.ratings = RatingCommands(self.actions, self.front, self.clock)
        await self.add_cog(self.ratings)
        self.admin = AdminCommands(self.actions, self.front)
        await self.add_cog(self.admin)
        poster = TournamentPoster(self, self.actions, self.front)
        self.front.present_news = poster.present
        await self.add_cog(TournamentCommands(self.actions, self.front, poster))
        for command in word_commands(self.games):
            self.tree.add_command(command)
        self.tree.add_command(show_board_menu(self.games))
        self.tree.add_command(web_command(self))
        self.add_dynamic_items(
            ChallengeButton, MoveButton, MoveSelect, ReplayButton, ViewButton, ProposalButton, PreviewButton, PageButton
        )
        # matplotlib's import and fonts, about a third of a second, are paid now on a worker thread rather than by
        # the first /profile; nothing waits for it
        self._chart_ready = asyncio.create_task(self._prepare_charts())
        if self.force_sync or self.config.runs_shard_zero:
            self.synced = await sync_if_changed(self, self._store, force=self.force_sync)
        else:
            log.info("commands are synced by the process of shard 0; not this one (shards %s)", self.shard_ids)
            self.synced = False
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def _prepare_charts(self) -> None:
        try:
            await asyncio.to_thread(chart.prepare)
        except Exception:
            log.exception("preparing the rating charts failed; the first /profile will draw more slowly")

    async def close(self) -> None:
        """Close everything once, however many callers ask (SIGTERM's stop and ``async with`` both do): each waits
        for the same closing, which none of them can cut short by being cancelled."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._closing)

    async def __aexit__(self, *exc: object) -> None:
        """Leaving ``async with`` waits for the whole closing (discord.py's own waits only for its connections
        when a close has begun, and the database's close would be cut short when the event loop ends)."""
        await self.close()

    async def _close_once(self) -> None:
        if self._chart_ready is not None:
            await self._chart_ready  # a worker thread cannot be stopped; it ends within a second
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await super().close()
        if self._replies is not None:
            await self._replies.close()
        self._computers.close()
        logging.getLogger("discord.http").removeFilter(self._rate_limits)
        if self._store is not None:
            store, self._store = self._store, None
            try:
                await asyncio.wait_for(store.close(), CLOSE_SECONDS)
            except Exception as exc:  # a server that does not answer: its connections are cut
                log.warning("the database did not close cleanly: %s", exc)

    async def stop(self, grace: float = DRAIN_SECONDS) -> None:
        """Stop as SIGTERM asks: take no new commands (each is answered "the bot is stopping"), let the commands
        in flight and the sweep's round finish, for at most ``grace`` seconds (what is still running then is cut
        short: its transaction is rolled back, and its board is posted by the next sweep after a restart), then
        close."""
        if self.stopping:
            return
        self.stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        running = self._in_flight()
        log.info("stopping: no new commands; waiting for %d in flight", len(running))
        while running:
            left = deadline - loop.time()
            if left <= 0:
                log.warning("stopping: %d still running after %g seconds are cut short", len(running), grace)
                for task in running:
                    task.cancel()
                await asyncio.wait(running, timeout=CUT_SECONDS)
                break
            await asyncio.wait(running, timeout=left)
            running = self._in_flight()
        await self.close()

    def _in_flight(self) -> set[asyncio.Task[Any]]:
        """The tasks handling interactions now (see :data:`HANDLER_TASKS`), and the sweep while it sweeps."""
        current = asyncio.current_task()
        tasks = {
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(HANDLER_TASKS)
        }
        if self._sweeping and self._sweeper is not None and not self._sweeper.done():
            tasks.add(self._sweeper)
        return tasks

    # ---- what /healthz and /metrics ask --------------------------------------------------------------------

    def gateway_problem(self) -> str | None:
        """Why this process is not ready apart from its database: stopping, closed, still connecting, or a shard
        disconnected (discord.py is reconnecting it); ``None`` when every shard's gateway connection is open."""
        if self.stopping:
            return "stopping"
        if self.is_closed():
            return "closed"
        if not self.shards:
            return "connecting"
        down = sorted(shard_id for shard_id, shard in self.shards.items() if shard.is_closed())
        if down:
            return f"disconnected (shard {', '.join(map(str, down))}); reconnecting"
        return None

    async def ping_database(self) -> None:
        """One round trip to the database (see :meth:`data.store.Store.ping`)."""
        if self._store is None:
            raise RuntimeError("the database is not open yet")
        await self._store.ping()

    async def refresh_metrics(self) -> None:
        """The figures ``/metrics`` reads from the database: how overdue the oldest due timer is (the sweep's lag;
        up to a sweep interval is normal), and how many boards are still to be posted."""
        if self._store is None:
            raise RuntimeError("the database is not open yet")
        due = await self._store.oldest_timer_due()
        self.metrics.sweep_lag.set(0.0 if due is None else max(0.0, self.clock() - due))
        self.metrics.boards_unposted.set(len(await self._store.unposted_boards()))

    # ---- the sweep -----------------------------------------------------------------------------------------

    def sweep_interval(self) -> float:
        """How often challenges, failed posts and idle games are looked at."""
        return min(MAX_SWEEP_INTERVAL, self.config.challenge_ttl / 4, self.config.reminder_interval / 4)

    async def _sweep_forever(self) -> None:
        """Sweep at once (boards whose post failed before a restart go out on start), again as soon as the boards
        a crash left unposted are due (:data:`REPOST_GRACE` after their move), then every interval; the sweep only
        uses REST, so it does not wait for the gateway."""
        pause = min(self.sweep_interval(), REPOST_GRACE + 1.0)
        while not self._sweep_ends():
            self._sweeping = True
            try:
                await self.sweep()
            except Exception as exc:
                log_failure("sweep (retried at the next interval)", exc)
            finally:
                self._sweeping = False
            if self._sweep_ends():
                return
            await asyncio.sleep(pause)
            pause = self.sweep_interval()

    def _sweep_ends(self) -> bool:
        """Whether the sweep should stop: the bot stops or closes. Closing also cancels the sweeper, but a
        cancellation that lands inside a library call can be lost there (seen under load: the round ended
        normally, and the sweeper slept on while the close waited for it), so the loop asks as well."""
        return self.stopping or self._closing is not None or self.is_closed()

    async def sweep(self) -> None:
        """Close expired challenges, post boards whose post failed, and tell what the actions' sweep did (clock
        warnings, reminders, timeouts, vacations running out, proposals expiring, pings held through quiet
        hours)."""
        for result in await self.actions.expire_challenges():
            await self._mark_expired(result)
        await self.front.repost_pending()
        for notice in await self.actions.sweep():
            try:
                await self.front.present_notice(notice)
            except Exception as exc:
                log_failure(f"presenting a {notice.kind} notice for game {notice.game_id}", exc)
        assert self._replies is not None
        for game_id in await self.actions.computers_waiting(self.computer_patience()):
            self._replies.schedule(game_id)

    def computer_patience(self) -> float:
        """How long a computer player's turn may wait before the sweep takes it up (it was thinking when the bot
        stopped): well beyond the longest think, so a move being worked out is never asked for twice. (This
        process skips the games it is thinking about or has queued, however long they wait.)"""
        return 4 * (self.config.ai_seconds or 2.0) + 30.0

    async def _mark_expired(self, result: Result) -> None:
        assert result.challenge_id is not None
        row = await self.actions.store.load_challenge(result.challenge_id)
        if row.channel_id is None or row.message_id is None:
            return
        try:
            channel = self.get_channel(row.channel_id) or await self.fetch_channel(row.channel_id)
            assert isinstance(channel, discord.abc.Messageable)
            message = await channel.fetch_message(row.message_id)
            await message.edit(content=f"{message.content}\n{result.message}"[:2000], view=None)
        except discord.HTTPException as exc:
            log.warning("could not mark challenge %s expired: %s", row.id, exc)


def command_digest(bot: commands.Bot, guild: discord.abc.Snowflake | None) -> str:
    """A hash of the command set as it would be sent to Discord."""
    payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands(guild=guild)]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


async def sync_if_changed(bot: PbmBot, store: Store, *, force: bool = False) -> bool:
    """Push the commands (to ``DISCORD_GUILD_ID`` or globally) when their hash differs from the last push, or
    when forced; Discord allows 200 command creations a day per guild. Unless forced, the push is claimed in the
    database first (:meth:`Store.claim_meta`), so of several processes started together exactly one pushes; the
    others find the claim, or the new hash, and leave it."""
    guild = discord.Object(bot.config.guild_id) if bot.config.guild_id else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    digest = command_digest(bot, guild)
    key = f"commands:{bot.config.guild_id or 'global'}"
    claim = f"{key}:pushing"
    if not force:
        if await store.get_meta(key) == digest:
            log.info("commands unchanged since the last sync; not syncing")
            return False
        if not await store.claim_meta(claim, unless=(key, digest), now=time.time(), lease=SYNC_LEASE):
            log.info("another process is syncing the commands, or has just done it; not syncing")
            return False
    try:
        await bot.tree.sync(guild=guild)
        await store.set_meta(key, digest)
    finally:
        if not force:
            await store.release_meta(claim)
    log.info("commands synced %s", f"to guild {bot.config.guild_id}" if guild else "globally")
    return True


def create_bot(config: Config, **options: object) -> PbmBot:
    """A bot for ``config``; nothing happens until it is started. ``options`` go to :class:`PbmBot`."""
    return PbmBot(config, **options)  # type: ignore[arg-type]


#: what runs beside the bot in its event loop for as long as the bot does (the web UI, see ``pbm run``)
Alongside = Callable[["PbmBot"], contextlib.AbstractAsyncContextManager[Any]]


class OpsPortError(Exception):
    """``PBM_METRICS_PORT`` cannot be served (taken, or not ours to take); the message says so in one line."""


async def _run(config: Config, alongside: Alongside | None = None) -> None:
    """``pbm run``: the bot, what runs ``alongside`` it (the web UI, which serves ``/healthz`` and ``/metrics`` on
    its own port), ``/healthz`` and ``/metrics`` alone on ``PBM_METRICS_PORT`` when set, and SIGTERM's graceful
    stop (:meth:`PbmBot.stop`)."""
    bot = create_bot(config)
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.stop()))
    runner = None
    if config.metrics_port is not None:
        try:
            runner = await serve_ops(bot.ops, config.metrics_host, config.metrics_port)
        except OSError as exc:
            raise OpsPortError(
                f"cannot serve /healthz and /metrics on {config.metrics_host}:{config.metrics_port}"
                f" ({os.strerror(exc.errno) if exc.errno else exc}); choose another PBM_METRICS_PORT"
            ) from exc
    try:
        async with bot, alongside(bot) if alongside is not None else contextlib.nullcontext():
            assert config.token is not None
            await bot.start(config.token)
    finally:
        if runner is not None:
            await runner.cleanup()
    if bot.stopping:
        log.info("stopped")


def _unreachable(exc: BaseException) -> str | None:
    """One line for a failure to talk to Discord at all, or ``None`` for anything else (a bug: re-raised)."""
    if isinstance(exc, OpsPortError):
        return str(exc)
    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token: check DISCORD_TOKEN (or --token)"
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord refused the connection: the bot asks for an intent that is not enabled"
    if isinstance(exc, discord.HTTPException):
        return f"cannot reach Discord: it answered {exc.status} {exc.text or ''}".rstrip()
    if isinstance(exc, discord.GatewayNotFound | discord.ConnectionClosed):
        return f"cannot reach Discord: the gateway is unavailable ({exc})"
    if isinstance(exc, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        reason = str(exc) or type(exc).__name__
        return f"cannot reach Discord: {reason.splitlines()[0]}"
    return None


def setup_logging(*, verbose: bool = False, stream: TextIO | None = None, log_format: str = "text") -> None:
    """discord.py's logging on stderr (or ``stream``), one line per event (:mod:`bot.logs`): JSON lines with
    ``log_format="json"``, else text, in colour only on a terminal (discord.py colours any stream inside a
    container too, and a log file or a service's journal would fill with escape codes)."""
    handler = logging.StreamHandler(stream)
    terminal = hasattr(handler.stream, "isatty") and handler.stream.isatty()
    discord.utils.setup_logging(
        handler=handler,
        formatter=discord.utils.MISSING if terminal and log_format == "text" else formatter(log_format),
        level=logging.DEBUG if verbose else logging.INFO,
    )


def _serve(main: Callable[[], Coroutine[Any, Any, None]], verbose: bool, log_format: str = "text") -> int:
    """Run ``main`` with discord.py's logging (:func:`setup_logging`); a failure to reach Discord is one line on
    stderr and exit 2 (the details only with ``--verbose``), Ctrl-C a clean exit."""
    setup_logging(verbose=verbose, log_format=log_format)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        line = _unreachable(exc)
        if line is None:
            raise
        if verbose:
            log.error("details", exc_info=exc)
        print(f"pbm: {line}", file=sys.stderr)
        return 2
    return 0


def run_bot(config: Config, *, verbose: bool = False, alongside: Alongside | None = None) -> int:
    """``pbm run``: serve until stopped (SIGTERM stops gracefully, see :meth:`PbmBot.stop`; Ctrl-C closes the
    connection and the database); ``alongside`` runs in the same event loop for as long as the bot does (the web
    UI)."""
    return _serve(lambda: _run(config, alongside), verbose, config.log_format)


async def push_commands(config: Config) -> None:
    """Log in, push the commands whatever the stored hash says, and log out."""
    bot = create_bot(config, force_sync=True)
    async with bot:
        assert config.token is not None
        await bot.login(config.token)


def sync_commands(config: Config, *, verbose: bool = False) -> int:
    """``pbm sync``: push the slash commands now, whatever the stored hash says."""
    return _serve(lambda: push_commands(config), verbose, config.log_format)
