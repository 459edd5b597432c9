"""The simulated players of the load test: they type ``/move`` in their games' threads through the fake Discord,
each game's next move once the board of the previous one is posted (a closed loop), many games at once.

Each table keeps its own copy of the game (the rules engine, moved on by the moves whose board came back), so a
legal move costs a random draw, not a database read. Some moves are sent twice at once, as a player who taps twice;
the bot must play one and refuse the other. When a bot process is killed, the moves it had in hand may be lost:
once it is back, their players type them again, as a player would who saw no answer; the bot either plays the move
then, or refuses it because the first one had been played (its board is posted by the restarted process's sweep).
"""

from __future__ import annotations

import asyncio
import collections
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.base import GameState
from tests.fakediscord.records import Message
from tests.fakediscord.server import FakeDiscord

#: seconds a player waits for the board of a move before giving the game up as unanswered
PATIENCE = 120.0


@dataclass
class Table:
    """One game as its players see it: where it is, who sits where, and their own copy of the position."""

    game_id: int
    guild: int
    shard: int
    thread: int
    #: each player's Discord user id, by player name (seats may be swapped during a game)
    users: dict[str, int]
    state: GameState
    rng: random.Random
    #: the move texts whose board came back, in order
    confirmed: list[str] = field(default_factory=list)
    #: ids of the board messages seen in the thread
    boards: set[int] = field(default_factory=set)
    #: resolved (with the loop time) when the next board is posted
    waiter: asyncio.Future[float] | None = None
    #: resolved when the process serving the game was killed and is back while a move was in its hands
    interrupt: asyncio.Future[None] | None = None
    #: when the move in flight was last sent (loop time; ``None`` while it waits to be sent)
    last_sent: float | None = None


@dataclass
class Sent:
    """One move a player sent: the interactions that carried it (the move, its duplicate, a retry after the kill)
    and when it was sent and its board posted (loop times)."""

    game_id: int
    text: str
    duplicate: bool
    sent_at: float
    interactions: list[int] = field(default_factory=list)
    posted_at: float | None = None
    retried: bool = False


class Players:
    """Drive ``moves`` moves across ``tables`` with ``concurrency`` moves in flight; every ``duplicate_every``-th
    move (none when 0) is sent twice at once. ``ready[shard]`` is set while a bot process serves that shard;
    ``on_progress(sent)`` is called after every move handed out (the load test kills a process halfway)."""

    def __init__(
        self,
        fake: FakeDiscord,
        tables: list[Table],
        moves: int,
        *,
        concurrency: int,
        duplicate_every: int,
        ready: dict[int, asyncio.Event],
        on_progress: Callable[[int], None] = lambda sent: None,
    ) -> None:
        self.fake = fake
        self.tables = {t.thread: t for t in tables}
        self.moves = moves
        self.concurrency = concurrency
        self.duplicate_every = duplicate_every
        self.ready = ready
        self.on_progress = on_progress
        self.sent: list[Sent] = []
        self.unanswered: list[Sent] = []
        self._queue: collections.deque[Table] = collections.deque(tables)
        self._handed_out = 0
        self._free = asyncio.Condition()
        self._in_flight: dict[int, Table] = {}
        #: CPU seconds spent choosing moves and following positions: the players' own cost
        self.cpu = 0.0
        #: when a process was killed (loop time), and its shards
        self.kills: list[tuple[float, set[int]]] = []
        fake.watch(self._seen)

    async def play(self) -> None:
        """Play every move; returns when each has its board (or was given up)."""
        await asyncio.gather(*(self._worker() for _ in range(self.concurrency)))

    def killing(self, shards: set[int]) -> None:
        """The process serving ``shards`` is about to be killed: whatever it was sent so far it may never answer."""
        self.kills.append((asyncio.get_running_loop().time(), shards))

    def in_killed_hands(self, interaction_id: int) -> bool:
        """Whether an interaction went to a process that was killed before answering it could be expected."""
        record = self.fake.interactions[interaction_id]
        table = self.tables[record.channel_id]
        return any(table.shard in shards and record.sent_at <= when for when, shards in self.kills)

    def interrupt(self, shards: set[int], killed_at: float) -> None:
        """The process serving ``shards`` was killed at ``killed_at`` and is back: the moves sent to it before it
        died may be lost (moves held back while it was down are not: they go to the new process)."""
        for table in self._in_flight.values():
            sent_to_the_dead = table.last_sent is not None and table.last_sent <= killed_at
            waiting = table.interrupt is not None and not table.interrupt.done()
            if table.shard in shards and sent_to_the_dead and waiting:
                table.interrupt.set_result(None)  # type: ignore[union-attr]

    # ---- the loop of one player's hand ---------------------------------------------------------------------

    async def _next_table(self) -> Table | None:
        """The game whose turn it is to be played next (round robin), or ``None`` when every move is handed out."""
        async with self._free:
            while True:
                if self._handed_out >= self.moves:
                    return None
                if self._queue:
                    self._handed_out += 1
                    table = self._queue.popleft()
                    self._in_flight[table.thread] = table
                    return table
                if not self._in_flight:
                    return None  # every game has ended
                await self._free.wait()

    async def _release(self, table: Table, keep: bool) -> None:
        async with self._free:
            self._in_flight.pop(table.thread, None)
            if keep and table.state.outcome() is None:
                self._queue.append(table)
            self._free.notify()

    async def _worker(self) -> None:
        while (table := await self._next_table()) is not None:
            keep = await self._play_one(table)
            await self._release(table, keep)

    async def _play_one(self, table: Table) -> bool:
        """Send the next move of ``table`` and wait for its board; ``False`` if it never came."""
        loop = asyncio.get_running_loop()
        started = time.thread_time()
        state = table.state
        seat = state.to_move
        assert seat is not None
        move = state.random_move(table.rng)
        text = state.move_text(move)
        user = table.users[state.players[seat]]
        number = len(self.sent) + 1
        sent = Sent(table.game_id, text, self.duplicate_every > 0 and number % self.duplicate_every == 0, 0.0)
        self.sent.append(sent)
        self.cpu += time.thread_time() - started
        self.on_progress(len(self.sent))
        table.waiter = loop.create_future()
        table.interrupt = loop.create_future()
        table.last_sent = None
        sent.interactions.append(await self._send(table, user, text))
        sent.sent_at = self.fake.interactions[sent.interactions[0]].sent_at
        if sent.duplicate:
            sent.interactions.append(await self._send(table, user, text))
        while True:
            done, _ = await asyncio.wait(
                {table.waiter, table.interrupt}, timeout=PATIENCE, return_when="FIRST_COMPLETED"
            )
            if table.waiter.done():
                break
            if not done:
                self.unanswered.append(sent)
                return False
            # the process that had the move was killed and is back: type it again
            table.interrupt = loop.create_future()
            sent.retried = True
            sent.interactions.append(await self._send(table, user, text))
        sent.posted_at = table.waiter.result()
        started = time.thread_time()
        state.push(move)
        table.confirmed.append(text)
        self.cpu += time.thread_time() - started
        return True

    async def _send(self, table: Table, user: int, text: str) -> int:
        """``/move`` typed in the game's thread, once a process serves its shard; the interaction's id."""
        while True:
            await self.ready[table.shard].wait()
            try:
                interaction = await self.fake.slash(user, table.thread, "move", {"move": text})
            except RuntimeError:  # the process was killed between the check and the send
                await asyncio.sleep(0.05)
                continue
            table.last_sent = interaction.sent_at
            return interaction.id

    def _seen(self, message: Message) -> None:
        """Every message the fake records: a new picture in a game's thread is that game's next board."""
        table = self.tables.get(message.channel_id)
        if table is None or not message.attachments or message.id in table.boards:
            return
        table.boards.add(message.id)
        if table.waiter is not None and not table.waiter.done():
            table.waiter.set_result(asyncio.get_running_loop().time())
