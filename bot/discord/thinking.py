"""Computer players' moves: worked out in worker processes, served fairly, and never holding an interaction.

The search (:mod:`ai`) is pure Python CPU work: run in a thread it would hold the interpreter lock against the
event loop for its whole thinking time, and every other player would wait. A small pool of processes does it
instead; the positions travel to it pickled. The pool starts with the first move asked for (a bot with no
computer games never pays for it) and stops with the bot.

* **Bounded**: ``workers`` processes (one less than the machine's processors, at least two), whatever the load.
* **People first**: the workers run at a lower priority of the operating system (:data:`WORKER_NICENESS`), so
  the bot's own process (people's moves, boards, every answer) gets a processor before any search does.
* **Fair**: each member has a queue of their own (a game's people, see :func:`member_of`), and a free worker
  takes the first move of the member served least recently (one never served, or idle since, first), and no
  member's moves take more than all the workers but one at once (:meth:`ComputerPool.share`). However many games
  one member has waiting, another member's move starts at once when that one member is all the load (a worker
  is kept for others), and otherwise waits for at most one search already running, one move's think time.
* **Never holding an interaction**: a command has its computer's move worked out only when it starts at once
  (:meth:`ComputerPool.free`: a worker is free, nobody waits, and the search is short, see
  :data:`INLINE_SECONDS`); else the command answers with the member's own move, and :class:`ComputerReplies` has
  the reply worked out in its turn and posted in the game's thread as an ordinary message: no interaction token,
  so Discord's 15 minutes for answering do not apply.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from ai import is_ai
from bot.actions import Actions, Result, decide_now
from bot.discord.front import new_nonce
from rules.base import GameState

log = logging.getLogger("pbm.discord")

#: how much lower the workers' priority is than the bot's (``nice``: 0 normal, 19 lowest)
WORKER_NICENESS = 10
#: the longest search (its wall-clock cap, seconds) a command waits for; a longer one is always worked out later,
#: so an interaction is answered within seconds and a board its move marked is never left for the sweep's repost
INLINE_SECONDS = 5.0

#: works out one move: ``(state, player, seconds) -> (move text, note)``
Work = Callable[[GameState, str, float | None], Awaitable[tuple[str, str]]]


def member_of(state: GameState) -> str:
    """Whose queue a computer's move in ``state`` waits in: the game's people (the member who challenged the
    computer; with several, those people together), or its seats when only computers play."""
    people = sorted(p for p in state.players if not is_ai(p))
    return " ".join(people or state.players)


def _lower_priority() -> None:
    """Run first in every worker process: searches yield the processors to the bot (see the module docstring)."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)


@dataclass
class _Request:
    """One move asked for: what to search, who waits for it, and its place in arrival order."""

    state: GameState
    player: str
    seconds: float | None
    number: int
    answer: asyncio.Future[tuple[str, str]] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class ComputerPool:
    """``await pool(state, player, seconds)`` -> (move text, note), as :class:`bot.actions.Actions` ``think``
    expects, scheduled as the module says (:meth:`free` is its ``think_now``). ``work`` replaces the worker
    processes (tests hold a move to see the order of service); ``on_served(member, player)`` is told of each move
    as a worker takes it up."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        work: Work | None = None,
        on_served: Callable[[str, str], None] | None = None,
    ) -> None:
        self.workers = workers or max(2, (os.cpu_count() or 2) - 1)
        self._work = work or self._in_process
        self._on_served = on_served
        self._pool: ProcessPoolExecutor | None = None
        #: each member's moves waiting for a worker, in arrival order (a member is here only while they wait)
        self._waiting: dict[str, deque[_Request]] = {}
        #: each member's moves being worked out now
        self._running: Counter[str] = Counter()
        #: when each member with moves waiting or running was last served (a number from :attr:`_ticks`)
        self._served: dict[str, int] = {}
        self._ticks = itertools.count()
        self._arrivals = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def busy(self) -> int:
        """Moves being worked out now."""
        return sum(self._running.values())

    @property
    def depth(self) -> int:
        """Moves waiting for a worker."""
        return sum(len(queue) for queue in self._waiting.values())

    def free(self, seconds: float | None) -> bool:
        """Whether a move of at most ``seconds`` would be worked out at once, and soon enough to keep a command
        waiting for it: a worker is free, nobody waits, and the search is short."""
        short = seconds is None or seconds <= INLINE_SECONDS
        return short and not self._closed and self.busy < self.workers and not self._waiting

    async def __call__(self, state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
        if self._closed:
            raise RuntimeError("the computer players' workers are stopped")
        request = _Request(state, player, seconds, next(self._arrivals))
        self._waiting.setdefault(member_of(state), deque()).append(request)
        self._dispatch()
        return await request.answer  # cancelled with its caller: a waiting move is then dropped unsearched

    @property
    def share(self) -> int:
        """The most moves of one member worked out at once: every worker but one (one, with a single worker), so a
        flood of one member's games always leaves a worker for another member's move, which then starts at once
        instead of after a search of the flood (a search may take its whole wall-clock net on a huge board)."""
        return max(1, self.workers - 1)

    def _next_member(self) -> str | None:
        """The member served least recently (never, or not since they last had nothing waiting or running, counts
        as longest ago) among those below their :attr:`share`; between such members, the one whose first move came
        first. ``None`` when every member waiting has their share running."""
        below = [m for m in self._waiting if self._running[m] < self.share]
        if not below:
            return None
        return min(below, key=lambda m: (self._served.get(m, -1), self._waiting[m][0].number))

    def _dispatch(self) -> None:
        """Give free workers the next moves, fairly (see :meth:`_next_member`); a worker that only a member at
        their share could take stays free for another member's move."""
        while self.busy < self.workers and self._waiting:
            member = self._next_member()
            if member is None:
                return
            queue = self._waiting[member]
            request = queue.popleft()
            if not queue:
                del self._waiting[member]
            if request.answer.done():  # its caller gave up (the bot is stopping)
                self._forget_if_idle(member)
                continue
            self._served[member] = next(self._ticks)
            self._running[member] += 1
            if self._on_served is not None:
                self._on_served(member, request.player)
            task = asyncio.create_task(self._run(member, request))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, member: str, request: _Request) -> None:
        try:
            answer = await self._work(request.state, request.player, request.seconds)
        except Exception as exc:
            if not request.answer.done():
                request.answer.set_exception(exc)
        else:
            if not request.answer.done():
                request.answer.set_result(answer)
        finally:
            if not request.answer.done():  # the pool stopped while it was worked out
                request.answer.cancel()
            self._running[member] -= 1
            if not self._running[member]:
                del self._running[member]
            self._forget_if_idle(member)
            self._dispatch()

    def _forget_if_idle(self, member: str) -> None:
        """A member with nothing waiting or running takes no share of the workers: their service is forgotten."""
        if member not in self._waiting and member not in self._running:
            self._served.pop(member, None)

    def executor(self) -> ProcessPoolExecutor:
        """The worker processes, started on first use."""
        if self._pool is None:
            # spawn, not fork: the bot's process holds threads (the database's) that a fork would copy mid-step
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
            )
        return self._pool

    async def _in_process(self, state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
        """:func:`bot.actions.decide_now` in a worker process. A worker that died (killed, out of memory) breaks
        the pool: the moves it had fail, and the next move starts fresh workers."""
        pool = self.executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, decide_now, state, player, seconds)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        """Stop the workers; moves waiting or being worked out are abandoned (the sweep asks again after a
        restart); none is worked out from now on."""
        self._closed = True
        for queue in self._waiting.values():
            for request in queue:
                request.answer.cancel()
        self._waiting.clear()
        for task in self._tasks:
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class ComputerReplies:
    """Computer moves worked out outside any interaction, each posted in its game's thread by ``post(result,
    nonce)`` when its turn to think comes: the moves a command left (the pool was not free), and the turns the
    sweep finds waiting. One reply per game at a time."""

    def __init__(self, actions: Actions, post: Callable[[Result, str], Awaitable[object]]) -> None:
        self.actions = actions
        self._post = post
        self._replying: dict[int, asyncio.Task[None]] = {}
        #: games asked for again while their reply was under way: a computer to move again after its move (its
        #: reply's own post asks), played once that reply is done
        self._again: set[int] = set()
        self._closed = False

    def schedule(self, game_id: int) -> None:
        """Have the computer to move in ``game_id`` play in its turn; when a reply of that game is under way, once
        it is done (the computer may be to move again after it: then its post asks, from within that reply)."""
        if self._closed:
            return
        if game_id in self._replying:
            self._again.add(game_id)
            return
        self._replying[game_id] = asyncio.create_task(self._reply(game_id))

    @property
    def pending(self) -> int:
        """Games whose computer reply is being worked out or waits for its turn."""
        return len(self._replying)

    async def _reply(self, game_id: int) -> None:
        """Play the reply (committed, its board marked as still to be posted under the post's nonce), then post
        it; a failure is logged, and the turn stays for the sweep to take up again."""
        try:
            nonce = new_nonce()
            result = await self.actions.computer_reply(game_id, will_post=nonce)
            if result.ok and result.played is not None:
                await self._post(result, nonce)
        except Exception:
            log.exception("game %s: the computer's reply failed; the sweep will ask again", game_id)
        finally:
            del self._replying[game_id]
            if game_id in self._again:
                self._again.discard(game_id)
                self.schedule(game_id)

    async def close(self) -> None:
        """Stop the replies in progress; their turns stay, and the sweep takes them up after a restart."""
        self._closed = True
        tasks = list(self._replying.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
