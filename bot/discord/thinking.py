"""Computer players' moves worked out in worker processes.

The search (:mod:`ai`) is pure Python CPU work: run in a thread it would hold the interpreter lock against the
event loop for its whole thinking time, and every other player would wait. A small pool of processes does it
instead; the positions travel to it pickled. The pool starts with the first move asked for (a bot with no
computer games never pays for it) and stops with the bot.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from bot.actions import decide_now
from rules.base import GameState


class ComputerPool:
    """``await pool(state, player, seconds)`` -> (move text, note), as :class:`bot.actions.Actions` ``think``
    expects. ``workers`` defaults to one less than the machine's processors (at least one)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None

    async def __call__(self, state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
        if self._pool is None:
            # spawn, not fork: the bot's process holds threads (the database's) that a fork would copy mid-step
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(self._pool, decide_now, state, player, seconds)

    def close(self) -> None:
        """Stop the workers; a move being worked out is abandoned (the sweep asks again after a restart)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
