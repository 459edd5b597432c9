"""Correspondence clocks at scale (issue 12): the sweep over due timers, and a move answered by queued lines.

**The sweep.** A file holding 100,000 active timed two-player games, each with its clock timer: 1,000 have run
out of time (their timer fell due a day ago), the rest are due days from now. The games are real: a few are
started and played a few moves through ``Actions`` (one per game type), then their rows (snapshot, clock JSON,
log, memory) are copied under new ids and new players with bulk inserts in one transaction, as
:mod:`bench.store` does; only each copy's clock start moves, and with it its deadline and its timer. Measured
with an injected clock (nothing sleeps): the one query a sweep starts with (``Store.due_timers(now, 1000)``),
beside the same ``SELECT`` on the standard library's ``sqlite3`` in the same run, interleaved; then the whole
sweep applying the 1,000 timeouts, on fresh copies of the file, checked afterwards (exactly 1,000 games over on
time, no timer left due).

**Queued lines.** A move in a two-player Druid game where the player to move next has stored 20 lines through
``Actions.queue``, none of which answers the move (the worst case: every line is read and dropped, each with a
private notice), and where the last of the 20 does (its reply is played), against the same move in a game with
no queued lines. Each sample is a fresh game (a move consumes the lines): a game is set up once through the
actions and copied. The three kinds are timed interleaved, in rotating order.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import Row
from bot.actions import Actions
from bot.correspondence.clock import Clock
from bot.correspondence.periods import DAY, warning_time
from data.store import Store
from rules import registry

GAMES = 100_000
DUE = 1_000
#: the time the measurements run at (the injected clock); every game started before it
NOW = 1_900_000_000.0
#: the players the template games are started with, replaced by the copies' own players
A, B = "zzbenchA", "zzbenchB"
PLAYERS = 2_000
PREFIX_MOVES = 4
DUE_SQL = "SELECT id, due_at, kind, game_id, player_id, ref, data FROM timers WHERE due_at <= ? ORDER BY due_at LIMIT ?"
CLONED = ("game_players", "moves", "game_memory", "timers", "queued_lines")


def _actions(store: Store, now: list[float]) -> Actions:
    return Actions(store, clock=lambda: now[0], seed_source=lambda: 12, think=None)


async def _play(actions: Actions, game_id: int, moves: int, rng: random.Random) -> list[str]:
    """``moves`` random legal moves in a game, through the actions; returns what was played."""
    played = []
    for _ in range(moves):
        shown = await actions.show(game_id)
        state = shown.state
        assert state is not None and shown.to_move is not None
        legal = [m for m in state.legal_moves if state.move_text(m) not in ("resign", "pass", "swap")]
        text = state.move_text(rng.choice(legal))
        result = await actions.move(game_id, shown.to_move, text)
        assert result.ok, result.message
        played.append(text)
    return played


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def _template(db: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """Every row of a game, by table (without the rows' own ids where the table has them)."""
    out: dict[str, Any] = {"games": db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()}
    for table in CLONED:
        cols = _cloned_columns(db, table)
        out[table] = db.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE game_id = ?", (game_id,)).fetchall()
    return out


def _cloned_columns(db: sqlite3.Connection, table: str) -> list[str]:
    """A table's columns as copied: ``game_id`` first, the row's own ``id`` left to SQLite."""
    return ["game_id", *(c for c in _columns(db, table) if c not in ("id", "game_id"))]


def _rename(value: Any, a: str, b: str) -> Any:
    return value.replace(A, a).replace(B, b) if isinstance(value, str) else value


def _insert_copies(db: sqlite3.Connection, copies: list[tuple[int, dict[str, Any], str, str, dict[str, Any]]]):
    """Insert copies of template games: (new id, template, player a, player b, overrides of games columns)."""
    game_cols = _columns(db, "games")
    rows: dict[str, list[tuple]] = {t: [] for t in ("games", *CLONED)}
    for new_id, template, a, b, overrides in copies:
        game = [_rename(v, a, b) for v in template["games"]]
        game[0] = new_id
        for name, value in overrides.items():
            if name != "timers":
                game[game_cols.index(name)] = value
        rows["games"].append(tuple(game))
        for table in CLONED:
            if table == "timers" and "timers" in overrides:
                continue
            for r in template[table]:
                rows[table].append((new_id, *(_rename(v, a, b) for v in r[1:])))
        if "timers" in overrides:
            rows["timers"].append(overrides["timers"])
    db.executemany(f"INSERT INTO games VALUES ({', '.join('?' * len(game_cols))})", rows["games"])
    for table in CLONED:
        cols = _cloned_columns(db, table)
        if rows[table]:
            db.executemany(
                f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", rows[table]
            )


def _forget(db: sqlite3.Connection, game_ids: list[int]) -> None:
    marks = ", ".join("?" * len(game_ids))
    for table in CLONED:
        db.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", game_ids)
    db.execute(f"DELETE FROM games WHERE id IN ({marks})", game_ids)


# ---- the sweep --------------------------------------------------------------------------------------------------


async def _start_templates(path: Path, started: float) -> list[int]:
    """One real game of each type, a few moves in, started at ``started``."""
    store = await Store.open(path)
    now = [started]
    actions = _actions(store, now)
    rng = random.Random(4)
    ids = []
    try:
        for name in registry.names():
            try:
                registry.get(name)
            except ImportError:
                continue
            result = await actions.challenge(name, [A, B], [], start=True)
            assert result.ok and result.game_id is not None, result.message
            await _play(actions, result.game_id, PREFIX_MOVES, rng)
            ids.append(result.game_id)
    finally:
        await store.close()
    return ids


def build_sweep(path: Path, games: int, due: int) -> str:
    """The file of the sweep: ``games`` copies of the template games, ``due`` of them out of time at ``NOW``."""
    ids = asyncio.run(_start_templates(path, NOW - 10 * DAY))
    rng = random.Random(9)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA synchronous=OFF")
        templates = [_template(db, i) for i in ids]
        clock_col = _columns(db, "games").index("clock")
        _forget(db, ids)
        db.executemany(
            "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING",
            [(f"p{i:04d}", NOW - 100 * DAY) for i in range(PLAYERS)],
        )
        every = games // due
        copies = []
        for new_id in range(1, games + 1):
            template = templates[(new_id + new_id // every) % len(templates)]  # the due games of every type
            a = f"p{new_id % PLAYERS:04d}"
            b = f"p{(new_id * 7 + 1 + new_id // PLAYERS) % PLAYERS:04d}"
            if a == b:
                b = f"p{(new_id + 1) % PLAYERS:04d}"
            clock = json.loads(_rename(template["games"][clock_col], a, b))
            out_of_time = new_id % every == 0 and new_id // every <= due
            if out_of_time:  # ran out a day ago, every warning sent
                clock["since"] = NOW - 8 * DAY - rng.uniform(0, 3600)
                clock["warned"] = ["half", "day", "hour"]
            else:  # the half-time warning due in 0.5 to 3.5 days
                clock["since"] = NOW - rng.uniform(0, 3 * DAY)
                clock["warned"] = []
            running = Clock.from_json(clock)
            deadline = running.deadline("UTC")
            assert deadline is not None
            timer_at = min([warning_time(w.due, deadline, None) for w in running.pending_warnings("UTC")] + [deadline])
            overrides = {
                "clock": json.dumps(clock, separators=(",", ":")),
                "deadline": deadline,
                "timers": (new_id, timer_at, "clock", None, None, "{}"),
            }
            copies.append((new_id, template, a, b, overrides))
            if len(copies) == 10_000:
                _insert_copies(db, copies)
                copies = []
        _insert_copies(db, copies)
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert db.execute("SELECT COUNT(*) FROM timers WHERE due_at <= ?", (NOW,)).fetchone()[0] == due
    return ", ".join(sorted({t["games"][1] for t in templates}))


async def measure_due(path: Path, repeat: int) -> dict[str, list[tuple[float, float]]]:
    """``Store.due_timers`` and the same query on bare ``sqlite3``, interleaved: (wall, CPU) seconds."""
    store = await Store.open(path)
    peer = sqlite3.connect(path, isolation_level=None)
    for pragma in ("busy_timeout=10000", "journal_mode=WAL", "foreign_keys=ON", "synchronous=FULL"):
        peer.execute(f"PRAGMA {pragma}")
    out: dict[str, list[tuple[float, float]]] = {"ours": [], "sqlite3": []}
    try:
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            rows = await store.due_timers(NOW, DUE)
            out["ours"].append((time.perf_counter() - wall, time.process_time() - cpu))
            assert len(rows) == DUE
            wall, cpu = time.perf_counter(), time.process_time()
            bare = peer.execute(DUE_SQL, (NOW, DUE)).fetchall()
            out["sqlite3"].append((time.perf_counter() - wall, time.process_time() - cpu))
            assert len(bare) == DUE
    finally:
        peer.close()
        await store.close()
    return out


async def measure_sweep(path: Path) -> tuple[float, float, int, list[str]]:
    """One sweep at ``NOW``: wall and CPU seconds, the timeouts it reported, and what was wrong afterwards."""
    store = await Store.open(path)
    now = [NOW]
    actions = _actions(store, now)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        notices = await actions.sweep()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        await store.close()
    problems = []
    timeouts = sum(1 for n in notices if n.kind == "timeout")
    with sqlite3.connect(path) as db:
        on_time = db.execute(
            "SELECT COUNT(*) FROM games WHERE status = 'finished' AND json_extract(outcome, '$.cause') = 'timeout'"
        ).fetchone()[0]
        finished = db.execute("SELECT COUNT(*) FROM games WHERE status != 'active'").fetchone()[0]
        still_due = db.execute("SELECT COUNT(*) FROM timers WHERE due_at <= ?", (NOW,)).fetchone()[0]
    if on_time != DUE or finished != DUE:
        problems.append(f"{on_time} games over on time, {finished} over in all (expected {DUE})")
    if still_due:
        problems.append(f"{still_due} timers still due")
    if timeouts != DUE or len(notices) != DUE:
        problems.append(f"{timeouts} timeout notices of {len(notices)}")
    return wall, cpu, timeouts, problems


def sweep_rows(quick: bool) -> list[Row]:
    games, runs, repeat = (20_000, 1, 20) if quick else (GAMES, 5, 50)
    due = DUE
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "sweep.sqlite3"
        started = time.perf_counter()
        types = build_sweep(base, games, due)
        built = time.perf_counter() - started
        size_mb = base.stat().st_size / 1e6
        due_times = asyncio.run(measure_due(base, repeat))
        sweeps = []
        for run in range(runs):
            copy = Path(tmp) / f"run{run}.sqlite3"
            shutil.copyfile(base, copy)
            sweeps.append(asyncio.run(measure_sweep(copy)))
            copy.unlink()
    scale = f"{games:,} active timed games ({types}), {due:,} due; {size_mb:.0f} MB file built in {built:.1f} s"
    ours = statistics.median(w for w, _ in due_times["ours"]) * 1000
    ours_cpu = statistics.median(c for _, c in due_times["ours"]) * 1000
    peer = statistics.median(w for w, _ in due_times["sqlite3"]) * 1000
    peer_cpu = statistics.median(c for _, c in due_times["sqlite3"]) * 1000
    walls = sorted(s[0] for s in sweeps)
    cpus = sorted(s[1] for s in sweeps)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    per = wall / due * 1000
    problems = sorted({p for s in sweeps for p in s[3]})
    checked = "; ".join(problems) if problems else f"after each: {due:,} games over on time, no timer due"
    return [
        Row(
            "correspondence",
            f"due timers: the {due:,} due of {games:,} (median)",
            ours,
            "ms",
            "<= 50 ms",
            ours <= 50,
            peer=f"stdlib sqlite3 {peer:.2f} ms wall, {peer_cpu:.2f} ms CPU ({ours / peer:.1f}x)",
            note=f"the query each sweep starts with (the bot sweeps at least once a minute); CPU {ours_cpu:.2f} ms; "
            f"{repeat} runs interleaved; {scale}",
        ),
        Row(
            "correspondence",
            f"sweep applying {due:,} timeouts, per timeout",
            per,
            "ms",
            "<= 5 ms",
            per <= 5 and not problems,
            peer="",
            note=f"1,000 clocks out at once: the last of those games is over on time {wall:.2f} s after the sweep "
            f"starts ({cpu:.2f} s CPU, "
            f"{cpu / due * 1000:.2f} ms CPU each; median of {runs} runs on fresh copies, "
            f"walls {', '.join(f'{w:.2f}' for w in walls)} s); each a guarded commit, the game over on time; "
            f"{checked}",
        ),
    ]


# ---- queued lines -----------------------------------------------------------------------------------------------


async def _queue_templates(path: Path, now: list[float]) -> tuple[dict[str, int], str, str]:
    """Three Druid games at the same position, player A to move: no lines, 20 lines none answering A's move,
    20 lines the last of which answers it. Returns their ids, A's move and the matching line's reply."""
    store = await Store.open(path)
    actions = _actions(store, now)
    try:
        ids: dict[str, int] = {}
        for kind in ("none", "miss", "match"):
            result = await actions.challenge("druid", [A, B], [], start=True)
            assert result.ok and result.game_id is not None, result.message
            ids[kind] = result.game_id
            await _play(actions, result.game_id, 6, random.Random(5))
        shown = await actions.show(ids["none"])
        state = shown.state
        assert state is not None and shown.to_move == A
        rng = random.Random(6)
        texts = [state.move_text(m) for m in state.legal_moves]
        texts = [t for t in texts if t not in ("resign", "pass", "swap")]
        rng.shuffle(texts)
        move, others = texts[0], texts[1:21]
        after = state.clone()
        after.push(after.parse_move(move, after.to_move))
        replies = [after.move_text(m) for m in after.legal_moves]
        reply = next(t for t in replies if t not in ("resign", "pass", "swap"))

        def answer(first: str) -> str:
            """A legal reply of B to A's ``first`` (lines are judged in the position they would make)."""
            future = state.clone()
            future.push(future.parse_move(first, future.to_move))
            options = [future.move_text(m) for m in future.legal_moves]
            return rng.choice([t for t in options if t not in ("resign", "pass", "swap")])

        for kind in ("miss", "match"):
            lines = [f"{x} {answer(x)}" for x in others]
            if kind == "match":
                lines[-1] = f"{move} {reply}"
            for line in lines:
                queued = await actions.queue(ids[kind], B, line)
                assert queued.ok, queued.message
            listed = await actions.queue(ids[kind], B)
            assert len(listed.items) == 20
        return ids, move, reply
    finally:
        await store.close()


async def measure_queue(path: Path, samples: int) -> tuple[dict[str, list[tuple[float, float]]], list[str]]:
    now = [NOW - DAY]
    ids, move, reply = await _queue_templates(path, now)
    kinds = list(ids)
    db = sqlite3.connect(path)
    templates = {kind: _template(db, game_id) for kind, game_id in ids.items()}
    first = db.execute("SELECT MAX(id) FROM games").fetchone()[0] + 1
    copies, games = [], {kind: [] for kind in kinds}
    for i in range(samples):
        for k, kind in enumerate(kinds):
            new_id = first + i * len(kinds) + k
            copies.append((new_id, templates[kind], A, B, {}))
            games[kind].append(new_id)
    _insert_copies(db, copies)
    db.commit()
    db.close()
    store = await Store.open(path)
    actions = _actions(store, now)
    times: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    problems = []
    try:
        for i in range(samples):
            order = kinds[i % 3 :] + kinds[: i % 3]
            for kind in order:
                wall, cpu = time.perf_counter(), time.process_time()
                result = await actions.move(games[kind][i], A, move)
                times[kind].append((time.perf_counter() - wall, time.process_time() - cpu))
                if not result.ok:
                    problems.append(f"{kind}: {result.message}")
                elif kind == "match" and ("(Queued)" not in result.message or reply not in result.message):
                    problems.append("the matching line's reply was not played")
                elif kind != "match" and result.to_move != B:
                    problems.append(f"{kind}: a reply was played")
                if kind != "none" and (await actions.queue(games[kind][i], B)).items:
                    problems.append(f"{kind}: queued lines left after the move")
    finally:
        await store.close()
    return times, sorted(set(problems))


def _stats(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    walls = sorted(w for w, _ in pairs)
    return (
        statistics.median(walls) * 1000,
        walls[int(0.95 * (len(walls) - 1))] * 1000,
        statistics.median(c for _, c in pairs) * 1000,
    )


def queue_rows(quick: bool) -> list[Row]:
    samples = 30 if quick else 200
    with tempfile.TemporaryDirectory() as tmp:
        times, problems = asyncio.run(measure_queue(Path(tmp) / "queue.sqlite3", samples))
    none, miss, match = _stats(times["none"]), _stats(times["miss"]), _stats(times["match"])
    base = f"no queued lines: {none[0]:.2f} ms median, {none[1]:.2f} ms p95, {none[2]:.2f} ms CPU"
    checked = "; ".join(problems) if problems else "checked: lines consumed"
    extra = miss[0] - none[0]
    return [
        Row(
            "correspondence",
            "a move, the opponent has 20 queued lines none answering it: extra (median)",
            extra,
            "ms",
            "<= 2 ms more",
            extra <= 2 and not problems,
            peer=base,
            note=f"what the mover waits for the 20 lines to be read and dropped (20 notices): {miss[0]:.2f} ms "
            f"median, {miss[1]:.2f} ms p95 (+{miss[1] - none[1]:.2f}), {miss[2]:.2f} ms CPU "
            f"(+{miss[2] - none[2]:.2f}); Druid 10x10 at move 7; {samples} fresh games each, interleaved; {checked}",
        ),
        Row(
            "correspondence",
            "a move answered by the 20th queued line (the reply played): extra (median)",
            match[0] - none[0],
            "ms",
            peer=base,
            note=f"the move and the queued reply committed, 19 lines dropped: {match[0]:.2f} ms median, "
            f"{match[1]:.2f} ms p95, {match[2]:.2f} ms CPU; {match[0] / none[0]:.2f}x a move alone",
        ),
    ]


def run(quick: bool = False) -> list[Row]:
    return [*sweep_rows(quick), *queue_rows(quick)]
