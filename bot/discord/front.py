"""Presenting action results in Discord: who a Discord user is as a player, the game's thread, the turn message
(board picture, what happened, a ping of the player to move and only them), DMs to players who opted in, and
messages for spectators. No game logic: everything shown comes from a :class:`bot.actions.Result`.

Posting never undoes a move. The move is committed before anything is posted; when posting fails (missing
permission, Discord down) the failure is logged for the admin, explained to the player, and the game is marked
so the board is posted again on the next sweep. A move's commit itself marks its board as still to be posted,
and the post carries a nonce Discord enforces (one message per nonce within minutes): a process that dies between
the commit and the post leaves the mark, another sweep posts the board, and a post that did go out just before
the death is not made twice.

A board is posted at most once, outages of the database included. A post that went out while the database could
not take its mark off (it became unavailable just then) is remembered by this process and its mark taken off as
soon as the database answers, before the sweep reads the marks again. And Discord keeps a nonce for only a few
minutes, so before a repost the sweep looks at the game's thread: when its newest turn message already shows the
position (the same headline: game, move number, who is to move), the board was posted, and only its mark goes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from ai import is_ai
from bot import board_files
from bot.actions import Actions, Notice, Result
from bot.board_files import Picture
from bot.discord.buttons import move_view
from bot.discord.followups import Upload
from bot.discord.layout import headline, turn_layout, turn_text
from bot.identity import player_of_discord_account
from bot.ops import Metrics
from data.store import DatabaseUnavailableError, GameRow, NotFoundError, ProposalRow, StaleWriteError

log = logging.getLogger("pbm.discord")

THREAD_ARCHIVE_MINUTES = 10080
#: where older versions listed the games whose board post failed (one JSON list; now a mark per game)
LEGACY_UNPOSTED_KEY = "unposted"
#: how long one process may hold the repost of a board before another may take it over (seconds)
REPOST_LEASE = 120.0
#: seconds after a game's last change before the sweep posts a board its commit marked: until then the process
#: that made the move may still be posting it
REPOST_GRACE = 10.0
#: the characters of a plain message's content (Discord's limit)
PLAIN_LIMIT = 2000
#: ends the mark of a board whose post failed: nobody is posting it, the next sweep does
FAILED = " failed"
#: the line a proposal's message ends with once the game moved on before it was answered (its buttons are gone)
VOID_LINE = "No longer open: the game moved on before everyone answered."
#: how many of a thread's newest messages a repost looks through for the turn message it would post
THREAD_LOOKBACK = 20
#: what each permission is called in Discord's settings, for messages to users and admins
PERMISSION_NAMES = {
    "create_public_threads": "Create Public Threads",
    "create_private_threads": "Create Private Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "send_messages": "Send Messages",
    "send_messages_in_threads_or_attach_files": "Send Messages in Threads** or **Attach Files",
}


class PostError(Exception):
    """Something could not be shown in Discord; the message says what and what the admin should fix."""


@dataclass
class Posted:
    """Where a turn message went, and what could not be done (for the acting player's reply)."""

    thread: discord.Thread | None
    message: discord.Message | None
    problems: list[str]


def new_nonce() -> str:
    """A Discord message nonce for one board post: 20 characters (Discord takes up to 25), never repeated."""
    return secrets.token_hex(10)


def render_board(board: Picture) -> bytes | None:
    """The PNG of a board picture, drawn as the console draws it; runs in a worker thread. Separate so tests can
    slow it down."""
    return board.png()


def picture_name(result: Result, view: str = "top") -> str:
    """The board picture's file name, the same for every post of a game and as the console names it
    ("druid-12.png"; its 3D view "druid-12-3d.png")."""
    assert result.game_id is not None
    game = result.state.game.name if result.state is not None else str(result.game_type)
    return board_files.file_name(game, result.game_id, view=view)


def picture(result: Result, png: bytes) -> discord.File:
    """A fresh attachment of the board picture (discord.py consumes a file with the request that sends it)."""
    return Upload(picture_name(result), png).file()


def is_their_move(result: Result, player: str) -> bool:
    """Whether ``player`` is to move in the game a turn shows: a finished game waits on nobody, so nobody pinged
    about it is told "your move"."""
    state = result.state
    return state is not None and not state.is_over and result.status in (None, "active") and player == result.to_move


def waits_on_computer(result: Result) -> bool:
    """Whether the game a turn shows waits on a computer player's move."""
    state = result.state
    to_move = result.to_move
    running = state is not None and not state.is_over and result.status in (None, "active")
    return running and to_move is not None and is_ai(to_move)


def text_board(result: Result) -> str:
    """The board as text in a code block, for a message without the picture; "" when there is no board. The
    board alone: the clocks and ratings are in the turn's text above it (:func:`bot.discord.layout.turn_text`)."""
    text = result.state.text_board() if result.state is not None else ""
    return f"```\n{text[:1800]}\n```" if text else ""


def with_text_board(content: str, result: Result) -> str:
    """A plain turn message: ``content`` and the text board under it, within Discord's 2,000 characters."""
    board = text_board(result)
    return (content + (f"\n{board}" if board else ""))[:2000]


def message_text(message: discord.Message) -> str:
    """What a message says as text: its content, or (a layout message) its text displays, in order."""
    parts = [message.content] if message.content else []

    def walk(components: list[object]) -> None:
        for component in components:
            content = getattr(component, "content", None)
            if isinstance(content, str):
                parts.append(content)
            walk(list(getattr(component, "children", None) or []))

    walk(list(message.components))
    return "\n".join(parts)


def with_mentions(text: str, players: list[tuple[str, int]]) -> str:
    """``text`` with the players mentioned: a text that starts by naming one of them (``alice, ...``) has the name
    replaced by the mention; the others are mentioned on a line of their own."""
    rest = []
    for player, uid in players:
        if text.startswith(f"{player}, "):
            text = f"<@{uid}>" + text[len(player) :]
        else:
            rest.append(f"<@{uid}>")
    return text + ("\n" + " ".join(rest) if rest else "")


class Front:
    """The Discord side of every action: identity, threads, turn messages, notifications."""

    def __init__(
        self,
        client: discord.Client,
        actions: Actions,
        render: Callable[[Picture], bytes | None],
        metrics: Metrics | None = None,
    ) -> None:
        self.client = client
        self.actions = actions
        self.store = actions.store
        self.render = render
        self.metrics = metrics
        #: boards posted whose marks the database could not take off then (it was unavailable): by game, the
        #: marks of that post; taken off before the sweep reposts anything (see :meth:`repost_pending`)
        self._posted_unmarked: dict[int, tuple[str, ...]] = {}
        self._thread_locks: dict[int, asyncio.Lock] = {}
        self._watchers_lock = asyncio.Lock()
        #: (server, user) pairs this process has recorded as seen (see :meth:`player_id`)
        self._seen: set[tuple[int, int]] = set()
        #: the web UI's public address (``PBM_WEB_PUBLIC_URL``): turn messages link to the game's page there
        self.web_url: str | None = None
        #: told the game of every turn posted that waits on a computer player: the bot has its move played
        self.computer_turn: Callable[[int], None] = lambda game_id: None
        #: posts what an action did to tournaments (``Result.news``; :mod:`bot.discord.tournaments`)
        self.present_news: Callable[[list[Any]], Awaitable[None]] | None = None

    def board_url(self, result: Result) -> str | None:
        """The web page of the game a turn shows, or ``None`` when the web UI has no public address."""
        if not self.web_url or result.game_id is None:
            return None
        return f"{self.web_url.rstrip('/')}/g/{result.game_id}"

    # ---- identity ------------------------------------------------------------------------------------------

    async def player_id(self, user: discord.abc.User) -> str:
        """The player a Discord user is: the id stored for them, else their username (unique on Discord). A
        console player of that name without a Discord id becomes theirs, so console and Discord share games;
        when another Discord user already holds the name, the Discord id is appended to keep ids unique.

        A server member (who used a command there, or was named in one) is remembered as seen in that server,
        once per process: the server's leaderboard shows the players seen in it."""
        player = await self._player_of(user)
        if isinstance(user, discord.Member) and (user.guild.id, user.id) not in self._seen:
            await self.store.add_guild_players(user.guild.id, [player])
            self._seen.add((user.guild.id, user.id))
        return player

    async def _player_of(self, user: discord.abc.User) -> str:
        return await player_of_discord_account(self.store, user.id, user.name)

    async def mentions(self, players: list[str]) -> list[discord.Object]:
        """Discord users behind player ids (console-only players have none)."""
        found = []
        for player in players:
            uid = await self.store.discord_id_of(player)
            if uid is not None:
                found.append(discord.Object(uid))
        return found

    # ---- threads -------------------------------------------------------------------------------------------

    async def open_thread(
        self, result: Result, channel: discord.abc.Messageable, *, private: bool = False
    ) -> discord.Thread:
        """A new thread for a game that just started, under ``channel`` (or its parent), with every player of the
        game added: public, or with ``private`` (the server's setting) a private one only its players (and
        moderators) see, to which nobody else may be invited."""
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        if not isinstance(parent, discord.TextChannel):
            raise PostError("games are played in threads of a text channel; challenge from a server text channel")
        title = f"{(result.game_type or 'game').capitalize()} {result.game_id}: {' vs '.join(result.players)}"
        kind = discord.ChannelType.private_thread if private else discord.ChannelType.public_thread
        try:
            thread = await parent.create_thread(
                name=title[:100],
                type=kind,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                invitable=not private,
            )
        except discord.Forbidden as exc:
            raise self._missing(exc, parent, "create_private_threads" if private else "create_public_threads") from exc
        assert result.game_id is not None
        await self.store.set_thread(result.game_id, parent.guild.id, parent.id, thread.id)
        await self.store.add_guild_players(parent.guild.id, result.players)  # computer players too
        for user in await self.mentions(result.players):
            try:
                await thread.add_user(user)
            except discord.HTTPException as exc:
                log.warning("game %s: could not add user %s to thread %s: %s", result.game_id, user.id, thread.id, exc)
        return thread

    async def game_thread(self, game_id: int) -> discord.Thread | None:
        """The game's thread, reopened when archived and recreated (with the current board posted by the caller)
        when deleted; ``None`` for a game that lives only in the console."""
        lock = self._thread_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            try:
                row = await self.store.load_game(game_id)
            except NotFoundError:
                return None
            if row.channel_id is None:
                return None
            thread = await self._existing_thread(row)
            if thread is not None:
                return thread
            return await self._recreate_thread(row)

    async def _existing_thread(self, row: GameRow) -> discord.Thread | None:
        if row.thread_id is None:
            return None
        try:
            channel = self.client.get_channel(row.thread_id) or await self.client.fetch_channel(row.thread_id)
        except discord.NotFound:
            return None
        if not isinstance(channel, discord.Thread):
            return None
        if channel.archived:
            try:
                channel = await channel.edit(archived=False)
            except discord.HTTPException as exc:
                log.warning("game %s: could not reopen thread %s: %s", row.id, row.thread_id, exc)
        return channel

    async def _recreate_thread(self, row: GameRow) -> discord.Thread | None:
        assert row.channel_id is not None
        try:
            parent = self.client.get_channel(row.channel_id) or await self.client.fetch_channel(row.channel_id)
        except discord.NotFound:
            log.warning("game %s: its channel %s is gone; the game can only be shown by /board", row.id, row.channel_id)
            return None
        result = Result(ok=True, message="", game_id=row.id, game_type=row.type, players=row.players)
        assert isinstance(parent, discord.abc.Messageable)
        private = (await self.actions.server_settings(row.guild_id)).private_threads
        return await self.open_thread(result, parent, private=private)

    async def games_channel(self, channel_id: int | None) -> discord.TextChannel | None:
        """The channel a server's settings say games live in (``None``: none set, or it is gone, which is
        logged for the admin: games then open where they were challenged)."""
        if channel_id is None:
            return None
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        except discord.HTTPException as exc:
            log.error("the games channel %s cannot be reached (%s); set /settings channel again", channel_id, exc)
            return None
        return channel if isinstance(channel, discord.TextChannel) else None

    # ---- turn messages -------------------------------------------------------------------------------------

    async def board_png(self, result: Result, view: str = "top") -> bytes | None:
        """The board picture in ``view`` (:func:`bot.board_files.picture`, as the console draws it), drawn in a
        worker thread; ``None`` when there is none or drawing failed."""
        board = board_files.picture(result, view)
        if board is None:
            return None
        try:
            return await asyncio.to_thread(self.render, board)
        except Exception:
            log.exception("game %s: drawing the board (%s) failed", result.game_id, view)
            return None

    async def board_upload(self, result: Result, view: str = "top") -> tuple[Upload | None, str]:
        """The board as a PNG to attach, or (when drawing fails) as text in a code block."""
        png = await self.board_png(result, view)
        if png is not None:
            return Upload(picture_name(result, view), png), ""
        return None, text_board(result)

    async def post_turn(
        self, result: Result, thread: discord.Thread | None = None, *, nonce: str | None = None, how: str = "turn"
    ) -> Posted:
        """:meth:`_post_turn`; then a turn that waits on a computer player (a command did not wait for its
        thinking, see :mod:`bot.discord.thinking`) is handed to :attr:`computer_turn`, after its board, so the
        reply is posted below it."""
        try:
            return await self._post_turn(result, thread, nonce=nonce, how=how)
        finally:
            if result.game_id is not None and waits_on_computer(result):
                self.computer_turn(result.game_id)

    async def _post_turn(
        self, result: Result, thread: discord.Thread | None = None, *, nonce: str | None = None, how: str = "turn"
    ) -> Posted:
        """Post what happened, the board, and a ping of ``result.notify`` in the game's thread; DM those who
        opted in; mention or DM spectators. Problems are returned, logged, and the game marked for a repost.

        With a board picture the turn is a layout message (:func:`bot.discord.layout.turn_layout`). It is a plain
        message (text, the file, the controls under it) when there is no picture (the board is then text), when
        Discord refuses the picture (Attach Files missing: the text board, and the admin is told), and when
        Discord refuses the layout itself (logged as an error: the turn still goes out).

        ``nonce`` is the one the commit marked the board with (see :func:`new_nonce`); without one, a fresh one.
        ``how`` names the post in the metrics: ``turn`` after an action, ``repost`` by the sweep."""
        if result.news and self.present_news is not None:  # a tournament's news goes out after the turn
            news, result.news = result.news, []
            try:
                return await self.post_turn(result, thread, nonce=nonce, how=how)
            finally:
                await self.present_news(news)
        problems: list[str] = []
        assert result.game_id is not None
        marked = nonce is not None
        nonce = nonce or new_nonce()
        await self.deliver_private(result)
        try:
            thread = thread or await self.game_thread(result.game_id)
        except PostError as exc:
            return await self._failed(result, [str(exc)], nonce)
        if thread is None:
            if marked:
                await self.store.clear_unposted(result.game_id, (nonce, nonce + FAILED))
            return Posted(None, None, [])
        # players in their quiet hours are told when those end (the actions already left them out of notify)
        to_ping = [p for p in result.notify if p not in result.held]
        movers = await self.mentions([p for p in to_ping if is_their_move(result, p)])
        others = await self.mentions([p for p in to_ping if not is_their_move(result, p)])
        pinged = movers + others
        if result.finished_game is not None:  # a match went on in a new game: its spectators follow it there
            await self._carry_watchers(result.finished_game, result.game_id)
        watchers = await self._watchers(result.game_id)
        mention_watchers = [discord.Object(int(uid)) for uid, mode in watchers.items() if mode == "mention"]
        pings = []
        if movers:
            pings.append(" ".join(f"<@{u.id}>" for u in movers) + ", your move.")
        if others:
            pings.append(" ".join(f"<@{u.id}>" for u in others))
        if mention_watchers:
            pings.append("-# watching: " + " ".join(f"<@{u.id}>" for u in mention_watchers))
        plain = "\n".join([turn_text(result, PLAIN_LIMIT - len("\n".join(["", *pings]))), *pings])
        png = await self.board_png(result)
        mentions = discord.AllowedMentions(users=pinged + mention_watchers, everyone=False, roles=False)
        silent = not pinged and not mention_watchers
        try:
            message = await self._send_turn(thread, result, png, plain, "\n".join(pings), mentions, silent, nonce)
        except discord.Forbidden as exc:
            if png is None or exc.code != 50013:
                return await self._failed(result, [self._describe(exc, thread)], nonce)
            # Perhaps only the picture is refused (Attach Files): the turn still goes out, with the board as text.
            try:
                message = await thread.send(
                    with_text_board(plain, result),
                    view=move_view(result) or discord.utils.MISSING,
                    allowed_mentions=mentions,
                    silent=silent,
                    nonce=nonce,
                )
            except discord.Forbidden as again:
                lacking = "send_messages_in_threads" if again.code == 50013 else None
                problem = str(self._missing(again, thread, lacking)) if lacking else self._describe(again, thread)
                return await self._failed(result, [problem], nonce)
            except discord.HTTPException as again:
                return await self._failed(result, [self._describe(again, thread)], nonce)
            problems.append(str(self._missing(exc, thread, "attach_files")) + "; the board is shown as text meanwhile")
        except discord.HTTPException as exc:
            return await self._failed(result, [self._describe(exc, thread)], nonce)
        if self.metrics is not None:
            self.metrics.boards_posted.labels(how=how).inc()
        # the mark of this post (its commit's, or its failure's); a post nobody marked clears any earlier failure
        await self._take_mark_off(result.game_id, (nonce, nonce + FAILED) if marked else ())
        try:
            await self.close_void_proposals(result)
        except DatabaseUnavailableError as exc:  # the buttons stay; a press on them says the proposal is over
            log.warning("game %s: a voided proposal's buttons stay until the database answers: %s", result.game_id, exc)
        problems += await self._direct_messages(result, watchers)
        return Posted(thread, message, problems)

    async def _take_mark_off(self, game_id: int, marks: tuple[str, ...]) -> None:
        """The board is posted: its mark goes (only ``marks``, the marks of this post; with none, any mark). When
        the database is unavailable just then, the post's own marks are remembered and taken off as soon as it
        answers (:meth:`repost_pending`), so the sweep never posts the board again; a post nobody marked has
        nothing to remember (a failure's earlier mark is found by the thread check before a repost)."""
        try:
            await self.store.clear_unposted(game_id, marks)
        except DatabaseUnavailableError as exc:
            if marks:
                self._posted_unmarked[game_id] = marks
            log.warning("game %s: its board is posted, but its mark stays until the database answers: %s", game_id, exc)

    async def _settle_posted(self) -> None:
        """Take off the marks of boards posted while the database was unavailable (see :meth:`_take_mark_off`);
        a mark replaced since by a newer board's stays."""
        for game_id, marks in list(self._posted_unmarked.items()):
            await self.store.clear_unposted(game_id, marks)
            del self._posted_unmarked[game_id]

    async def _already_posted(self, result: Result) -> bool:
        """Whether the game's thread already shows this position: its newest turn message (one of the bot's own,
        not an answer to a command, starting with a headline) has the same headline (game, move number, who is
        to move). Discord keeps a nonce for minutes only: after a longer outage this is what keeps a repost from
        posting a board twice. A thread that cannot be read says no (the nonce still applies)."""
        assert result.game_id is not None
        thread = await self.game_thread(result.game_id)
        me = self.client.user
        if thread is None or me is None:
            return False
        wanted = f"### {headline(result)}"
        try:
            async for message in thread.history(limit=THREAD_LOOKBACK):
                if message.author.id != me.id or message.interaction_metadata is not None:
                    continue
                first = message_text(message).split("\n", 1)[0]
                if first.startswith("### "):
                    return first == wanted
        except discord.HTTPException as exc:
            log.warning("game %s: thread %s cannot be read before a repost: %s", result.game_id, thread.id, exc)
        return False

    async def _send_turn(
        self,
        thread: discord.Thread,
        result: Result,
        png: bytes | None,
        plain: str,
        pings: str,
        mentions: discord.AllowedMentions,
        silent: bool,
        nonce: str,
    ) -> discord.Message:
        """The turn message: a layout with the picture, else plain with the text board. A layout Discord refuses
        (400) is sent again as a plain message with the picture, so a turn is never lost to its presentation; a
        refused message was never made, so its retry keeps the nonce."""
        view = move_view(result) or discord.utils.MISSING
        if png is None:
            return await thread.send(
                with_text_board(plain, result), view=view, allowed_mentions=mentions, silent=silent, nonce=nonce
            )
        name = picture_name(result)
        try:
            return await thread.send(
                view=turn_layout(result, name, pings, self.board_url(result)),
                file=picture(result, png),
                allowed_mentions=mentions,
                silent=silent,
                nonce=nonce,
            )
        except discord.HTTPException as exc:
            if exc.status != 400:
                raise
            log.error(
                "game %s: Discord refused the turn's layout (%s %s); posting it plainly",
                result.game_id,
                exc.code,
                exc.text,
            )
        return await thread.send(
            plain[:2000], file=picture(result, png), view=view, allowed_mentions=mentions, silent=silent, nonce=nonce
        )

    # ---- notifications -------------------------------------------------------------------------------------

    async def _direct_messages(self, result: Result, watchers: dict[str, str]) -> list[str]:
        """DM the player to move (when they opted in) and DM-mode spectators; closed DMs are remembered and
        that player is only pinged in the thread from then on."""
        problems = []
        targets = [p for p in result.notify if await self.actions.dm_setting(p) == "on"]
        for player in targets:
            uid = await self.store.discord_id_of(player)
            head = f"Your move in game {result.game_id}" if is_their_move(result, player) else f"Game {result.game_id}"
            if uid is not None and not await self._dm(uid, f"{head}:\n{result.message}"):
                await self.actions.set_dm_setting(player, "closed")
                problems.append(f"{player} does not accept DMs; they are pinged in the thread instead")
        for uid, mode in watchers.items():
            if mode == "dm" and not await self._dm(int(uid), f"Game {result.game_id}:\n{result.message}"):
                # a spectator with closed DMs is mentioned in the thread from the next move on
                await self.set_watch(result.game_id, int(uid), "mention")
        return problems

    async def deliver_private(self, result: Result) -> None:
        """Notes meant for one player only (a queued line dropped) go to them by DM, never to a thread; when
        their DMs are closed the note is only logged."""
        sent, result.private = result.private, []
        for player, text in sent:
            uid = await self.store.discord_id_of(player)
            if uid is None:
                log.info("private note for %s (no Discord account): %s", player, text)
            elif not await self._dm(uid, text):
                log.info("private note for %s not delivered (DMs closed): %s", player, text)

    async def present_notice(self, notice: Notice) -> None:
        """Show what the sweep (or a vacation switch) did: a timeout is posted as a turn pinging everyone in the
        game; warnings and reminders reach their player by DM when they opted in, else by a mention in the
        game's thread; vacation and proposal notices are told in the thread; a notice about no game (a
        vacation that ran out) goes only by DM, to those who accept DMs."""
        if notice.kind == "timeout" and notice.result is not None:
            result = notice.result
            result.notify = [p for p in dict.fromkeys(notice.ping) if p not in result.held]
            await self.post_turn(result)
            return
        if notice.kind == "tournament" and notice.result is not None and self.present_news is not None:
            await self.present_news(notice.result.news)
            return
        if notice.kind == "proposal" and notice.result is not None and notice.result.challenge_id is not None:
            await self.close_proposal(notice.result.challenge_id, notice.text)
        if notice.game_id is None:
            for player in notice.ping:
                uid = await self.store.discord_id_of(player)
                if uid is not None and await self.actions.dm_setting(player) == "on":
                    await self._dm(uid, notice.text)
            return
        await self.tell(notice.game_id, notice.text, notice.ping, dm_is_enough=notice.kind in ("warning", "reminder"))

    async def tell(self, game_id: int, text: str, players: list[str], *, dm_is_enough: bool = False) -> None:
        """A notice in a game's thread mentioning ``players``; those who opted in to DMs get it by DM instead
        (closed DMs: remembered, and they are mentioned). With ``dm_is_enough`` nothing is posted in the thread
        when every player was told by DM."""
        mentioned: list[tuple[str, int]] = []
        told_by_dm = 0
        for player in dict.fromkeys(players):
            uid = await self.store.discord_id_of(player)
            if uid is None:
                continue
            if await self.actions.dm_setting(player) == "on":
                if await self._dm(uid, text):
                    told_by_dm += 1
                    continue
                await self.actions.set_dm_setting(player, "closed")
            mentioned.append((player, uid))
        if dm_is_enough and players and told_by_dm == len(set(players)):
            return
        try:
            thread = await self.game_thread(game_id)
        except PostError as exc:
            log.warning("game %s: could not tell %r: %s", game_id, text, exc)
            return
        if thread is None:
            return
        content = with_mentions(text, mentioned)
        users = [discord.Object(uid) for _, uid in mentioned]
        try:
            await thread.send(
                content[:2000],
                allowed_mentions=discord.AllowedMentions(users=users, everyone=False, roles=False),
                silent=not users,
            )
        except discord.HTTPException as exc:
            log.warning("game %s: notice %r could not be posted: %s", game_id, text, exc)

    # ---- proposals -----------------------------------------------------------------------------------------

    async def remember_proposal(self, proposal_id: int, message: discord.Message) -> None:
        """Where a proposal's message is, so its buttons can be removed when it is settled or expires."""
        try:
            await self.store.update_proposal(proposal_id, channel_id=message.channel.id, message_id=message.id)
        except StaleWriteError:
            log.info("proposal %s was settled before its message was remembered", proposal_id)

    async def close_proposal(self, proposal_id: int, line: str, message: discord.Message | None = None) -> None:
        """Say how a proposal ended on its message and remove its buttons."""
        try:
            if message is None:
                proposal = await self.store.load_proposal(proposal_id)
                if proposal.channel_id is None or proposal.message_id is None:
                    return
                channel_id, message_id = proposal.channel_id, proposal.message_id
                channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
                assert isinstance(channel, discord.abc.Messageable)
                message = await channel.fetch_message(message_id)
            await message.edit(
                content=f"{message.content}\n{line}"[:2000], view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.warning("could not close the message of proposal %s: %s", proposal_id, exc)

    async def close_void_proposals(self, result: Result) -> None:
        """A proposal the game moved on from (voided by the commit of a move, a resignation, the end of a match's
        game) loses its Accept and Reject buttons, its message saying why; see :meth:`close_void`."""
        for game_id in dict.fromkeys(g for g in (result.game_id, result.finished_game) if g is not None):
            proposal = await self.store.last_proposal(game_id)
            if proposal is not None and proposal.status == "void" and proposal.message_id is not None:
                await self.close_void(proposal)

    async def close_void(self, proposal: ProposalRow, message: discord.Message | None = None) -> None:
        """Close the message of a proposal the game moved on from (``message``: when the caller has it), once:
        where it is is forgotten after."""
        await self.close_proposal(proposal.id, VOID_LINE, message)
        await self.store.forget_proposal_message(proposal.id)

    async def _dm(self, user_id: int, text: str) -> bool:
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(text[:2000])
        except discord.Forbidden:
            log.info("user %s does not accept DMs", user_id)
            return False
        except discord.HTTPException as exc:
            log.warning("DM to user %s failed: %s", user_id, exc)
        return True

    async def set_watch(self, game_id: int, user_id: int, mode: str | None) -> bool:
        """Subscribe (``mode`` "mention" or "dm") or unsubscribe (``None``) a spectator; ``False`` when there
        was nothing to unsubscribe."""
        async with self._watchers_lock:
            watchers = await self._watchers(game_id)
            if mode is None:
                if watchers.pop(str(user_id), None) is None:
                    return False
            else:
                watchers[str(user_id)] = mode
            await self.store.set_meta(f"watchers:{game_id}", json.dumps(watchers))
            return True

    async def _carry_watchers(self, from_game: int, to_game: int) -> None:
        """The spectators of a match's game that ended watch its next game too, as they chose (each again is
        harmless: their choice in the new game stands)."""
        async with self._watchers_lock:
            earlier = await self._watchers(from_game)
            if not earlier:
                return
            now = await self._watchers(to_game)
            await self.store.set_meta(f"watchers:{to_game}", json.dumps({**earlier, **now}))

    async def _watchers(self, game_id: int) -> dict[str, str]:
        raw = await self.store.get_meta(f"watchers:{game_id}")
        return json.loads(raw) if raw else {}

    # ---- failures ------------------------------------------------------------------------------------------

    def _missing(
        self, exc: discord.HTTPException, channel: discord.abc.GuildChannel | discord.Thread, permission: str
    ) -> PostError:
        name = PERMISSION_NAMES.get(permission, permission)
        log.error(
            "missing permission in #%s (%s): %s; grant the bot '%s' there (%s)",
            channel.name,
            channel.id,
            exc.text,
            name,
            exc.code,
        )
        return PostError(f"I lack the **{name}** permission in {channel.mention}; ask a server admin to grant it")

    def _describe(self, exc: discord.HTTPException, thread: discord.Thread) -> str:
        if isinstance(exc, discord.Forbidden) and exc.code == 50013:
            return str(self._missing(exc, thread, self._lacking(thread)))
        log.error("posting in thread %s failed: %s %s", thread.id, exc.status, exc.text)
        return f"Discord refused the post ({exc.status}); the board will be posted again shortly"

    @staticmethod
    def _lacking(thread: discord.Thread) -> str:
        """Which permission a refused post most likely lacked, as far as the cached permissions tell."""
        me = thread.guild.me
        perms = thread.permissions_for(me) if me is not None else None
        if perms is not None and not perms.send_messages_in_threads:
            return "send_messages_in_threads"
        if perms is not None and not perms.attach_files:
            return "attach_files"
        return "send_messages_in_threads_or_attach_files"

    async def _failed(self, result: Result, problems: list[str], nonce: str) -> Posted:
        assert result.game_id is not None
        await self.mark_unposted(result.game_id, nonce)
        return Posted(None, None, problems)

    async def mark_unposted(self, game_id: int, nonce: str | None = None) -> None:
        """Remember that a game's current board still has to be posted: its post failed (see
        :meth:`repost_pending`); ``nonce`` is the one the failed post carried, if it got that far."""
        await self.store.mark_unposted(game_id, (nonce or new_nonce()) + FAILED)

    async def repost_pending(self, *, grace: float = REPOST_GRACE) -> int:
        """Post the current board of every game whose post failed, or whose move was committed ``grace`` seconds
        ago or more and never posted (the process that made it died); returns how many went out. Each repost
        carries the nonce of the post it replaces, so a post that did reach Discord is not repeated."""
        await self._adopt_legacy_list()
        await self._settle_posted()
        done = 0
        for game_id, mark in await self.store.unposted_boards():
            nonce = mark.removesuffix(FAILED)
            # several bot processes may sweep at once: one of them posts each board
            claim = f"reposting:{game_id}"
            if not await self.store.claim_meta(claim, now=time.time(), lease=REPOST_LEASE):
                continue
            try:
                try:
                    row = await self.store.load_game(game_id)
                except NotFoundError:
                    await self.store.clear_unposted(game_id, (mark,))
                    continue
                if mark == nonce and self.store.now() - row.updated_at < grace:
                    continue  # its move is moments old: the process that made it may be posting it now
                shown = await self.actions.show(game_id)
                if not shown.ok or shown.state is None:
                    await self.store.clear_unposted(game_id, (mark,))
                    continue
                if await self._already_posted(shown):
                    log.info("game %s: its board is in its thread already; not posted again", game_id)
                    await self.store.clear_unposted(game_id, (mark,))
                    continue
                shown.notify = [shown.to_move] if shown.to_move else []
                posted = await self.post_turn(shown, nonce=nonce, how="repost")
                done += posted.message is not None
            finally:
                await self.store.release_meta(claim)
        return done

    async def _adopt_legacy_list(self) -> None:
        """Games an older version listed as unposted (one JSON list) become marks of their own."""
        raw = await self.store.get_meta(LEGACY_UNPOSTED_KEY)
        if raw is None:
            return
        for game_id in json.loads(raw):
            await self.mark_unposted(int(game_id))
        await self.store.release_meta(LEGACY_UNPOSTED_KEY)
