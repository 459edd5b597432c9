"""The Discord bot: construction without side effects (:func:`create_bot`), the loopback endpoints honoured before
login, sharding (every shard in one process, or ``PBM_SHARDS`` of ``PBM_SHARD_COUNT`` in each of several processes on
one database), command sync only when the command set changed and only by one process, a background sweep (expired
challenges, boards whose post failed, and what the actions' sweep reports: clock warnings, reminders, timeouts), the
rating chart's library loaded on a worker thread as the bot starts (so the first ``/profile`` is as quick as the
others), and the ``pbm run`` / ``pbm sync`` entry points with a clean exit on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
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
from bot.discord.front import REPOST_GRACE, Front, render_board
from bot.discord.ratings import PageButton, RatingCommands
from bot.discord.thinking import ComputerPool
from bot.discord.tournaments import TournamentCommands, TournamentPoster
from bot.discord.tree import RatedTree
from bot.discord.web_bridge import web_command
from data.store import Store
from render import chart

log = logging.getLogger("pbm.discord")
#: the longest pause between two sweeps, in seconds
MAX_SWEEP_INTERVAL = 60.0
#: seconds a process's claim to push the slash commands keeps others from pushing (a push takes about a second)
SYNC_LEASE = 300.0
#: a log line where there is no terminal to colour it: discord.py's own plain format
LOG_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
LOG_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


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
    ) -> None:
        """``clock`` is the one time source of the actions (default: the system clock shifted by
        ``config.clock_offset``); tests pass one they move by hand."""
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
        self._chart_ready: asyncio.Task[None] | None = None
        self._computers = ComputerPool()
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
        super().dispatch(event_name, *args, **kwargs)

    async def setup_hook(self) -> None:
        self._store = await Store.open(self.config.db_path)
        self.actions = Actions(
            self._store,
            seed_source=self._seed_source,
            challenge_ttl=self.config.challenge_ttl,
            think=self._computers,
            offload=asyncio.to_thread,
            ai_seconds=self.config.ai_seconds,
            reminder_interval=self.config.reminder_interval,
            clock=self.clock,
        )
        self.front = Front(self, self.actions, self._render)
        self.front.web_url = self.config.web_public_url
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
        if self._chart_ready is not None:
            await self._chart_ready  # a worker thread cannot be stopped; it ends within a second
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await super().close()
        self._computers.close()
        if self._store is not None:
            await self._store.close()
            self._store = None

    # ---- the sweep -----------------------------------------------------------------------------------------

    def sweep_interval(self) -> float:
        """How often challenges, failed posts and idle games are looked at."""
        return min(MAX_SWEEP_INTERVAL, self.config.challenge_ttl / 4, self.config.reminder_interval / 4)

    async def _sweep_forever(self) -> None:
        """Sweep at once (boards whose post failed before a restart go out on start), again as soon as the boards
        a crash left unposted are due (:data:`REPOST_GRACE` after their move), then every interval; the sweep only
        uses REST, so it does not wait for the gateway."""
        pause = min(self.sweep_interval(), REPOST_GRACE + 1.0)
        while not self.is_closed():
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed; retrying at the next interval")
            await asyncio.sleep(pause)
            pause = self.sweep_interval()

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
            except Exception:
                log.exception("could not present a %s notice for game %s", notice.kind, notice.game_id)
        for result in await self.actions.resume_computers(self.computer_patience()):
            await self.front.post_turn(result)

    def computer_patience(self) -> float:
        """How long a computer player's turn may wait before the sweep takes it up (it was thinking when the bot
        stopped): well beyond the longest think, so a move being worked out is never asked for twice."""
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


async def _run(config: Config, alongside: Alongside | None = None) -> None:
    bot = create_bot(config)
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot, alongside(bot) if alongside is not None else contextlib.nullcontext():
        assert config.token is not None
        await bot.start(config.token)


def _unreachable(exc: BaseException) -> str | None:
    """One line for a failure to talk to Discord at all, or ``None`` for anything else (a bug: re-raised)."""
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


def setup_logging(*, verbose: bool = False, stream: TextIO | None = None) -> None:
    """discord.py's logging on stderr (or ``stream``), in colour only on a terminal: discord.py colours any
    stream inside a container too, and a log file (or a service's journal) would fill with escape codes."""
    handler = logging.StreamHandler(stream)
    terminal = hasattr(handler.stream, "isatty") and handler.stream.isatty()
    discord.utils.setup_logging(
        handler=handler,
        formatter=discord.utils.MISSING if terminal else logging.Formatter(LOG_FORMAT, LOG_TIME_FORMAT, style="{"),
        level=logging.DEBUG if verbose else logging.INFO,
    )


def _serve(main: Callable[[], Coroutine[Any, Any, None]], verbose: bool) -> int:
    """Run ``main`` with discord.py's logging (:func:`setup_logging`); a failure to reach Discord is one line on
    stderr and exit 2 (the details only with ``--verbose``), Ctrl-C a clean exit."""
    setup_logging(verbose=verbose)
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
    """``pbm run``: serve until stopped (SIGTERM or Ctrl-C closes the connection and the database cleanly);
    ``alongside`` runs in the same event loop for as long as the bot does (the web UI)."""
    return _serve(lambda: _run(config, alongside), verbose)


async def push_commands(config: Config) -> None:
    """Log in, push the commands whatever the stored hash says, and log out."""
    bot = create_bot(config, force_sync=True)
    async with bot:
        assert config.token is not None
        await bot.login(config.token)


def sync_commands(config: Config, *, verbose: bool = False) -> int:
    """``pbm sync``: push the slash commands now, whatever the stored hash says."""
    return _serve(lambda: push_commands(config), verbose)
