"""Driving the pbm bot through the fake: a running bot on a temporary database, and the steps every Discord test
repeats (challenge and accept, find the game thread, play a move, tell whose turn it is)."""

from __future__ import annotations

import asyncio
import contextlib
import statistics
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.board_files import Picture
from bot.config import Config
from bot.discord import PbmBot, create_bot
from bot.discord.front import render_board
from tests.fakediscord.records import Interaction, Message, Thread
from tests.fakediscord.runner import running
from tests.fakediscord.server import FakeDiscord

SEED = 7
#: moves of a Druid game on a 5x5 board, alternating from alice; used by the burst and latency measurements
DRUID_MOVES = ("a1", "e5", "a2", "e4", "a3", "e3", "b1", "d5", "b2", "d4")


def bot_config(fake: FakeDiscord, db_path: Path, **overrides: object) -> Config:
    """The configuration ``pbm run`` would build from the fake's environment variables."""
    env = {**fake.env(), "PBM_DB": str(db_path)}
    return Config.from_env(env, **overrides)


@contextlib.asynccontextmanager
async def pbm_running(
    fake: FakeDiscord,
    db_path: Path,
    *,
    render: Callable[[Picture], bytes | None] = render_board,
    clock: Callable[[], float] | None = None,
    **overrides: object,
) -> AsyncIterator[PbmBot]:
    """The product bot, seeded for repeatable dice, logged in to the fake until the block ends; ``clock`` (a
    :class:`FakeClock`) replaces the system clock of its actions. Tests type faster than any member: the command
    rate is off unless a test sets ``command_burst``."""
    overrides.setdefault("command_burst", 0)
    bot = create_bot(bot_config(fake, db_path, **overrides), seed_source=lambda: SEED, render=render, clock=clock)
    async with running(bot, fake):
        yield bot


class FakeClock:
    """A clock tests move by hand (``clock.now += 3600``); it starts at the real time so messages read sensibly."""

    def __init__(self, now: float | None = None) -> None:
        import time

        self.now = time.time() if now is None else now

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    """A started game as the players see it: the fake, the channel, the thread and the players' user ids."""

    fake: FakeDiscord
    channel: int
    thread: Thread
    players: list[int]
    names: dict[int, str] = field(default_factory=dict)

    def last_post(self) -> Message:
        """The newest message in the game's thread."""
        return self.fake.channel_log(self.thread.id)[-1]

    def to_move(self) -> int | None:
        """The user pinged by the newest turn message (None when nobody is)."""
        pinged = self.last_post().pinged
        return pinged[0] if pinged else None

    async def move(self, user: int, text: str) -> Message:
        """``/move`` typed in the thread; returns the ephemeral reply (a refusal), or the deleted placeholder when
        the move was played (its turn message in the thread is the answer)."""
        return await self.fake.reply(await self.fake.slash(user, self.thread.id, "move", {"move": text}))

    async def move_and_wait(self, user: int, text: str) -> Message:
        """A move that must succeed: returns the turn message it posted in the thread."""
        before = self.last_post().id
        answer = await self.move(user, text)
        return await self.fake.next_message(self.thread.id, after=before, timeout=10) if answer else answer


async def challenge(
    fake: FakeDiscord, channel: int, challenger: int, game: str, *opponents: int, options: str = ""
) -> Message:
    """``/challenge`` and the public challenge message it posts."""
    values: dict[str, object] = {"game": game, "opponent": opponents[0]}
    for index, other in enumerate(opponents[1:], start=2):
        values[f"opponent{index}"] = other
    if options:
        values["options"] = options
    before = len(fake.channel_log(channel))
    reply = await fake.reply(await fake.slash(challenger, channel, "challenge", values))
    assert reply.content.startswith("Challenge"), reply.content
    await fake.wait_for(lambda: len(fake.channel_log(channel)) > before, what="challenge message")
    return fake.channel_log(channel)[before]


async def start_game(fake: FakeDiscord, channel: int, game: str, players: list[int], options: str = "") -> Table:
    """Challenge, have everyone accept, and return the table once the opening board is in the thread."""
    posted = await challenge(fake, channel, players[0], game, *players[1:], options=options)
    accept = next(c for c in posted.custom_ids() if c.endswith(":accept"))
    threads_before = set(fake.threads)
    for player in players[1:]:
        await fake.reply(await fake.click(player, posted, accept))
    thread = await fake.wait_for(
        lambda: next((t for t in fake.threads.values() if t.id not in threads_before), None), what="game thread"
    )
    await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
    return Table(fake, channel, thread, players)


@dataclass
class Latency:
    """Seconds from dispatching ``/move`` to its acknowledgement and to the board message in the thread."""

    acks: list[float]
    posts: list[float]

    @property
    def ack_median(self) -> float:
        return statistics.median(self.acks)

    @property
    def post_median(self) -> float:
        return statistics.median(self.posts)


async def measure_moves(fake: FakeDiscord, table: Table, moves: int) -> Latency:
    """Play ``moves`` moves of :data:`DRUID_MOVES` one after the other (the table must be a fresh 5x5 Druid game)
    and time each acknowledgement and board post, as a player would see them."""
    loop = asyncio.get_running_loop()
    acks, posts = [], []
    for index, text in enumerate(DRUID_MOVES[:moves]):
        user = table.players[index % 2]
        before = table.last_post().id
        sent = loop.time()
        interaction = await fake.slash(user, table.thread.id, "move", {"move": text})
        await fake.next_message(table.thread.id, after=before, timeout=10)
        posts.append(loop.time() - sent)
        await fake.reply(interaction, timeout=10)
        assert interaction.ack_latency is not None
        acks.append(interaction.ack_latency)
    return Latency(acks, posts)


async def burst(
    bot: PbmBot, fake: FakeDiscord, guild: int, channel: int, users: list[int], games: int, rounds: int
) -> int:
    """``games`` Druid games between ``users`` (ensured as players "alice" and "bob"), then ``rounds`` rounds in
    which every game's next move is sent twice at once. Returns how many moves were applied; raises
    ``AssertionError`` when a move was lost, applied twice, or posted other than once."""
    for _ in range(games):
        started = await bot.actions.challenge(
            "druid", ["alice", "bob"], ["-size=5"], start=True, guild_id=guild, channel_id=channel
        )
        assert started.ok, started.message
    for name, uid in zip(("alice", "bob"), users, strict=True):
        await bot.actions.store.ensure_player(name, uid)
    first_game = (started.game_id or 0) - games + 1
    for number in range(1, rounds + 1):
        text = f"{DRUID_MOVES[number - 1]}#{number}"
        sent: list[Interaction] = []
        for game in range(first_game, first_game + games):
            for _ in range(2):
                sent.append(await fake.slash(users[(number - 1) % 2], channel, "move", {"move": text, "game": game}))
        replies = await asyncio.gather(*(fake.reply(i, timeout=60) for i in sent))
        done = [r for r in replies if r.content.startswith("Done")]
        assert len(done) == games, [r.content for r in replies if not r.content.startswith("Done")][:3]
    threads = [t for t in fake.threads.values() if t.parent_id == channel]
    await fake.wait_for(lambda: all(len(fake.channel_log(t.id)) >= rounds for t in threads), 60, "all boards")
    for game in range(first_game, first_game + games):
        history = await bot.actions.history(game)
        assert [line.split(": ", 1)[1] for line in history.items] == list(DRUID_MOVES[:rounds]), history.items
    assert all(len(fake.channel_log(t.id)) == rounds for t in threads)
    return games * rounds
