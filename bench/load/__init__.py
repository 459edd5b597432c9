"""``python -m bench load``: real ``pbm run`` processes on one PostgreSQL, played by simulated players through the
fake Discord, with moves sent twice and a process killed and restarted midway.

The same world is played twice, by 1 and then by 2 bot processes (the shards split between them; the fake routes
each guild's interactions to its shard's process): ``games`` Druid games (10x10, the default; no game ends within
a few dozen moves) across ``guilds`` guilds, ``moves`` moves in all. The players keep ``concurrency`` moves in
flight per process; each sends a game's next move when the board of the previous one is posted. Every
:data:`DUPLICATE_EVERY`-th move is sent twice at once. When half the moves are handed out, the last process is
killed (SIGKILL) and started again.

Measured: moves per second, the 95th percentile from ``/move`` sent to its board posted in the thread, and where
the CPU went per move (the bot processes, PostgreSQL, the fake Discord, the players; and what other work on the
machine took meanwhile). Proved afterwards (:mod:`bench.load.proofs`): no acknowledged move lost, none applied
twice, one board per move, every game replaying from its log to its snapshot.

The world is built directly, before the bots connect: players, games (through the actions, as ``pbm do``
would) and their threads, so the bots learn the threads with the guilds and the run measures moves only.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import Row
from bench.load.players import Players, Table
from bench.load.proofs import ANSWERED_BY_THE_TURN, Evidence, GameEvidence, MoveEvidence, answer_kind, problems
from bench.load.servers import BotProcess, machine_cpu, postgres, tree_cpu
from bot.actions import Actions
from bot.maintenance import check
from data.store import Store
from rules import registry
from tests.fakediscord.records import Interaction
from tests.fakediscord.server import FakeDiscord

#: one move in this many is sent twice at once (5%)
DUPLICATE_EVERY = 20
#: moves in flight per bot process: enough that a process always has work, few enough that latency stays low
CONCURRENCY_PER_PROCESS = 16
GAME = "druid"


@dataclass(frozen=True)
class LoadConfig:
    """The size of a load run."""

    games: int = 1000
    guilds: int = 100
    moves: int = 20000
    processes: tuple[int, ...] = (1, 2)
    concurrency: int | None = None
    kill: bool = True

    def in_flight(self, processes: int) -> int:
        return self.concurrency or CONCURRENCY_PER_PROCESS * processes

    @property
    def shards(self) -> int:
        """Shards of the bot: every process count of the run serves the same shards, split differently."""
        return max(2, *self.processes)


#: the configuration of ``--quick`` and of the test: well under a minute
SMALL = LoadConfig(games=40, guilds=4, moves=400)


@dataclass
class CpuSplit:
    """CPU seconds used during the measured window, by whom: the bot processes (and of that, their main threads:
    the event loops, which hold the interpreter lock for all but the drawing), PostgreSQL, the fake Discord, the
    simulated players, and everything else the machine ran meanwhile."""

    bots: float
    bot_main_threads: float
    postgres: float
    fake: float
    players: float
    others: float

    def per_move_ms(self, moves: int) -> dict[str, float]:
        return {k: v * 1000 / max(moves, 1) for k, v in vars(self).items()}


@dataclass
class RunReport:
    """One measured run and what it proved."""

    processes: int
    moves: int
    seconds: float
    latencies: list[float]
    acks: list[float]
    cpu: CpuSplit
    evidence: Evidence
    downtime: float | None = None
    problems: list[str] = field(default_factory=list)

    def kill_story(self) -> str:
        """What the kill did to the moves in the killed process's hands."""
        if self.downtime is None:
            return ""
        retried = [m for m in self.evidence.moves if m.retried]
        again = sum("done" in m.answers for m in retried)
        killed = sum("killed" in m.answers for m in self.evidence.moves)
        return (
            f"killed and back in {self.downtime:.1f} s; {killed} moves in its hands, {len(retried)} typed again: "
            f"{again} played then, {len(retried) - again} refused (played before the kill, board reposted)"
        )

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    def percentile(self, fraction: float, values: list[float] | None = None) -> float:
        data = sorted(self.latencies if values is None else values)
        if not data:
            return 0.0
        return data[min(len(data) - 1, round(fraction * (len(data) - 1)))]


def split_shards(processes: int, shards: int) -> list[tuple[int, ...]]:
    """The shards of each process: every shard once, as evenly as possible."""
    return [tuple(s for s in range(shards) if s % processes == n) for n in range(processes)]


async def build_world(fake: FakeDiscord, url: str, config: LoadConfig) -> list[Table]:
    """Guilds (half on each shard), a #games channel each, two players per game (each player in two games of
    their guild), the games started and their threads made; returns the players' tables."""
    store = await Store.open(url)
    try:
        actions = Actions(store, seed_source=lambda: 7)
        shards = config.shards
        guilds = [await fake.add_guild(f"Guild {n}", shard=(n % shards, shards)) for n in range(config.guilds)]
        channels = [await fake.add_channel(g, "games") for g in guilds]
        per_guild = [config.games // config.guilds + (n < config.games % config.guilds) for n in range(config.guilds)]
        tables = []
        for n, (guild, channel) in enumerate(zip(guilds, channels, strict=True)):
            seats = max(per_guild[n], 3)
            uids = {f"g{n}p{k}": await fake.add_member(guild, f"g{n}p{k}") for k in range(seats)}
            for name, uid in uids.items():
                await store.ensure_player(name, uid)
            names = list(uids)
            for k in range(per_guild[n]):
                pair = [names[k], names[(k + 1) % seats]]
                started = await actions.challenge(GAME, pair, start=True, guild_id=guild, channel_id=channel)
                assert started.ok and started.game_id is not None, started.message
                game_id = started.game_id
                thread = await fake.add_thread(
                    channel, f"Druid {game_id}: {' vs '.join(pair)}", [uids[p] for p in pair]
                )
                await store.set_thread(game_id, guild, channel, thread)
                row = await store.load_game(game_id)
                state = registry.get(row.type).load(row.snapshot)
                tables.append(
                    Table(game_id, guild, n % shards, thread, {p: uids[p] for p in pair}, state, random.Random(game_id))
                )
        return tables
    finally:
        await store.close()


async def collect(
    fake: FakeDiscord, url: str, players: Players, tables: list[Table], bots: list[BotProcess]
) -> Evidence:
    """The evidence of a finished run: answers from the fake, logs and replays from the database, boards counted
    by the fake."""
    answers: dict[int, str | None] = {}
    for sent in players.sent:
        for iid in sent.interactions:
            record = fake.interactions[iid]
            answers[iid] = answer_of(fake, record)
    done: dict[int, list[str]] = {t.game_id: [] for t in tables}
    moves = []
    for sent in players.sent:
        kinds = [
            "killed" if answers[iid] is None and players.in_killed_hands(iid) else answer_kind(answers[iid])
            for iid in sent.interactions
        ]
        done[sent.game_id] += [sent.text for kind in kinds if kind == "done"]
        odd = [answers[iid] or "" for iid, kind in zip(sent.interactions, kinds, strict=True) if kind == "other"]
        moves.append(MoveEvidence(sent.game_id, sent.text, kinds, sent.duplicate, sent.retried, odd))
    store = await Store.open(url)
    try:
        report = await check(Actions(store))
        replay = {}
        for line in report.game_problems:
            head, _, rest = line.partition(": ")
            replay[int(head.removeprefix("game "))] = rest
        games = []
        for table in tables:
            log = [(r.seq, r.player_id or "", r.text) for r in await store.log(table.game_id)]
            boards = sum(1 for m in fake.channel_log(table.thread) if m.attachments)
            games.append(
                GameEvidence(
                    table.game_id, table.confirmed, done[table.game_id], log, boards, replay.get(table.game_id)
                )
            )
    finally:
        await store.close()
    failures = [line for bot in bots for line in bot.read_failures()]
    return Evidence(games, moves, len(players.unanswered), failures + [f"database: {p}" for p in report.file_problems])


def answer_of(fake: FakeDiscord, record: Interaction) -> str | None:
    """What the player was answered: the reply's words, :data:`ANSWERED_BY_THE_TURN` when the bot removed its
    "thinking…" reply (the move was played in its thread), ``None`` while it still thinks (or never answered)."""
    original = fake.messages.get(record.original_id) if record.original_id is not None else None
    if original is None:
        return None
    if original.deleted:
        return ANSWERED_BY_THE_TURN
    return None if original.loading else original.content


async def _settle(fake: FakeDiscord, players: Players, timeout: float = 30.0) -> None:
    """Wait until every interaction a live process received is answered (the refusals of duplicates may come
    after the board); the ones the killed process had in hand never will be."""

    def answered(iid: int) -> bool:
        return answer_of(fake, fake.interactions[iid]) is not None

    sent_to_live = [iid for sent in players.sent for iid in sent.interactions if not players.in_killed_hands(iid)]
    waiting = [iid for iid in sent_to_live if not answered(iid)]

    def settled() -> bool:
        while waiting and answered(waiting[-1]):
            waiting.pop()
        return not waiting

    with contextlib.suppress(TimeoutError):
        await fake.wait_for(settled, timeout, "answers to every interaction")


async def measure(config: LoadConfig, processes: int, folder: Path) -> RunReport:
    """One run with ``processes`` bot processes, from an empty database to the proofs."""
    loop = asyncio.get_running_loop()
    with postgres(folder / "postgres") as (url, pg_pid):
        shards = config.shards
        fake = FakeDiscord(shards=shards)
        await fake.start()
        bots: list[BotProcess] = []
        try:
            tables = await build_world(fake, url, config)
            # simulated players type faster than any member: the command rate per member would only slow them
            env = {**os.environ, **fake.env(), "PBM_DATABASE_URL": url, "PBM_COMMAND_BURST": "0"}
            env.pop("PBM_DB", None)
            bots = [
                BotProcess(mine, shards, env, folder / f"bot-{n}.log")
                for n, mine in enumerate(split_shards(processes, shards))
            ]
            for bot in bots:
                await bot.start()
            for shard in range(shards):
                await fake.wait_connected(timeout=120, shard=shard)
            ready = {shard: asyncio.Event() for shard in range(shards)}
            for event in ready.values():
                event.set()
            victim = bots[-1]
            kill_task: asyncio.Task[float] | None = None
            players: Players

            def progress(handed_out: int) -> None:
                nonlocal kill_task
                if config.kill and kill_task is None and handed_out >= config.moves // 2:
                    kill_task = asyncio.create_task(kill_and_restart(fake, victim, ready, players))

            players = Players(
                fake,
                tables,
                config.moves,
                concurrency=config.in_flight(processes),
                duplicate_every=DUPLICATE_EVERY,
                ready=ready,
                on_progress=progress,
            )
            before = _cpu_now(bots, pg_pid, players)
            started = loop.time()
            await _until_played(asyncio.create_task(players.play()), lambda: kill_task)
            ended = max([s.posted_at for s in players.sent if s.posted_at is not None], default=loop.time())
            after = _cpu_now(bots, pg_pid, players)
            downtime = await kill_task if kill_task is not None else None
            await _settle(fake, players)
            evidence = await collect(fake, url, players, tables, bots)
        finally:
            try:
                for bot in bots:
                    await bot.stop()
                await fake.stop()
            finally:
                for bot in bots:
                    bot.stop_now()  # whatever a cancelled stop left running
    done = [s for s in players.sent if s.posted_at is not None]
    acks = [
        fake.interactions[s.interactions[0]].ack_latency
        for s in done
        if fake.interactions[s.interactions[0]].ack_latency is not None
    ]
    return RunReport(
        processes,
        len(done),
        ended - started,
        [s.posted_at - s.sent_at for s in done],  # type: ignore[operator]
        acks,  # type: ignore[arg-type]
        _cpu_split(before, after),
        evidence,
        downtime,
        problems(evidence),
    )


async def _until_played(play: asyncio.Task[None], kill: Callable[[], asyncio.Task[float] | None]) -> None:
    """Wait for the players to finish. A kill and restart that fails ends the run with its error: the players
    would wait for the killed process's shards forever."""
    try:
        while not play.done():
            await asyncio.wait({play}, timeout=1.0)
            killing = kill()
            if killing is not None and killing.done() and not killing.cancelled() and killing.exception():
                raise RuntimeError("the kill and restart failed") from killing.exception()
        play.result()
    finally:
        play.cancel()


async def kill_and_restart(
    fake: FakeDiscord, victim: BotProcess, ready: dict[int, asyncio.Event], players: Players
) -> float:
    """SIGKILL ``victim``, start it again, and once its shards are connected tell the players whose moves it had
    in hand; returns the seconds its shards were unserved."""
    loop = asyncio.get_running_loop()
    old = list(fake.sessions)  # the objects, kept alive: a new session must not be taken for one of them
    for shard in victim.shards:
        ready[shard].clear()
    players.killing(set(victim.shards))
    killed = loop.time()
    await victim.kill()
    await victim.start()

    def back() -> bool:
        new = [s for s in fake.sessions if not any(s is o for o in old)]
        live = [s for s in new if s.ready and not s.ws.closed and s.shard is not None]
        return {s.shard[0] for s in live} >= set(victim.shards)  # type: ignore[index]

    await fake.wait_for(back, 120, "the restarted process's shards")
    for shard in victim.shards:
        ready[shard].set()
    players.interrupt(set(victim.shards), killed)
    return loop.time() - killed


def _cpu_now(bots: list[BotProcess], pg_pid: int, players: Players) -> dict[str, float]:
    return {
        "bots": sum(b.cpu() for b in bots),
        "bot_main_threads": sum(b.main_cpu() for b in bots),
        "postgres": tree_cpu(pg_pid),
        "bench": time.process_time(),
        "players": players.cpu,
        "machine": machine_cpu(),
    }


def _cpu_split(before: dict[str, float], after: dict[str, float]) -> CpuSplit:
    used = {k: after[k] - before[k] for k in before}
    ours = used["bots"] + used["postgres"] + used["bench"]
    return CpuSplit(
        bots=used["bots"],
        bot_main_threads=used["bot_main_threads"],
        postgres=used["postgres"],
        fake=used["bench"] - used["players"],
        players=used["players"],
        others=max(0.0, used["machine"] - ours),
    )


async def measure_all(config: LoadConfig) -> list[RunReport]:
    """Every process count of ``config``, one after the other; each run's problems, if any, in full on stderr."""
    reports = []
    for processes in config.processes:
        # The fake Discord runs in this process, beside the evidence of the runs before: frozen, the garbage
        # collector no longer walks it, which made the fake's CPU per move an eighth higher in a second run.
        gc.collect()
        gc.freeze()
        with tempfile.TemporaryDirectory(prefix="pbm-load-") as tmp:
            report = await measure(config, processes, Path(tmp))
        for line in report.problems:
            print(f"load, {processes} process(es): {line}", file=sys.stderr)
        reports.append(report)
    return reports


def rows(config: LoadConfig, reports: list[RunReport]) -> list[Row]:
    """The benchmark rows of a load run."""
    out = []
    scale = f"{config.games:,} games / {config.guilds} guilds / {config.moves:,} moves"
    for r in reports:
        c = r.cpu.per_move_ms(r.moves)
        split = (
            f"bots {c['bots']:.1f} (event loops {c['bot_main_threads']:.1f}), PostgreSQL {c['postgres']:.1f}, "
            f"fake Discord {c['fake']:.1f}, players {c['players']:.2f}; other work on the machine {c['others']:.1f}"
        )
        kill = f"; {r.kill_story()}" if r.downtime is not None else ""
        who = f"{r.processes} process" + ("es" if r.processes > 1 else "")
        out.append(
            Row(
                "load",
                f"{who}: moves per second",
                r.rate,
                "moves/s",
                note=f"{scale}; {r.moves} moves in {r.seconds:.1f} s{kill}; CPU ms per move: {split}",
            )
        )
        out.append(
            Row(
                "load",
                f"{who}: `/move` to board posted, p95",
                r.percentile(0.95) * 1000,
                "ms",
                note=f"median {r.percentile(0.5) * 1000:.0f} ms, max {max(r.latencies, default=0) * 1000:.0f} ms; "
                f"acknowledged p95 {r.percentile(0.95, r.acks) * 1000:.0f} ms",
            )
        )
        out.append(
            Row(
                "load",
                f"{who}: proofs",
                len(r.problems),
                "problems",
                "0",
                not r.problems,
                note="; ".join(r.problems[:3])
                or "no move lost, none applied twice, one board per move, every game replays to its snapshot",
            )
        )
    rates: dict[int, list[float]] = {}
    for r in reports:
        rates.setdefault(r.processes, []).append(r.rate)
    if 1 in rates and 2 in rates:
        one, two = statistics.mean(rates[1]), statistics.mean(rates[2])
        ratio = two / one if one else 0.0
        runs = len(rates[1]) + len(rates[2])
        note = (
            ""
            if runs == 2
            else (
                f"mean of {len(rates[2])} runs with 2 ({', '.join(f'{x:.1f}' for x in rates[2])} moves/s) over mean of "
                f"{len(rates[1])} with 1 ({', '.join(f'{x:.1f}' for x in rates[1])}), run alternately"
            )
        )
        out.append(
            Row("load", "throughput, 2 processes / 1", ratio, "x", ">= 1.6", ratio >= 1.6, "1 process, same run", note)
        )
    return out


async def _interruptible(config: LoadConfig) -> list[RunReport]:
    """:func:`measure_all`, cancelled (so every server and bot it started is stopped) on SIGINT or SIGTERM, even
    when started in the background, where a shell ignores SIGINT."""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, task.cancel)
    return await measure_all(config)


def run(quick: bool = False, **options: object) -> list[Row]:
    """The ``load`` group: ``options`` are :class:`LoadConfig` fields (``--games`` ... on the command line)."""
    base = SMALL if quick else LoadConfig()
    config = LoadConfig(**{**vars(base), **{k: v for k, v in options.items() if v is not None}})
    try:
        reports = asyncio.run(_interruptible(config))
    except asyncio.CancelledError:
        raise KeyboardInterrupt from None
    return rows(config, reports)
